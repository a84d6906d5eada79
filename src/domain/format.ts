import { TZDate } from '@date-fns/tz';
import { formatISO } from 'date-fns';
import { todayIn } from './days';
import { isTimeZone, modernTimeZone } from './time-zone-names';

// How the product writes dates and numbers, in one place: every screen formats through a
// formatter made from the firm's settings (country, time zone, currency), and every export writes
// through the machine formats at the bottom. Everything is Intl; no hand-written date pattern.
//
// Two kinds of date: a calendar day ('YYYY-MM-DD': due dates, periods, start dates) names the same
// day everywhere and is never shifted by a time zone; an instant (a Date: uploaded, signed in,
// logged) is shown on the firm's clock, so every member and the firm's clients read the same day.

export type TLocaleSettings = { country: string | null; timeZone: string; currency: string };

/** What an empty or invalid date or amount reads as (SPEC.md §5: "otherwise a dash"). */
export const NO_VALUE = '-';

/**
 * English as written in a country where Intl knows it (IN → en-IN: "24 Nov 2026", ₹12,34,567.50);
 * where it does not, the nearest convention, and day-month-year by default, which most firms write.
 */
const NEAREST_LOCALE: Record<string, string> = { NP: 'en-IN', BD: 'en-IN', LK: 'en-IN', PK: 'en-IN' };
const FALLBACK_LOCALE = 'en-GB';

const localeOfCode = new Map<string, string>();

