import { describe, expect, it } from 'vitest';
import { ALL_FILINGS, CATALOGUE, findFiling, type TRegistrationFacts } from './catalogue';
import { applicableFilings, filingDueDate, filingYear, itrCategory } from './rules';

const filing = (code: string) => {
  const f = findFiling(code);
  if (!f) throw new Error(code);
  return f;
};
const dues = (code: string, year = 2025) =>
  filingYear(filing(code), year).map((o) => `${o.period.key}→${o.due}`);

describe('the catalogue', () => {
  it('is versioned, each code once, every filing in a country with a fiscal year', () => {
    expect(CATALOGUE.version).toMatch(/^\d{4}\.\d+$/);
    const codes = ALL_FILINGS.map((f) => f.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const f of ALL_FILINGS) expect(CATALOGUE.countries[f.country]?.fiscalYearStartMonth).toBe(4);
  });
});

describe('a whole year of due dates (FY 2025-26)', () => {
  it('GSTR-1 monthly: the 11th of the next month', () => {
    expect(dues('IN.GSTR1.M')).toEqual([
      '2025-04→2025-05-11',
      '2025-05→2025-06-11',
      '2025-06→2025-07-11',
      '2025-07→2025-08-11',
      '2025-08→2025-09-11',
      '2025-09→2025-10-11',
      '2025-10→2025-11-11',
      '2025-11→2025-12-11',
      '2025-12→2026-01-11',
      '2026-01→2026-02-11',
      '2026-02→2026-03-11',
      '2026-03→2026-04-11',
    ]);
  });
  it('GSTR-1 QRMP: the 13th after the quarter', () => {
    expect(dues('IN.GSTR1.Q')).toEqual([
      '2025-Q1→2025-07-13',
      '2025-Q2→2025-10-13',
      '2025-Q3→2026-01-13',
      '2025-Q4→2026-04-13',
    ]);
  });
  it('GSTR-3B monthly: the 20th', () => {
    expect(dues('IN.GSTR3B.M')).toEqual([
      '2025-04→2025-05-20',
      '2025-05→2025-06-20',
      '2025-06→2025-07-20',
      '2025-07→2025-08-20',
      '2025-08→2025-09-20',
      '2025-09→2025-10-20',
      '2025-10→2025-11-20',
      '2025-11→2025-12-20',
      '2025-12→2026-01-20',
      '2026-01→2026-02-20',
      '2026-02→2026-03-20',
      '2026-03→2026-04-20',
    ]);
  });
  it('GSTR-3B QRMP: the 22nd (category A) and the 24th (category B)', () => {
    expect(dues('IN.GSTR3B.Q.A')).toEqual([
      '2025-Q1→2025-07-22',
      '2025-Q2→2025-10-22',
      '2025-Q3→2026-01-22',
      '2025-Q4→2026-04-22',
    ]);
    expect(dues('IN.GSTR3B.Q.B')).toEqual([
      '2025-Q1→2025-07-24',
      '2025-Q2→2025-10-24',
      '2025-Q3→2026-01-24',
      '2025-Q4→2026-04-24',
    ]);
  });
  it('composition: CMP-08 on the 18th, GSTR-4 on 30 April', () => {
    expect(dues('IN.CMP08')).toEqual([
      '2025-Q1→2025-07-18',
      '2025-Q2→2025-10-18',
      '2025-Q3→2026-01-18',
      '2025-Q4→2026-04-18',
    ]);
    expect(dues('IN.GSTR4')).toEqual(['FY2025-26→2026-04-30']);
  });
  it('GSTR-9 and 9C: 31 December after the year', () => {
    expect(dues('IN.GSTR9')).toEqual(['FY2025-26→2026-12-31']);
    expect(dues('IN.GSTR9C')).toEqual(['FY2025-26→2026-12-31']);
  });
  it('TDS 24Q and 26Q: 31 July, 31 October, 31 January, 31 May', () => {
    const expected = ['2025-Q1→2025-07-31', '2025-Q2→2025-10-31', '2025-Q3→2026-01-31', '2025-Q4→2026-05-31'];
    expect(dues('IN.TDS.24Q')).toEqual(expected);
    expect(dues('IN.TDS.26Q')).toEqual(expected);
  });
  it('TCS 27EQ: 15 July, 15 October, 15 January, 15 May', () => {
    expect(dues('IN.TCS.27EQ')).toEqual([
      '2025-Q1→2025-07-15',
      '2025-Q2→2025-10-15',
      '2025-Q3→2026-01-15',
      '2025-Q4→2026-05-15',
    ]);
  });
  it('advance tax: 15 June, 15 September, 15 December, 15 March', () => {
    expect(dues('IN.ADVTAX')).toEqual([
      '2025-Q1→2025-06-15',
      '2025-Q2→2025-09-15',
      '2025-Q3→2025-12-15',
      '2025-Q4→2026-03-15',
    ]);
  });
  it('ITR: 31 July, 31 October (audit), 30 November (transfer pricing); tax audit report 30 September', () => {
    expect(dues('IN.ITR.NONAUDIT')).toEqual(['FY2025-26→2026-07-31']);
    expect(dues('IN.ITR.AUDIT')).toEqual(['FY2025-26→2026-10-31']);
    expect(dues('IN.ITR.TP')).toEqual(['FY2025-26→2026-11-30']);
    expect(dues('IN.TAR')).toEqual(['FY2025-26→2026-09-30']);
  });
  it('ROC: AOC-4 30 October, MGT-7 29 November, LLP Form 11 30 May, Form 8 30 October', () => {
    expect(dues('IN.ROC.AOC4')).toEqual(['FY2025-26→2026-10-30']);
    expect(dues('IN.ROC.MGT7')).toEqual(['FY2025-26→2026-11-29']);
    expect(dues('IN.ROC.LLP11')).toEqual(['FY2025-26→2026-05-30']);
    expect(dues('IN.ROC.LLP8')).toEqual(['FY2025-26→2026-10-30']);
  });
  it('every filing has a due date on or after its period ends, each year', () => {
    for (const f of ALL_FILINGS) {
      for (const o of filingYear(f, 2026)) expect(o.due >= o.period.end || f.code === 'IN.ADVTAX').toBe(true);
      expect(filingDueDate(f, '2027-03-31') >= '2027-03-15').toBe(true);
    }
  });
});

