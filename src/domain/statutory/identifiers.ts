import { GST_STATES } from '../billing/gst-states';

// India's registration numbers, checked by their published formats and (GSTIN) check character.

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** PAN: five letters (the fourth the holder's status), four digits, a letter. */
export const PAN_PATTERN = /^[A-Z]{3}[ABCFGHJLPTE][A-Z][0-9]{4}[A-Z]$/;
/** TAN: four letters, five digits, a letter. */
export const TAN_PATTERN = /^[A-Z]{4}[0-9]{5}[A-Z]$/;
/** CIN: listing, industry code, state, year, ownership, registration number (21 characters). */
export const CIN_PATTERN =
  /^[LU][0-9]{5}[A-Z]{2}[0-9]{4}(PLC|PTC|FLC|FTC|GOI|SGC|NPL|GAP|GAT|ULL|ULT|OPC)[0-9]{6}$/;
/** LLPIN: three letters, a dash, four digits (AAA-1234). */
export const LLPIN_PATTERN = /^[A-Z]{3}-[0-9]{4}$/;
/** GSTIN: state code, the PAN, entity number, 'Z' (by default), check character. */
export const GSTIN_PATTERN = /^[0-9]{2}[A-Z]{3}[ABCFGHJLPTE][A-Z][0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** The PAN's fourth letter: who holds it. */
export const PAN_HOLDER_KINDS: Readonly<Record<string, string>> = {
  P: 'Individual',
  C: 'Company',
  H: 'Hindu undivided family',
  F: 'Firm or LLP',
  E: 'LLP',
  A: 'Association of persons',
  T: 'Trust',
  B: 'Body of individuals',
  L: 'Local authority',
  J: 'Artificial juridical person',
  G: 'Government',
};

/** The check character of a GSTIN's first 14 characters (GSTN's mod-36 scheme, weights 1 and 2). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const value = BASE36.indexOf(first14.charAt(i));
    if (value < 0) throw new RangeError(`not a GSTIN character: ${first14.charAt(i)}`);
    const product = value * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36.charAt((36 - (sum % 36)) % 36);
}

export const isGstStateCode = (code: string) => GST_STATES.some((s) => s.code === code);

/** Why a GSTIN is not valid, or null when it is. */
export function gstinProblem(value: string): string | null {
  if (value.length !== 15) return 'A GSTIN has 15 characters';
  if (!GSTIN_PATTERN.test(value))
    return 'A GSTIN is a state code, the PAN, an entity number, Z and a check character';
  if (!isGstStateCode(value.slice(0, 2))) return `${value.slice(0, 2)} is not a GST state code`;
  if (gstinCheckCharacter(value.slice(0, 14)) !== value.charAt(14))
    return 'This GSTIN’s check character does not match: check it for a typing mistake';
  return null;
}

export function panProblem(value: string): string | null {
  if (value.length !== 10) return 'A PAN has 10 characters';
  if (!PAN_PATTERN.test(value)) return 'A PAN is five letters, four digits and a letter, like AAAPL1234C';
  return null;
}

export function tanProblem(value: string): string | null {
  if (!TAN_PATTERN.test(value)) return 'A TAN is four letters, five digits and a letter, like MUMA12345B';
  return null;
}

export function cinProblem(value: string): string | null {
  if (value.length !== 21) return 'A CIN has 21 characters';
  if (!CIN_PATTERN.test(value)) return 'This is not a company identification number (CIN)';
  return null;
}

export function llpinProblem(value: string): string | null {
  if (!LLPIN_PATTERN.test(value)) return 'An LLPIN is three letters, a dash and four digits, like AAB-1234';
  return null;
}

/** The PAN inside a GSTIN. */
export const panOfGstin = (gstin: string) => gstin.slice(2, 12);
/** The state code a GSTIN was issued in. */
export const stateOfGstin = (gstin: string) => gstin.slice(0, 2);