export function localeForCountry(country: string | null | undefined): string {
  const code = (country ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return FALLBACK_LOCALE;
  // Asking Intl what a locale resolves to builds a formatter: once per code is enough.
  let locale = localeOfCode.get(code);
  if (!locale) {
    locale = resolveLocale(code);
    localeOfCode.set(code, locale);
  }
  return locale;
}

function resolveLocale(code: string): string {
  const candidate = `en-${code}`;
  // supportedLocalesOf is too kind (it accepts en-NP and then formats as plain en): ask what it resolves to.
  if (new Intl.DateTimeFormat(candidate).resolvedOptions().locale === candidate) return candidate;
  return NEAREST_LOCALE[code] ?? FALLBACK_LOCALE;
}

/** The browser's (or server's) own time zone, by its current name: a first guess for a new firm. */
export function browserTimeZone(): string {
  return modernTimeZone(new Intl.DateTimeFormat().resolvedOptions().timeZone);
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day at UTC midnight: formatted in UTC, it is that day whatever the zone. */
function utcDay(day: string): Date | null {
  const m = ISO_DAY.exec(day);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === day ? date : null;
}

export type TDateValue = Date | string | null | undefined;

const DATE_STYLES = {
  /** 24 Nov 2026 (en-IN) · Nov 24, 2026 (en-US) */
  medium: { day: 'numeric', month: 'short', year: 'numeric' },
  /** Tuesday, 24 November 2026 */
  long: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  /** Tue, 24 Nov */
  weekday: { weekday: 'short', day: 'numeric', month: 'short' },
  /** November 2026: a month as a whole (a run's or a period's) */
  month: { month: 'long', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
export type TDateStyle = keyof typeof DATE_STYLES;

const TIME = { hour: 'numeric', minute: '2-digit' } as const;

export type TFormatter = {
  locale: string;
  timeZone: string;
  currency: string;
  /** The day a calendar week starts on in the firm's locale, 0 = Sunday (as date-fns counts). */
  weekStartsOn: TWeekDay;
  /** A calendar day as it is, or the firm's calendar day of an instant; a dash when empty or invalid. */
  date(value: TDateValue, style?: TDateStyle): string;
  /** An instant on the firm's clock: "24 Nov 2026, 3:30 pm". */
  dateTime(value: Date | string | null | undefined, options?: { seconds?: boolean }): string;
  /** Two days as one range: "1–30 Sept 2026"; one end alone when the other is missing. */
  dateRange(start: TDateValue, end: TDateValue): string;
  /** A count or quantity with the locale's grouping: "12,34,567" (en-IN), "1,234,567" (en-US). */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** An amount (a decimal string as stored, or a number) in the firm's currency: "₹1,500.00". */
  money(value: string | number | null | undefined): string;
  /** The digits of the currency's minor unit: 2 for INR and USD (paise, cents), 0 for JPY. */
  currencyDigits: number;
  /** An amount held in the currency's minor unit (rates, timesheet values): 150050 → "₹1,500.50". */
  moneyMinor(value: number | null | undefined): string;
  /** A file size: "0 B", "12 KB", "3.4 MB" (1024-based, as file managers count). */
  bytes(value: number): string;
};

type TWeekDay = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** Intl's week data: getWeekInfo() in newer engines, the weekInfo getter in older ones. */
function weekStartsOnIn(locale: string): TWeekDay {
  const l = new Intl.Locale(locale) as Intl.Locale & {
    getWeekInfo?: () => { firstDay: number };
    weekInfo?: { firstDay: number };
  };
  const firstDay = (l.getWeekInfo?.() ?? l.weekInfo)?.firstDay ?? 1;
  return (firstDay % 7) as TWeekDay;
}

/**
 * Newer CLDR writes September "Sept" in en-GB and en-IN and every other month in three letters;
 * older engines (and the firm's period names, "Sep 2026") write "Sep". One spelling everywhere, on
 * the server, in mails and in every browser, whatever ICU each one carries.
 */
const oneSeptember = (text: string) => text.replace(/\bSept\b/g, 'Sep');

function asInstant(value: Date | string | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  // new Date('2026-02-30') rolls over into March: a day string is checked as a day.
  if (typeof value === 'string' && ISO_DAY.test(value)) return utcDay(value);
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'];

function bytesWith(numberFormat: (n: number, o?: Intl.NumberFormatOptions) => string, bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${numberFormat(Number.isFinite(bytes) ? bytes : 0)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = value >= 10 ? 0 : 1;
  return `${numberFormat(value, { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${BYTE_UNITS[unit]}`;
}

const formatters = new Map<string, TFormatter>();
/** Firms' settings remembered at once; past it the oldest is made again when next asked. */
const FORMATTERS_KEPT = 256;

/**
 * The formatter every screen uses, made once per firm's settings: making one builds several Intl
 * formatters (about a millisecond), which a server answering many calls for a firm need not repeat.
 */
export function createFormatter(settings: TLocaleSettings): TFormatter {
  const key = `${settings.country ?? ''}|${settings.timeZone}|${settings.currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = makeFormatter(settings);
    if (formatters.size >= FORMATTERS_KEPT) formatters.delete(formatters.keys().next().value as string);
    formatters.set(key, formatter);
  }
  return formatter;
}

function makeFormatter(settings: TLocaleSettings): TFormatter {
  const locale = localeForCountry(settings.country);
  const timeZone = isTimeZone(settings.timeZone) ? settings.timeZone : 'UTC';
  const currency = /^[A-Z]{3}$/.test(settings.currency) ? settings.currency : 'USD';

  const dayFormats = new Map<TDateStyle, Intl.DateTimeFormat>();
  const dayFormat = (style: TDateStyle) => {
    let f = dayFormats.get(style);
    if (!f) {
      f = new Intl.DateTimeFormat(locale, { ...DATE_STYLES[style], timeZone: 'UTC' });
      dayFormats.set(style, f);
    }
    return f;
  };
  const dateTimeFormat = new Intl.DateTimeFormat(locale, { ...DATE_STYLES.medium, ...TIME, timeZone });
  const dateTimeSecondsFormat = new Intl.DateTimeFormat(locale, {
    ...DATE_STYLES.medium,
    ...TIME,
    second: '2-digit',
    timeZone,
  });
  const integerFormat = new Intl.NumberFormat(locale);
  const moneyFormat = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const currencyDigits = moneyFormat.resolvedOptions().maximumFractionDigits ?? 2;

  /** The calendar day a value names: a day string as it is, an instant's day on the firm's clock. */
  const dayOf = (value: TDateValue): Date | null => {
    if (typeof value === 'string' && ISO_DAY.test(value)) return utcDay(value);
    const at = asInstant(value);
    return at ? utcDay(todayIn(timeZone, at)) : null;
  };
  const number = (value: number, options?: Intl.NumberFormatOptions) =>
    options ? new Intl.NumberFormat(locale, options).format(value) : integerFormat.format(value);

  return {
    locale,
    timeZone,
    currency,
    weekStartsOn: weekStartsOnIn(locale),
    date(value, style = 'medium') {
      const day = dayOf(value);
      return day ? oneSeptember(dayFormat(style).format(day)) : NO_VALUE;
    },
    dateTime(value, options) {
      const at = asInstant(value);
      if (!at) return NO_VALUE;
      return oneSeptember((options?.seconds ? dateTimeSecondsFormat : dateTimeFormat).format(at));
    },
    dateRange(start, end) {
      const from = dayOf(start);
      const to = dayOf(end);
      if (from && to && from <= to) return oneSeptember(dayFormat('medium').formatRange(from, to));
      // Intl ranges run forwards only; a backwards pair is shown as the two days it is.
      if (from && to)
        return oneSeptember(`${dayFormat('medium').format(from)} – ${dayFormat('medium').format(to)}`);
      const one = from ?? to;
      return one ? oneSeptember(dayFormat('medium').format(one)) : NO_VALUE;
    },
    number,
    money(value) {
      if (value === null || value === undefined || value === '') return NO_VALUE;
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? moneyFormat.format(n) : NO_VALUE;
    },
    currencyDigits,
    moneyMinor(value) {
      if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
      return moneyFormat.format(value / 10 ** currencyDigits);
    },
    bytes: (value) => bytesWith(number, value),
  };
}

/** A file size outside any firm (the server's own messages): "25 MB". */
export function formatBytes(bytes: number): string {
  return bytesWith((n, o) => new Intl.NumberFormat('en-US', o).format(n), bytes);
}

// ---- Exports: the machine formats ----
//
// A CSV is read by programs as much as by people, so its dates are ISO 8601, the one format every
// spreadsheet and script parses the same way whatever its locale: calendar days as YYYY-MM-DD, and
// instants on the firm's clock with its UTC offset (2026-11-24T15:30:00+05:30), so a person reads
// the firm's time and a program still gets the exact instant. Numbers are plain digits with a dot,
// no grouping. Files are named for the firm's calendar day.

/** An instant in ISO 8601 on the firm's clock, with the offset: 2026-11-24T15:30:00+05:30. */
export function isoDateTimeIn(at: Date, timeZone: string): string {
  return formatISO(new TZDate(at.getTime(), isTimeZone(timeZone) ? timeZone : 'UTC'));
}

/** A number as plain digits (no grouping, no exponent): what a CSV cell of a number holds. */
export function plainNumber(value: number): string {
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/**
 * The Intl formats of a document made for one firm and kept (an invoice PDF): from a locale rather
 * than a country, but built here like every other format, so one file holds them all.
 */
export function documentFormats(locale: string, currency: string) {
  return {
    money: new Intl.NumberFormat(locale, { style: 'currency', currency }),
    day: new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }),
    rate: new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }),
  };
}

/** The digits of a currency's minor unit as Intl knows them: 2 for INR, 0 for JPY, 3 for KWD. */
export function intlCurrencyDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}
