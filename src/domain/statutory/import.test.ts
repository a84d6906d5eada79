import { describe, expect, it } from 'vitest';
import { mapHeaders, parseRow, rowValues, taxIdsWithRegistrations } from '../client-import';

const parse = (headers: string[], cells: string[]) =>
  parseRow(rowValues(mapHeaders(headers), cells), new Map());

describe('registrations in the client import', () => {
  it('reads PAN, TAN and GSTIN from the tax identifiers and the rest from their columns', () => {
    const row = parse(
      ['Name', 'Country', 'PAN', 'GSTIN', 'TAN', 'GST scheme', 'CIN', 'Tax audit', 'Turnover band'],
      [
        'Andheri Textiles Pvt Ltd',
        'IN',
        'aapfu0939f',
        '27AAPFU0939F1ZV',
        'MUMA12345B',
        'QRMP',
        'U74999MH2015PTC123456',
        'Yes',
        'Over ₹5 crore',
      ],
    );
    expect(row).toMatchObject({
      ok: true,
      registrations: {
        gstin: '27AAPFU0939F1ZV',
        pan: 'AAPFU0939F',
        tan: 'MUMA12345B',
        gstScheme: 'qrmp',
        cin: 'U74999MH2015PTC123456',
        taxAudit: true,
        turnoverBand: 'over_5cr',
      },
    });
  });
  it('a GSTIN without a scheme is regular; no registrations, none', () => {
    expect(parse(['Name', 'GSTIN'], ['X Traders', '27AAPFU0939F1ZV'])).toMatchObject({
      ok: true,
      registrations: { gstScheme: 'regular' },
    });
    expect(parse(['Name'], ['Y Traders'])).toMatchObject({ ok: true, registrations: null });
  });
  it('refuses a GST scheme without a valid GSTIN, a bad LLPIN, a bad flag, naming the column', () => {
    const row = parse(
      ['Name', 'GSTIN', 'GST scheme', 'LLPIN', 'Tax audit'],
      ['Zed Traders', '27AAPFU0939F1ZW', 'QRMP', 'AB-12', 'maybe'],
    );
    expect(row.ok).toBe(false);
    if (row.ok) return;
    expect(row.messages.map((m) => m.field).sort()).toEqual(['llpin', 'taxAudit', 'taxIds']);
  });
  it('keeps a tax identifier that fails its check as a plain identifier, not a registration', () => {
    const row = parse(
      ['Name', 'Country', 'GSTIN', 'PAN'],
      ['Old Data Co', 'IN', '27ABCDE1234F1Z5', 'AAPFU0939F'],
    );
    expect(row).toMatchObject({
      ok: true,
      input: {
        taxIds: [
          { kind: 'GSTIN', value: '27ABCDE1234F1Z5' },
          { kind: 'PAN', value: 'AAPFU0939F' },
        ],
      },
      registrations: { gstin: null, pan: 'AAPFU0939F', gstScheme: null },
    });
  });
  it('the export adds the registrations’ identifiers the tax list lacks', () => {
    expect(
      taxIdsWithRegistrations([{ kind: 'PAN', value: 'AAPFU0939F' }], {
        pan: 'AAPFU0939F',
        tan: null,
        gstin: '27AAPFU0939F1ZV',
      }),
    ).toEqual([
      { kind: 'PAN', value: 'AAPFU0939F' },
      { kind: 'GSTIN', value: '27AAPFU0939F1ZV' },
    ]);
  });
});
