import type { TLineKind } from '@domain/billing/constants';
import {
  parseMoney,
  parseQuantity,
  parseTaxPercent,
  quantityText,
  taxPercentText,
} from '@domain/billing/invoices';
import type { TLineValues } from '@domain/billing/schemas';
import { rateText } from '@domain/timesheet-rates';

// A line as the editor holds it: what a person types, as text, until it is saved. The same
// parsers turn it into the minor units and thousandths the server takes, so the totals the editor
// shows are the server's own.

export type TEditLine = {
  /** React's key: the line's id, or a new one's. */
  key: string;
  id?: string;
  kind: TLineKind;
  description: string;
  serviceId: string | null;
  taxCode: string;
  quantity: string;
  rate: string;
  discount: string;
  taxPercent: string;
  /** What billed time the line carries, and what it was worth at standard rates. */
  time: { entries: number; minutes: number } | null;
  standardValue: number;
  periodStart: string | null;
};

export type TLineErrors = Partial<
  Record<'description' | 'quantity' | 'rate' | 'discount' | 'taxPercent', string>
>;

let fresh = 0;
export function newLine(taxRateBp: number): TEditLine {
  fresh += 1;
  return {
    key: `new-${fresh}`,
    kind: 'custom',
    description: '',
    serviceId: null,
    taxCode: '',
    quantity: '1',
    rate: '',
    discount: '',
    taxPercent: taxPercentText(taxRateBp),
    time: null,
    standardValue: 0,
    periodStart: null,
  };
}

export function editLineOf(
  line: {
    id: string;
    kind: TLineKind;
    description: string;
    serviceId: string | null;
    taxCode: string;
    quantityMilli: number;
    rate: number;
    discount: number;
    taxRateBp: number;
    standardValue: number;
    periodStart: string | null;
    time?: { entries: number; minutes: number } | null;
  },
  digits: number,
): TEditLine {
  return {
    key: line.id,
    id: line.id,
    kind: line.kind,
    description: line.description,
    serviceId: line.serviceId,
    taxCode: line.taxCode,
    quantity: quantityText(line.quantityMilli),
    rate: rateText(line.rate, digits),
    discount: line.discount ? rateText(line.discount, digits) : '',
    taxPercent: taxPercentText(line.taxRateBp),
    time: line.time ?? null,
    standardValue: line.standardValue,
    periodStart: line.periodStart,
  };
}

/** The line in the server's units, and what does not parse. Unparsed amounts count as zero. */
export function parseLine(line: TEditLine, digits: number): { value: TLineValues; errors: TLineErrors } {
  const errors: TLineErrors = {};
  const q = parseQuantity(line.quantity);
  const r = parseMoney(line.rate, digits);
  const d = parseMoney(line.discount, digits);
  const t = parseTaxPercent(line.taxPercent);
  if ('error' in q) errors.quantity = q.error;
  if ('error' in r) errors.rate = r.error;
  if ('error' in d) errors.discount = d.error;
  if ('error' in t) errors.taxPercent = t.error;
  if (!line.description.trim()) errors.description = 'Describe the line';
  const value: TLineValues = {
    ...(line.id ? { id: line.id } : {}),
    description: line.description.trim(),
    serviceId: line.serviceId,
    taxCode: line.taxCode.trim(),
    quantityMilli: 'quantityMilli' in q ? q.quantityMilli : 0,
    rate: 'amount' in r ? r.amount : 0,
    discount: 'amount' in d ? d.amount : 0,
    taxRateBp: 'taxRateBp' in t ? t.taxRateBp : 0,
  };
  const gross = Math.round((value.quantityMilli * value.rate) / 1000);
  if (!errors.discount && value.discount > gross) errors.discount = 'More than the line';
  return { value, errors };
}
