import type { z } from 'zod';
import { zText } from '../fields';

// A UPI payment link per NPCI's UPI linking specification: `upi://pay?pa=…&pn=…&am=…&cu=INR&tn=…&tr=…`.
// Every UPI app (BHIM, Google Pay, PhonePe, Paytm, the banks' own) opens it, from a tap on a phone or
// from the QR code printed on an invoice, with payee, amount and reference filled in.

/**
 * A virtual payment address: the account part (letters, digits, dot, hyphen, underscore) and the
 * payment app's handle after the @ (letters, then letters or digits: okhdfcbank, ybl, paytm).
 */
export const UPI_VPA = /^[a-z0-9][a-z0-9._-]{1,255}@[a-z][a-z0-9]{1,63}$/;
export const UPI_VPA_MESSAGE = 'Enter a UPI ID like firmname@okhdfcbank';

/** The firm's UPI ID on the billing settings form. Lower case: UPI IDs do not depend on case. */
export const ZUpiVpa = zText({ max: 320, label: 'UPI ID' }).toLowerCase().regex(UPI_VPA, UPI_VPA_MESSAGE);
export type TUpiVpa = z.output<typeof ZUpiVpa>;

/** The billing settings' field: a UPI ID, or blank (null) for none. */
export const ZUpiVpaOptional = zText({ max: 320, label: 'UPI ID' })
  .toLowerCase()
  .regex(new RegExp(`^$|${UPI_VPA.source}`), UPI_VPA_MESSAGE)
  .nullish()
  .transform((v) => v || null);

/** The spec caps the transaction reference at 35 characters and apps cut a long note. */
const MAX_REFERENCE = 35;
const MAX_NOTE = 50;
const MAX_PAYEE_NAME = 99;

export type TUpiPayment = {
  vpa: string;
  payeeName: string;
  /** In paise: 123450 is ₹1,234.50. UPI moves rupees only. */
  amountMinor: number;
  invoiceNumber: string;
};

/**
 * RFC 3986 escaping, which URLSearchParams and every UPI app read back: spaces as %20 rather than
 * the form encoding's "+", and the @ of a UPI ID left as it is, as NPCI's own examples write it
 * (some apps do not find a payee behind "%40").
 */
const uriEscape = (value: string) => encodeURIComponent(value).replace(/%40/g, '@');

/** Half of a surrogate pair without the other half (String#toWellFormed is ES2024). */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Control characters and runs of space as one space, a lone surrogate half (which no URI can carry)
 * as U+FFFD, at most `max` characters (whole code points).
 */
function clean(value: string, max: number): string {
  const text = value
    .replace(LONE_SURROGATE, '\uFFFD')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this drops.
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return Array.from(text).slice(0, max).join('');
}

/** Paise as the rupees UPI expects: always two decimals ("1234.50", "0.05"). */
export function upiAmount(amountMinor: number): string {
  return `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, '0')}`;
}

/**
 * The link a client's UPI app opens to pay an invoice. Throws a RangeError for a malformed UPI ID,
 * an amount that is not a positive whole number of paise, or an empty payee name or invoice number:
 * a QR code that opens to an error in the client's app is worse than none.
 */
export function upiPayUri({ vpa, payeeName, amountMinor, invoiceNumber }: TUpiPayment): string {
  const address = ZUpiVpa.safeParse(vpa);
  if (!address.success) throw new RangeError(`upiPayUri: "${vpa}" is not a UPI ID (name@bank)`);
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0)
    throw new RangeError(`upiPayUri: ${amountMinor} is not an amount in paise`);
  const name = clean(payeeName, MAX_PAYEE_NAME);
  const reference = clean(invoiceNumber, MAX_REFERENCE);
  if (!name || !reference) throw new RangeError('upiPayUri: a payee name and an invoice number are needed');
  const params: [string, string][] = [
    ['pa', address.data],
    ['pn', name],
    ['am', upiAmount(amountMinor)],
    ['cu', 'INR'],
    ['tn', clean(`Invoice ${reference}`, MAX_NOTE)],
    ['tr', reference],
  ];
  return `upi://pay?${params.map(([key, value]) => `${key}=${uriEscape(value)}`).join('&')}`;
}
