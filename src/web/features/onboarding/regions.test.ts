import { ZCreateFirm } from '@domain/onboarding';
import { describe, expect, it } from 'vitest';
import { defaultsForCountry, timeZones } from './regions';

describe('a new firm’s first guess', () => {
  it('takes the country from a time zone that is a country’s own', () => {
    expect(defaultsForCountry('Asia/Kolkata', 'en-US')).toMatchObject({
      country: 'IN',
      currency: 'INR',
      timeZone: 'Asia/Kolkata',
    });
  });

  it('falls back to the language’s region when the zone is no country’s default', () => {
    expect(defaultsForCountry('America/Chicago', 'en-US')).toMatchObject({
      country: 'US',
      currency: 'USD',
      timeZone: 'America/Chicago',
    });
    expect(defaultsForCountry('Europe/Belfast', 'en-GB').country).toBe('GB');
    expect(defaultsForCountry('Antarctica/Troll', 'not a language').country).toBe('IN');
  });

  it('lists and keeps zones by their current names, never the legacy ones browsers report', () => {
    const zones = timeZones();
    expect(zones).toContain('Asia/Kolkata');
    expect(zones).not.toContain('Asia/Calcutta');
    expect(zones).not.toContain('Asia/Katmandu');
    const firm = ZCreateFirm.parse({
      firmName: 'Sharma & Associates',
      firstName: 'Meera',
      lastName: 'Sharma',
      ...defaultsForCountry('Asia/Kolkata'),
      timeZone: 'Asia/Calcutta',
    });
    expect(firm.timeZone).toBe('Asia/Kolkata');
  });
});
