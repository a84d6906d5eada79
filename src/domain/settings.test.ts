import { describe, expect, it } from 'vitest';
import { ZAppLink } from './notifications';
import { logoUrl, taxIdKinds, ZOrgSettings } from './settings';

const base = {
  name: 'Rao & Partners',
  legalName: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  region: '',
  postalCode: '',
  country: 'IN',
  timeZone: 'Asia/Kolkata',
  currency: 'INR',
  fiscalYearStartMonth: 4,
  taxIds: [],
};

describe('firm settings rules', () => {
  it('offers the tax identifier kinds of the country, and free text elsewhere', () => {
    expect(taxIdKinds('IN')).toEqual(['PAN', 'TAN', 'GSTIN']);
    expect(taxIdKinds('US')).toEqual(['EIN']);
    expect(taxIdKinds('GB')).toEqual(['UTR', 'VAT']);
    expect(taxIdKinds('SG')).toBeNull();
    expect(taxIdKinds(null)).toBeNull();
  });

  it('turns blank optional text into null and checks kinds against the country', () => {
    const parsed = ZOrgSettings.parse({ ...base, legalName: '  ' });
    expect(parsed.legalName).toBeNull();
    const bad = ZOrgSettings.safeParse({ ...base, taxIds: [{ kind: 'EIN', value: '12-3456789' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['taxIds', 0, 'kind'],
      message: 'Choose one of PAN, TAN, GSTIN',
    });
  });

  it('builds the logo URL only when there is a logo', () => {
    expect(logoUrl('o1', 0)).toBeNull();
    expect(logoUrl('o1', 3)).toBe('/api/orgs/o1/logo?v=3');
  });
});

describe('notification links', () => {
  it('accepts a path in the app and nothing else', () => {
    expect(ZAppLink.safeParse('/tasks?open=1').success).toBe(true);
    for (const link of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'tasks',
      'javascript:alert(1)',
    ]) {
      expect(ZAppLink.safeParse(link).success).toBe(false);
    }
  });
});
