import { describe, expect, it } from 'vitest';
import {
  cinProblem,
  gstinCheckCharacter,
  gstinProblem,
  llpinProblem,
  panOfGstin,
  panProblem,
  tanProblem,
} from './identifiers';

describe('GSTIN', () => {
  it('accepts real-shaped GSTINs whose check character matches', () => {
    for (const g of [
      '27AAPFU0939F1ZV',
      '29AAGCB7383J1Z4',
      '33AAACH7409R1Z8',
      '27AAACR5055K1Z7',
      '07AAACI1681G1ZR',
    ])
      expect(gstinProblem(g), g).toBeNull();
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
    expect(panOfGstin('27AAPFU0939F1ZV')).toBe('AAPFU0939F');
  });
  it('refuses a wrong check character, a typo, a bad state, a bad shape', () => {
    expect(gstinProblem('27AAPFU0939F1ZW')).toMatch(/check character/);
    expect(gstinProblem('27AAPFU0939F1ZV'.replace('0939', '0993'))).toMatch(/check character/);
    expect(gstinProblem('99AAPFU0939F1ZV')).toMatch(/state code/);
    expect(gstinProblem('27AAPFU0939F1Z')).toMatch(/15 characters/);
    expect(gstinProblem('27AAPXU0939F1ZV')).toMatch(/state code, the PAN/);
    expect(gstinProblem('27AAPFU0939F0ZV')).toMatch(/state code, the PAN/);
  });
});

describe('PAN, TAN, CIN, LLPIN', () => {
  it('PAN by its format (the fourth letter the holder)', () => {
    expect(panProblem('AAPFU0939F')).toBeNull();
    expect(panProblem('ABCPD1234E')).toBeNull();
    expect(panProblem('ABCXD1234E')).not.toBeNull();
    expect(panProblem('ABCPD12345')).not.toBeNull();
    expect(panProblem('ABCPD1234')).toMatch(/10 characters/);
  });
  it('TAN, CIN, LLPIN by their formats', () => {
    expect(tanProblem('MUMA12345B')).toBeNull();
    expect(tanProblem('MUM123456B')).not.toBeNull();
    expect(cinProblem('U74999MH2015PTC123456')).toBeNull();
    expect(cinProblem('L17110MH1973PLC019786')).toBeNull();
    expect(cinProblem('X74999MH2015PTC123456')).not.toBeNull();
    expect(cinProblem('U74999MH2015XYZ123456')).not.toBeNull();
    expect(llpinProblem('AAB-1234')).toBeNull();
    expect(llpinProblem('AAB1234')).not.toBeNull();
  });
});

describe('the registrations form', () => {
  it('cleans what is typed and checks each identifier', async () => {
    const { ZRegistrations } = await import('./registrations');
    const ok = ZRegistrations.parse({ gstin: ' 27aapfu0939f1zv ', gstScheme: 'qrmp', pan: 'aapfu0939f' });
    expect(ok).toMatchObject({ gstin: '27AAPFU0939F1ZV', pan: 'AAPFU0939F', tan: null, taxAudit: false });
    const bad = ZRegistrations.safeParse({ gstin: '27AAPFU0939F1ZW', pan: 'ABCPD1234E', tan: 'X' });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['gstin', 'tan']));
    const mismatch = ZRegistrations.safeParse({
      gstin: '27AAPFU0939F1ZV',
      gstScheme: 'regular',
      pan: 'ABCPD1234E',
    });
    expect(mismatch.error?.issues[0]?.message).toMatch(/belongs to PAN AAPFU0939F/);
    expect(ZRegistrations.safeParse({ gstin: '27AAPFU0939F1ZV' }).error?.issues[0]?.path).toEqual([
      'gstScheme',
    ]);
  });
});
