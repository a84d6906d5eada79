import { describe, expect, it } from 'vitest';
import {
  clientExportSearch,
  countryCode,
  duplicateKeys,
  formatTaxIds,
  mapHeaders,
  missingRequiredColumns,
  parseCsv,
  parseRow,
  rowValues,
  ZClientExportQuery,
} from './client-import';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and any line ending', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"two\nlines",z\rlast,row')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', 'z'],
      ['last', 'row'],
    ]);
  });

  it('drops a BOM, keeps empty cells and adds no record for a trailing line end', () => {
    expect(parseCsv('\uFEFFName,Email\r\nAsha,\r\n,\r\n')).toEqual([
      ['Name', 'Email'],
      ['Asha', ''],
      ['', ''],
    ]);
  });

  it('guesses semicolons and tabs from the header line', () => {
    expect(parseCsv('Name;City\nAsha;Pune, MH\n')).toEqual([
      ['Name', 'City'],
      ['Asha', 'Pune, MH'],
    ]);
    expect(parseCsv('Name\tCity\nAsha\tPune\n')).toEqual([
      ['Name', 'City'],
      ['Asha', 'Pune'],
    ]);
  });
});

describe('mapHeaders', () => {
  it('forgives case, spaces, punctuation and common synonyms', () => {
    const map = mapHeaders([
      'Client Name',
      'E-mail',
      'MOBILE',
      ' pin code ',
      'State',
      'Client Code',
      'Remarks',
    ]);
    expect(map.columns).toEqual([
      { field: 'name' },
      { field: 'email' },
      { field: 'phone' },
      { field: 'postalCode' },
      { field: 'region' },
      { field: 'code' },
      { field: 'notes' },
    ]);
    expect(map.ignored).toEqual([]);
  });

  it('reads a column named after a tax identifier kind, and lists what it ignores or repeats', () => {
    const map = mapHeaders(['Name', 'PAN', 'GST No', 'Shoe size', 'Email', 'Email Address', '']);
    expect(map.columns).toEqual([
      { field: 'name' },
      { taxKind: 'PAN' },
      { taxKind: 'GSTIN' },
      null,
      { field: 'email' },
      null,
      null,
    ]);
    expect(map.ignored).toEqual(['Shoe size']);
    expect(map.repeated).toEqual(['Email Address']);
    expect(missingRequiredColumns(map)).toEqual([]);
    expect(missingRequiredColumns(mapHeaders(['Email', 'Phone']))).toEqual(['Name']);
  });

  it('folds tax columns into one Tax IDs value', () => {
    const map = mapHeaders(['Name', 'Tax IDs', 'PAN', 'GSTIN']);
    expect(rowValues(map, ['Asha', 'TAN:PNEA12345B', ' ABCDE1234F ', ''])).toEqual({
      name: 'Asha',
      taxIds: 'TAN:PNEA12345B; PAN:ABCDE1234F',
    });
  });
});

describe('parseRow', () => {
  const groups = new Map([['mehta family', '0190b0b0-0000-7000-8000-000000000001']]);

  it('reads labels, names and lists as the form would store them', () => {
    const row = parseRow(
      {
        name: ' Asha Rao ',
        type: 'Pvt Ltd',
        status: 'inactive',
        country: 'India',
        group: 'MEHTA FAMILY',
        taxIds: 'pan: ABCDE1234F; GSTIN=27ABCDE1234F1Z5',
        tags: 'GST; vip, gst',
        email: 'Asha@Rao.TEST',
      },
      groups,
    );
    expect(row).toMatchObject({
      ok: true,
      generateCode: true,
      input: {
        name: 'Asha Rao',
        type: 'company',
        status: 'inactive',
        country: 'IN',
        groupId: '0190b0b0-0000-7000-8000-000000000001',
        taxIds: [
          { kind: 'PAN', value: 'ABCDE1234F' },
          { kind: 'GSTIN', value: '27ABCDE1234F1Z5' },
        ],
        tags: ['gst', 'vip'],
        email: 'asha@rao.test',
      },
    });
  });

  it('says what is wrong with each field, in words a person can act on', () => {
    const row = parseRow(
      {
        code: 'bad code!',
        name: 'A',
        email: 'nope',
        type: 'Spaceship',
        status: 'maybe',
        country: 'Atlantis',
        group: 'Unknown',
        taxIds: 'ABCDE1234F',
        phone: 'call me',
      },
      groups,
    );
    expect(row.ok).toBe(false);
    const byField = Object.fromEntries(row.ok ? [] : row.messages.map((m) => [m.field, m.message]));
    expect(byField).toEqual({
      code: 'Use letters, digits, dashes and underscores only in the code',
      name: 'Client name must be at least 2 characters',
      email: 'Enter a valid email address',
      type: expect.stringMatching(/^Unknown type “Spaceship”: use one of Individual, /),
      status: 'Unknown status “maybe”: use Active or Inactive',
      country: 'Unknown country “Atlantis”: use a two-letter code such as IN',
      group: 'No group named “Unknown”: create it under Client groups first',
      taxIds: 'Write tax identifiers as KIND:VALUE, e.g. PAN:ABCDE1234F (not “ABCDE1234F”)',
      phone: 'Use digits, spaces and + ( ) - . only in the phone number',
    });
  });

  it('checks tax identifier kinds against the country, as the form does', () => {
    const row = parseRow({ name: 'Asha Rao', country: 'IN', taxIds: 'EIN:12-3456789' }, groups);
    expect(row).toEqual({
      ok: false,
      messages: [{ field: 'taxIds', message: 'Tax identifier kinds for IN are PAN, TAN, GSTIN' }],
    });
  });

  it('keys duplicates by email and by tax identifier, ignoring case and spaces', () => {
    expect(
      duplicateKeys({ email: 'a@b.test', taxIds: [{ kind: 'pan', value: 'abcde 1234f' }] }).map((k) => k.key),
    ).toEqual(['email:a@b.test', 'tax:PAN:ABCDE1234F']);
  });
});

describe('export', () => {
  it('writes tax ids as the import reads them, and the filter as a query string', () => {
    expect(
      formatTaxIds([
        { kind: 'PAN', value: 'ABCDE1234F' },
        { kind: 'GSTIN', value: 'X1' },
      ]),
    ).toBe('PAN:ABCDE1234F; GSTIN:X1');
    expect(clientExportSearch({ search: 'mehta', type: undefined, tags: ['a', 'b'], archived: 'hide' })).toBe(
      'search=mehta&tags=a&tags=b&archived=hide',
    );
    expect(ZClientExportQuery.parse({ tags: 'gst' }).tags).toEqual(['gst']);
    expect(ZClientExportQuery.safeParse({ type: 'spaceship' }).success).toBe(false);
  });

  it('knows countries by name or code', () => {
    expect(countryCode('in')).toBe('IN');
    expect(countryCode('United Kingdom')).toBe('GB');
    expect(countryCode('USA')).toBe('US');
    expect(countryCode('Narnia')).toBeNull();
  });
});
