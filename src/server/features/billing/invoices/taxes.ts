import type { TTaxContext } from '../../../../domain/billing/totals';
import { type TBillingContext, taxContextOf } from '../context';
import type { TInvoiceRow } from '../ledger';

/**
 * The tax context an invoice's tax rows are shown and printed with. A draft follows the firm's
 * settings as they are; an issued one keeps what its lines were taxed with at issue (CGST and SGST,
 * or IGST), whatever the firm's state is set to since.
 */
export function shownTaxContext(
  ctx: TBillingContext,
  invoice: TInvoiceRow,
  lines: readonly { cgst: number; igst: number }[],
): TTaxContext {
  const base = taxContextOf(ctx, invoice);
  if (invoice.status === 'draft') return base;
  if (lines.some((l) => l.igst > 0)) return { ...base, intraState: false };
  if (lines.some((l) => l.cgst > 0)) return { ...base, intraState: true };
  return base;
}
