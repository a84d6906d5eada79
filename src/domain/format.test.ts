import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFormatter, formatBytes, isoDateTimeIn, localeForCountry, plainNumber } from './format';

const india = createFormatter({ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' });
const us = createFormatter({ country: 'US', timeZone: 'America/New_York', currency: 'USD' });

// ICU puts a narrow no-break space before AM/PM and around range dashes: compare with plain spaces.
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('the firm’s locale', () => {
  it('is English as written in the firm’s country, or the nearest convention', () => {
    expect(localeForCountry('IN')).toBe('en-IN');
    expect(localeForCountry('US')).toBe('en-US');
    expect(localeForCountry('GB')).toBe('en-GB');
    expect(localeForCountry('au')).toBe('en-AU');
    // Intl has no English for Nepal: it would write US dates; India's convention is the nearest.
    expect(localeForCountry('NP')).toBe('en-IN');
    expect(localeForCountry(null)).toBe('en-GB');
    expect(localeForCountry('not a country')).toBe('en-GB');
  });

  it('starts the week where the firm’s country does', () => {
    expect(india.weekStartsOn).toBe(0);
    expect(us.weekStartsOn).toBe(0);
    expect(createFormatter({ country: 'GB', timeZone: 'Europe/London', currency: 'GBP' }).weekStartsOn).toBe(
      1,
    );
  });

  it('falls back to UTC and USD rather than throwing on settings Intl does not know', () => {
    const f = createFormatter({ country: 'IN', timeZone: 'Mars/Olympus', currency: 'rupees' });
    expect(f.timeZone).toBe('UTC');
    expect(f.currency).toBe('USD');
  });
});

describe('dates', () => {
  it('writes a calendar day as the firm does, the same day in every time zone', () => {
    expect(india.date('2026-11-24')).toBe('24 Nov 2026');
    expect(us.date('2026-11-24')).toBe('Nov 24, 2026');
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
      expect(createFormatter({ country: 'IN', timeZone, currency: 'INR' }).date('2026-01-01')).toBe(
        '1 Jan 2026',
      );
    }
  });

  it('shows an instant on the firm’s calendar and clock (around midnight UTC)', () => {
    // 20:00 UTC on 24 Nov is 01:30 on 25 Nov in Kolkata and 15:00 on 24 Nov in New York.
    const evening = new Date(Date.UTC(2026, 10, 24, 20, 0));
    expect(india.date(evening)).toBe('25 Nov 2026');
    expect(us.date(evening)).toBe('Nov 24, 2026');
    expect(plain(india.dateTime(evening))).toBe('25 Nov 2026, 1:30 am');
    expect(plain(us.dateTime(evening))).toBe('Nov 24, 2026, 3:00 PM');
    // 23:59:30 UTC on 31 Dec: already the new year in Kolkata, still the old one in New York.
    const lastSecond = new Date(Date.UTC(2026, 11, 31, 23, 59, 30));
    expect(india.date(lastSecond)).toBe('1 Jan 2027');
    expect(us.date(lastSecond)).toBe('Dec 31, 2026');
    expect(plain(india.dateTime(lastSecond, { seconds: true }))).toBe('1 Jan 2027, 5:29:30 am');
  });

  it('writes a period as one range, and its other styles', () => {
    expect(plain(india.dateRange('2026-09-01', '2026-09-30'))).toMatch(/^1 ?– ?30 Sept? 2026$/);
    expect(plain(us.dateRange('2026-09-01', '2026-09-30'))).toMatch(/^Sep 1 ?– ?30, 2026$/);
    expect(plain(india.dateRange('2026-04-01', '2027-03-31'))).toMatch(/^1 Apr 2026 – 31 Mar 2027$/);
    expect(india.dateRange(null, '2026-09-30')).toBe(india.date('2026-09-30'));
    expect(india.date('2026-11-24', 'long')).toBe('Tuesday, 24 November 2026');
    expect(us.date('2026-11-24', 'weekday')).toBe('Tue, Nov 24');
  });

  it('shows a dash for an empty or invalid date (SPEC.md §5)', () => {
    for (const value of [null, undefined, '', '2026-02-30', 'yesterday', new Date(Number.NaN)]) {
      expect(india.date(value)).toBe('-');
      expect(india.dateTime(value as Date | null)).toBe('-');
    }
    expect(india.dateRange(null, null)).toBe('-');
  });
});

describe('numbers', () => {
  it('groups digits and writes money as the firm does, in its currency', () => {
    expect(india.number(1234567)).toBe('12,34,567');
    expect(us.number(1234567)).toBe('1,234,567');
    expect(india.money('1234567.50')).toBe('₹12,34,567.50');
    expect(us.money(1234567.5)).toBe('$1,234,567.50');
    expect(india.money('1500.00')).toBe('₹1,500.00');
    expect(india.money(null)).toBe('-');
    expect(india.money('lots')).toBe('-');
  });

  it('writes amounts held in minor units with the currency’s own digits', () => {
    expect(india.moneyMinor(150050)).toBe('₹1,500.50');
    expect(india.currencyDigits).toBe(2);
    const japan = createFormatter({ country: 'JP', timeZone: 'Asia/Tokyo', currency: 'JPY' });
    expect(japan.currencyDigits).toBe(0);
    expect(japan.moneyMinor(1500)).toBe('¥1,500');
    expect(india.moneyMinor(null)).toBe('-');
  });

  it('writes file sizes with the locale’s decimal mark', () => {
    expect(india.bytes(0)).toBe('0 B');
    expect(india.bytes(1536)).toBe('1.5 KB');
    expect(india.bytes(100 * 1024 * 1024)).toBe('100 MB');
    expect(createFormatter({ country: 'ZA', timeZone: 'UTC', currency: 'ZAR' }).bytes(1536)).toBe('1,5 KB');
    expect(formatBytes(195 * 1024)).toBe('195 KB');
  });
});

describe('exports', () => {
  it('write instants as ISO 8601 on the firm’s clock with its offset', () => {
    const evening = new Date(Date.UTC(2026, 10, 24, 20, 0));
    expect(isoDateTimeIn(evening, 'Asia/Kolkata')).toBe('2026-11-25T01:30:00+05:30');
    expect(isoDateTimeIn(evening, 'America/New_York')).toBe('2026-11-24T15:00:00-05:00');
    expect(isoDateTimeIn(evening, 'UTC')).toBe('2026-11-24T20:00:00Z');
    // Both name the same instant.
    expect(new Date(isoDateTimeIn(evening, 'Asia/Kolkata')).getTime()).toBe(evening.getTime());
  });

  it('write numbers as plain digits', () => {
    expect(plainNumber(9876543210)).toBe('9876543210');
    expect(plainNumber(1234.5)).toBe('1234.5');
    expect(plainNumber(1e21)).toBe('1000000000000000000000');
  });
});

// ---- One home for formatting ----

const SRC = join(import.meta.dirname, '..');
const HOME = join(import.meta.dirname, 'format.ts');
// Build Intl date formatters only to ask whether a zone exists, or which day it is there; they format nothing.
const ZONE_CHECK = join(import.meta.dirname, 'time-zone-names.ts');
const ZONE_DAY = join(import.meta.dirname, 'days.ts');

/**
 * Formatting a date or number by hand: the browser's or server's own locale and zone
 * (toLocaleString and friends, a bare Intl formatter) or a display pattern for date-fns.
 */
const AD_HOC = [
  { pattern: /\.toLocale(?:Date|Time)?String\s*\(/, what: 'toLocale…String()' },
  {
    pattern: /\bIntl\s*\.\s*(?:DateTimeFormat|NumberFormat|RelativeTimeFormat)\s*\(/,
    what: 'an Intl formatter',
  },
  { pattern: /['"`][^'"`\n]*\b(?:MMM|EEE|LLL)/, what: 'a display date pattern' },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.gen.ts') ? [path] : [];
  });
}

describe('every screen and export formats through the formatter', () => {
  it('finds no date or number formatted outside src/domain/format.ts', () => {
    const found: string[] = [];
    for (const area of ['web', 'server', 'domain']) {
      for (const file of sourceFiles(join(SRC, area))) {
        if (file === HOME || file === ZONE_CHECK || file === ZONE_DAY) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            for (const { pattern, what } of AD_HOC) {
              if (pattern.test(line)) found.push(`${relative(SRC, file)}:${i + 1}: ${what}`);
            }
          });
      }
    }
    expect(found, 'use useFormat() on a screen, or the export formats in domain/format.ts').toEqual([]);
  });

  it('would catch one', () => {
    const caught = (line: string) => AD_HOC.some(({ pattern }) => pattern.test(line));
    expect(caught('{task.completedDate.toLocaleDateString()}')).toBe(true);
    expect(caught('const f = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });')).toBe(true);
    expect(caught("n.toLocaleString('en-US')")).toBe(true);
    expect(caught("return format(parseISO(day), 'd MMM yyyy');")).toBe(true);
    expect(caught("format(date, 'yyyy-MM-dd')")).toBe(false);
    expect(caught('opts: Intl.DateTimeFormatOptions')).toBe(false);
  });
});

describe('one spelling of each month', () => {
  it('writes September as Sep, as every other month has three letters and periods are named', () => {
    expect(india.date('2026-09-01')).not.toMatch(/Sept/);
    expect(plain(india.date('2026-09-01'))).toBe('1 Sep 2026');
    expect(plain(india.date('2026-11-01', 'month'))).toBe('November 2026');
    expect(india.dateRange('2026-09-01', '2026-11-30')).not.toMatch(/Sept/);
    expect(india.dateTime(new Date('2026-09-01T06:00:00Z'))).not.toMatch(/Sept/);
  });
});
