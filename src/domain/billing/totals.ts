import { MAX_TAX_RATE_BP, type TTaxRegime } from './constants';

// An invoice's arithmetic, in integer minor units. Each line is rounded on its own (quantity × rate,
// then each tax), the invoice adds the rounded lines, and a firm that rounds totals gets an explicit
// round-off so that lines + taxes + round-off is exactly the total. Products go through BigInt:
// a quantity in thousandths times a rate can pass 2^53 before it is divided back.

export type TLineInput = {
  /** Thousandths of a unit (hours, months, pieces). */
  quantityMilli: number;
  /** Per unit, in minor units. */
  rate: number;
  /** Off the line, in minor units (never more than quantity × rate). */
  discount: number;
  /** Basis points: 1800 is 18%. */
  taxRateBp: number;
};

export type TTaxContext = {
  regime: TTaxRegime;
  /** GST: the firm and the place of supply are in the same state (CGST + SGST, else IGST). */
  intraState: boolean;
  /** An export of services (or another zero-rated supply): taxable, at 0. */
  zeroRated: boolean;
  /** Round the total to whole units with a round-off line. */
  roundTotals: boolean;
  /** The currency's minor digits (2 for INR, 0 for JPY). */
  digits: number;
};

export type TLineTotals = {
  gross: number;
  amount: number;
  cgst: number;
  sgst: number;
  igst: number;
  otherTax: number;
};

export type TTaxRow = {
  label: string;
  kind: 'CGST' | 'SGST' | 'IGST' | 'TAX';
  rateBp: number;
  amount: number;
};

export type TInvoiceTotals = {
  lines: TLineTotals[];
  subtotal: number;
  taxTotal: number;
  taxes: TTaxRow[];
  roundOff: number;
  total: number;
};

/** num / den rounded half away from zero, exactly. */
export function divRound(num: bigint, den: bigint): number {
  const negative = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const q = (2n * n + d) / (2n * d);
  return Number(negative ? -q : q);
}

export function lineTotals(line: TLineInput, ctx: TTaxContext): TLineTotals {
  const gross = divRound(BigInt(line.quantityMilli) * BigInt(line.rate), 1000n);
  const amount = gross - Math.min(line.discount, gross);
  const none = { gross, amount, cgst: 0, sgst: 0, igst: 0, otherTax: 0 };
  if (ctx.regime === 'none' || ctx.zeroRated || line.taxRateBp <= 0) return none;
  const base = BigInt(amount);
  const bp = BigInt(Math.min(line.taxRateBp, MAX_TAX_RATE_BP));
  if (ctx.regime === 'vat') return { ...none, otherTax: divRound(base * bp, 10_000n) };
  if (!ctx.intraState) return { ...none, igst: divRound(base * bp, 10_000n) };
  // Half the rate each, rounded each: 18% is CGST 9% + SGST 9%, as the invoice prints them.
  const half = divRound(base * bp, 20_000n);
  return { ...none, cgst: half, sgst: half };
}

function percent(bp: number): string {
  return `${Number((bp / 100).toFixed(2))}%`;
}

export function invoiceTotals(lines: readonly TLineInput[], ctx: TTaxContext): TInvoiceTotals {
  const computed = lines.map((line) => lineTotals(line, ctx));
  const rows = new Map<string, TTaxRow>();
  const add = (kind: TTaxRow['kind'], rateBp: number, amount: number) => {
    if (!amount) return;
    const key = `${kind}:${rateBp}`;
    const label = `${kind === 'TAX' ? (ctx.regime === 'vat' ? 'VAT' : 'Tax') : kind} ${percent(rateBp)}`;
    const row = rows.get(key) ?? { label, kind, rateBp, amount: 0 };
    row.amount += amount;
    rows.set(key, row);
  };
  computed.forEach((c, i) => {
    const bp = lines[i]?.taxRateBp ?? 0;
    add('CGST', bp / 2, c.cgst);
    add('SGST', bp / 2, c.sgst);
    add('IGST', bp, c.igst);
    add('TAX', bp, c.otherTax);
  });
  const subtotal = computed.reduce((s, c) => s + c.amount, 0);
  const taxTotal = computed.reduce((s, c) => s + c.cgst + c.sgst + c.igst + c.otherTax, 0);
  const raw = subtotal + taxTotal;
  const unit = 10 ** ctx.digits;
  const total = ctx.roundTotals && unit > 1 ? divRound(BigInt(raw), BigInt(unit)) * unit : raw;
  return { lines: computed, subtotal, taxTotal, taxes: [...rows.values()], roundOff: total - raw, total };
}

/** The GST state code of a GSTIN (its first two digits), or null. */
export function gstStateOf(taxIds: readonly { kind: string; value: string }[]): string | null {
  const gstin = taxIds.find((t) => t.kind.toUpperCase() === 'GSTIN')?.value.trim() ?? '';
  return /^\d{2}/.test(gstin) ? gstin.slice(0, 2) : null;
}
