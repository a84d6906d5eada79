import { modernTimeZone } from '@domain/time-zone-names';

/** Countries our firms work in, with the defaults a firm there would pick. */
export const COUNTRIES = [
  { code: 'IN', name: 'India', currency: 'INR', fiscalYearStartMonth: 4, timeZone: 'Asia/Kolkata' },
  {
    code: 'US',
    name: 'United States',
    currency: 'USD',
    fiscalYearStartMonth: 1,
    timeZone: 'America/New_York',
  },
  { code: 'GB', name: 'United Kingdom', currency: 'GBP', fiscalYearStartMonth: 4, timeZone: 'Europe/London' },
  { code: 'CA', name: 'Canada', currency: 'CAD', fiscalYearStartMonth: 1, timeZone: 'America/Toronto' },
  { code: 'AU', name: 'Australia', currency: 'AUD', fiscalYearStartMonth: 7, timeZone: 'Australia/Sydney' },
  { code: 'NZ', name: 'New Zealand', currency: 'NZD', fiscalYearStartMonth: 4, timeZone: 'Pacific/Auckland' },
  { code: 'SG', name: 'Singapore', currency: 'SGD', fiscalYearStartMonth: 1, timeZone: 'Asia/Singapore' },
  {
    code: 'AE',
    name: 'United Arab Emirates',
    currency: 'AED',
    fiscalYearStartMonth: 1,
    timeZone: 'Asia/Dubai',
  },
  {
    code: 'ZA',
    name: 'South Africa',
    currency: 'ZAR',
    fiscalYearStartMonth: 3,
    timeZone: 'Africa/Johannesburg',
  },
  { code: 'IE', name: 'Ireland', currency: 'EUR', fiscalYearStartMonth: 1, timeZone: 'Europe/Dublin' },
  { code: 'DE', name: 'Germany', currency: 'EUR', fiscalYearStartMonth: 1, timeZone: 'Europe/Berlin' },
  { code: 'NP', name: 'Nepal', currency: 'NPR', fiscalYearStartMonth: 7, timeZone: 'Asia/Kathmandu' },
  { code: 'BD', name: 'Bangladesh', currency: 'BDT', fiscalYearStartMonth: 7, timeZone: 'Asia/Dhaka' },
  { code: 'KE', name: 'Kenya', currency: 'KES', fiscalYearStartMonth: 7, timeZone: 'Africa/Nairobi' },
] as const;

export const CURRENCIES = [...new Set(COUNTRIES.map((c) => c.currency))].sort();

/** Every zone the browser knows, by its current name (V8 lists ICU's legacy Asia/Calcutta). */
export function timeZones(): string[] {
  return [...new Set([...Intl.supportedValuesOf('timeZone').map(modernTimeZone), 'UTC'])].sort();
}

/**
 * Where the browser is suggests the country: its time zone when that is a country's own, else the
 * region of its language (en-IN), else the first in the list.
 */
export function defaultsForCountry(browserTimeZone: string, language = '') {
  const region = regionOf(language);
  const country =
    COUNTRIES.find((c) => c.timeZone === browserTimeZone) ??
    COUNTRIES.find((c) => c.code === region) ??
    COUNTRIES[0];
  return {
    country: country.code as string,
    currency: country.currency as string,
    fiscalYearStartMonth: country.fiscalYearStartMonth as number,
    timeZone: timeZones().includes(browserTimeZone) ? browserTimeZone : country.timeZone,
  };
}

function regionOf(language: string): string | undefined {
  try {
    return new Intl.Locale(language).maximize().region;
  } catch {
    return undefined;
  }
}
