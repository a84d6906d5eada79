import { currencyDigits } from '../../../../domain/billing/words';
import { documentFormats, NO_VALUE } from '../../../../domain/format';
import type { TPdfLocale } from './models';

export type TPdfFormat = {
  /** Minor units in the document's currency and locale: 12345650 → "₹1,23,456.50". */
  money(minor: number): string;
  /** A calendar day as the product prints it ("24 Nov 2026" in en-IN); a dash when empty or invalid. */
  date(day: string | null | undefined): string;
  /** A tax rate: 18 → "18%", 2.5 → "2.5%"; a dash for none. */
  percent(rate: number | null | undefined): string;
};

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Minor units as an exact decimal string ("-1234.05"), so Intl never sees a float's rounding. */
export function decimalOf(minor: number, digits: number): string {
  const sign = minor < 0 ? '-' : '';
  const whole = String(Math.abs(minor));
  if (!digits) return `${sign}${whole}`;
  const padded = whole.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/**
 * The document's formatter, the same Intl formats as the product's own (src/domain/format.ts) but
 * from a locale rather than a country: a PDF is made for one firm and kept, so it carries its own.
 */
export function pdfFormat({ locale, currency }: TPdfLocale): TPdfFormat {
  const digits = currencyDigits(currency);
  const { money: moneyFormat, day: dayFormat, rate: rateFormat } = documentFormats(locale, currency);
  return {
    money: (minor) =>
      Number.isSafeInteger(minor) ? moneyFormat.format(decimalOf(minor, digits) as `${number}`) : NO_VALUE,
    date(day) {
      const m = day ? ISO_DAY.exec(day) : null;
      if (!m) return NO_VALUE;
      const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      if (at.toISOString().slice(0, 10) !== day) return NO_VALUE;
      // One spelling of September whatever ICU the server carries, as src/domain/format.ts writes it.
      return dayFormat.format(at).replace(/\bSept\b/g, 'Sep');
    },
    percent: (rate) =>
      rate === null || rate === undefined || !Number.isFinite(rate)
        ? NO_VALUE
        : `${rateFormat.format(rate)}%`,
  };
}