const base: TRegistrationFacts = {
  clientType: 'individual',
  gstin: null,
  gstState: null,
  gstScheme: null,
  turnoverBand: null,
  pan: null,
  tan: null,
  cin: null,
  llpin: null,
  taxAudit: false,
  transferPricing: false,
  collectsTcs: false,
};
const codes = (facts: Partial<TRegistrationFacts>) =>
  applicableFilings({ ...base, ...facts }).map((f) => f.code);

describe('who must file', () => {
  it('nothing without registrations', () => {
    expect(codes({})).toEqual([]);
  });
  it('a salaried individual: advance tax and the non-audit ITR', () => {
    expect(codes({ pan: 'ABCPD1234E' })).toEqual(['IN.ADVTAX', 'IN.ITR.NONAUDIT']);
  });
  it('a Mumbai company under QRMP with a TAN: 22nd GSTR-3B, TDS, audit ITR, ROC', () => {
    expect(
      codes({
        clientType: 'company',
        gstin: '27AAPFU0939F1ZV',
        gstState: '27',
        gstScheme: 'qrmp',
        turnoverBand: 'up_to_2cr',
        pan: 'AAPFU0939F',
        tan: 'MUMA12345B',
        cin: 'U74999MH2015PTC123456',
      }),
    ).toEqual([
      'IN.GSTR1.Q',
      'IN.GSTR3B.Q.A',
      'IN.TDS.24Q',
      'IN.TDS.26Q',
      'IN.TDS.DEPOSIT',
      'IN.ADVTAX',
      'IN.ITR.AUDIT',
      'IN.ROC.AOC4',
      'IN.ROC.MGT7',
    ]);
  });
  it('a Delhi QRMP taxpayer files GSTR-3B by the 24th', () => {
    expect(codes({ gstin: '07AAACI1681G1ZR', gstState: '07', gstScheme: 'qrmp' })).toContain('IN.GSTR3B.Q.B');
  });
  it('a regular taxpayer over 5 crore under tax audit: monthly returns, GSTR-9 and 9C, tax audit report', () => {
    const c = codes({
      gstin: '27AAPFU0939F1ZV',
      gstScheme: 'regular',
      turnoverBand: 'over_5cr',
      pan: 'AAPFU0939F',
      taxAudit: true,
      clientType: 'partnership',
    });
    expect(c).toEqual([
      'IN.GSTR1.M',
      'IN.GSTR3B.M',
      'IN.GSTR9',
      'IN.GSTR9C',
      'IN.ADVTAX',
      'IN.ITR.AUDIT',
      'IN.TAR',
    ]);
  });
  it('an unknown turnover band counts as in every band', () => {
    expect(codes({ gstin: '27AAPFU0939F1ZV', gstScheme: 'regular' })).toContain('IN.GSTR9C');
  });
  it('composition, TCS collector, transfer pricing, LLP', () => {
    expect(codes({ gstin: '27AAPFU0939F1ZV', gstScheme: 'composition' })).toEqual(['IN.CMP08', 'IN.GSTR4']);
    expect(codes({ tan: 'MUMA12345B', collectsTcs: true })).toEqual([
      'IN.TDS.24Q',
      'IN.TDS.26Q',
      'IN.TCS.27EQ',
      'IN.TDS.DEPOSIT',
    ]);
    expect(codes({ pan: 'AAPFU0939F', transferPricing: true, taxAudit: true })).toEqual([
      'IN.ADVTAX',
      'IN.ITR.TP',
      'IN.TAR',
    ]);
    expect(codes({ llpin: 'AAB-1234' })).toEqual(['IN.ROC.LLP11', 'IN.ROC.LLP8']);
  });
  it('ITR category: a company is audited, transfer pricing wins', () => {
    expect(itrCategory({ ...base, clientType: 'company' })).toBe('audit');
    expect(itrCategory({ ...base, clientType: 'company', transferPricing: true })).toBe('transfer_pricing');
    expect(itrCategory(base)).toBe('non_audit');
  });
});

