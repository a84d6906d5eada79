import { intlCurrencyDigits } from '../format';
// An amount in words, as invoices and cheques write it: "Rupees One Lakh Twenty-Three Thousand Four
// Hundred Fifty-Six and Fifty Paise Only". Pure, so the PDF, the screen and a mail say the same.

/** The largest amount, in minor units, this writes: ten lakh crore rupees, or a quadrillion yen. */
export const MAX_WORDS_MINOR = 10 ** 15;

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function below100(n: number): string {
  if (n < 20) return ONES[n] as string;
  const ones = n % 10;
  const tens = TENS[Math.floor(n / 10)] as string;
  return ones ? `${tens}-${ONES[ones]}` : tens;
}

/** 1..999; no "and" inside a number ("One Hundred Five"), as Indian invoices write it. */
function below1000(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds) parts.push(`${ONES[hundreds]} Hundred`);
  if (rest) parts.push(below100(rest));
  return parts.join(' ');
}

/** Lakh (10^5) and crore (10^7); beyond a crore the crores are counted the same way ("Ten Lakh Crore"). */
function indian(n: number): string {
  if (n === 0) return ONES[0] as string;
  const parts: string[] = [];
  const crores = Math.floor(n / 1e7);
  let rest = n % 1e7;
  if (crores) parts.push(`${indian(crores)} Crore`);
  const lakhs = Math.floor(rest / 1e5);
  rest %= 1e5;
  if (lakhs) parts.push(`${below100(lakhs)} Lakh`);
  const thousands = Math.floor(rest / 1e3);
  rest %= 1e3;
  if (thousands) parts.push(`${below100(thousands)} Thousand`);
  if (rest) parts.push(below1000(rest));
  return parts.join(' ');
}

const SCALES: [number, string][] = [
  [1e15, 'Quadrillion'],
  [1e12, 'Trillion'],
  [1e9, 'Billion'],
  [1e6, 'Million'],
  [1e3, 'Thousand'],
];

function international(n: number): string {
  if (n === 0) return ONES[0] as string;
  const parts: string[] = [];
  let rest = n;
  for (const [size, name] of SCALES) {
    const count = Math.floor(rest / size);
    if (!count) continue;
    parts.push(`${count >= 1000 ? international(count) : below1000(count)} ${name}`);
    rest -= count * size;
  }
  if (rest) parts.push(below1000(rest));
  return parts.join(' ');
}

type TNames = [singular: string, plural: string];
type TCurrencyWords = {
  /** What the currency is called where it is the money of the land ("Dollars" in the US). */
  major: TNames;
  /** Elsewhere, the name that says which one ("US Dollars" on an Indian firm's export invoice). */
  foreign: TNames;
  minor?: TNames;
  /** The regions whose own currency this is. */
  home: string[];
};

const EUROZONE = 'AT BE CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK'.split(' ');
const dollar = (country: string, home: string[]): TCurrencyWords => ({
  major: ['Dollar', 'Dollars'],
  foreign: [`${country} Dollar`, `${country} Dollars`],
  minor: ['Cent', 'Cents'],
  home,
});

const CURRENCIES: Record<string, TCurrencyWords> = {
  INR: {
    major: ['Rupee', 'Rupees'],
    foreign: ['Indian Rupee', 'Indian Rupees'],
    minor: ['Paisa', 'Paise'],
    home: ['IN'],
  },
  USD: dollar('US', ['US']),
  AUD: dollar('Australian', ['AU']),
  CAD: dollar('Canadian', ['CA']),
  SGD: dollar('Singapore', ['SG']),
  NZD: dollar('New Zealand', ['NZ']),
  EUR: { major: ['Euro', 'Euros'], foreign: ['Euro', 'Euros'], minor: ['Cent', 'Cents'], home: EUROZONE },
  GBP: {
    major: ['Pound', 'Pounds'],
    foreign: ['Pound Sterling', 'Pounds Sterling'],
    minor: ['Penny', 'Pence'],
    home: ['GB'],
  },
  ZAR: {
    major: ['Rand', 'Rand'],
    foreign: ['South African Rand', 'South African Rand'],
    minor: ['Cent', 'Cents'],
    home: ['ZA'],
  },
  AED: {
    major: ['Dirham', 'Dirhams'],
    foreign: ['UAE Dirham', 'UAE Dirhams'],
    minor: ['Fils', 'Fils'],
    home: ['AE'],
  },
  JPY: { major: ['Yen', 'Yen'], foreign: ['Japanese Yen', 'Japanese Yen'], home: ['JP'] },
};

const digitsCache = new Map<string, number>();

/** The digits of the currency's minor unit as Intl knows them: 2 for INR, 0 for JPY, 3 for KWD. */
export function currencyDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits = intlCurrencyDigits(currency);
    digitsCache.set(currency, digits);
  }
  return digits;
}

/** The locale's region, written or implied ("hi" is Hindi as written in India); '' when unknown. */
function regionOf(locale: string): string {
  try {
    const parsed = new Intl.Locale(locale);
    return (parsed.region ?? parsed.maximize().region ?? '').toUpperCase();
  } catch {
    return '';
  }
}

const names = (pair: TNames, count: number) => (count === 1 ? pair[0] : pair[1]);

/**
 * An amount held in minor units, in words: Indian numbering (lakh, crore) with the unit first when
 * the locale's region is India or the currency is the rupee, the international scale otherwise. A
 * currency without names of its own is written with its code and its minor part as a fraction, as
 * on a cheque ("… and 05/100 CHF Only"). Throws a RangeError for a fraction, NaN or an amount past
 * 10^15 minor units, and for a malformed currency code.
 */
export function amountInWords(minor: number, currency: string, locale: string): string {
  if (!Number.isSafeInteger(minor) || Math.abs(minor) > MAX_WORDS_MINOR)
    throw new RangeError(`amountInWords: ${minor} is not a whole amount up to ${MAX_WORDS_MINOR}`);
  const code = currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw new RangeError(`amountInWords: ${currency} is not a currency code`);

  const digits = currencyDigits(code);
  const scale = 10 ** digits;
  const absolute = Math.abs(minor);
  const major = Math.floor(absolute / scale);
  const fraction = absolute % scale;
  const region = regionOf(locale);
  const indianStyle = region === 'IN' || code === 'INR';
  const count = indianStyle ? indian : international;
  const sign = minor < 0 ? 'Minus ' : '';

  const known = CURRENCIES[code];
  if (!known) {
    const cents = fraction ? ` and ${String(fraction).padStart(digits, '0')}/${scale}` : '';
    return `${sign}${count(major)}${cents} ${code} Only`;
  }
  const majorNames = known.home.includes(region) ? known.major : known.foreign;
  const minorNames = known.minor;
  const minorPart = (prefix: string) => {
    if (!fraction) return '';
    // A minor unit Intl has but our table does not name: the cheque's fraction says it exactly.
    const words = minorNames
      ? `${count(fraction)} ${names(minorNames, fraction)}`
      : `${String(fraction).padStart(digits, '0')}/${scale}`;
    return `${prefix}${words}`;
  };

  if (indianStyle) {
    // "Rupees One Only" is how a cheque writes it: the unit ahead of the number, always plural.
    if (!major && fraction && minorNames) return `${sign}${minorPart('')} Only`;
    return `${sign}${majorNames[1]} ${count(major)}${minorPart(' and ')} Only`;
  }
  if (!major && fraction && minorNames) return `${sign}${minorPart('')} Only`;
  return `${sign}${count(major)} ${names(majorNames, major)}${minorPart(' and ')} Only`;
}