describe('periods by key and extensions', () => {
  it('finds a filing period by its key, and refuses others', async () => {
    const { filingPeriodByKey } = await import('./rules');
    expect(filingPeriodByKey(filing('IN.GSTR3B.M'), '2026-03')?.end).toBe('2026-03-31');
    expect(filingPeriodByKey(filing('IN.TDS.26Q'), '2025-Q4')).toMatchObject({
      start: '2026-01-01',
      end: '2026-03-31',
    });
    expect(filingPeriodByKey(filing('IN.TDS.26Q'), '2025-Q1')?.start).toBe('2025-04-01');
    expect(filingPeriodByKey(filing('IN.ITR.AUDIT'), 'FY2025-26')?.end).toBe('2026-03-31');
    expect(filingPeriodByKey(filing('IN.ITR.AUDIT'), '2025-Q1')).toBeNull();
    expect(filingPeriodByKey(filing('IN.GSTR3B.M'), '2026-13')).toBeNull();
    expect(filingPeriodByKey(filing('IN.GSTR3B.M'), 'FY2025-26')).toBeNull();
  });
  it('an extension names a real period and moves the date later', async () => {
    const { ZExtensionInput } = await import('./schemas');
    expect(
      ZExtensionInput.safeParse({ filingCode: 'IN.GSTR3B.M', periodKey: '2026-03', dueDate: '2026-04-25' })
        .success,
    ).toBe(true);
    expect(
      ZExtensionInput.safeParse({ filingCode: 'IN.GSTR3B.M', periodKey: '2026-03', dueDate: '2026-04-20' })
        .error?.issues[0]?.path,
    ).toEqual(['dueDate']);
    expect(
      ZExtensionInput.safeParse({ filingCode: 'IN.GSTR3B.M', periodKey: '2026-Q1', dueDate: '2026-04-25' })
        .error?.issues[0]?.path,
    ).toEqual(['periodKey']);
    expect(
      ZExtensionInput.safeParse({
        filingCode: 'IN.GSTR3B.M',
        periodKey: '2026-03',
        dueDate: '2026-04-25',
        stateCode: '99',
      }).success,
    ).toBe(false);
  });
});
