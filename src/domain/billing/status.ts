import { daysApart } from '../days';
import {
  OPEN_STATUSES,
  type TAgingBucket,
  type TInvoiceDisplayStatus,
  type TInvoiceStatus,
} from './constants';

/** The status after money moved: paid when nothing is left, partly paid when some was. */
export function settledStatus(
  current: TInvoiceStatus,
  invoice: { total: number; settled: number; sent: boolean },
): TInvoiceStatus {
  if (current === 'draft' || current === 'void') return current;
  if (invoice.settled >= invoice.total && invoice.total > 0) return 'paid';
  if (invoice.settled > 0) return 'partly_paid';
  return invoice.sent ? 'sent' : 'issued';
}

/**
 * SPEC §4's rule for invoices: an open invoice (issued, sent, partly paid) whose due date is before
 * today shows Overdue; otherwise its stored status shows.
 */
export function invoiceDisplayStatus(
  invoice: { status: TInvoiceStatus; dueDate: string | null },
  today: string,
): TInvoiceDisplayStatus {
  const open = (OPEN_STATUSES as readonly string[]).includes(invoice.status);
  return open && invoice.dueDate && invoice.dueDate < today ? 'overdue' : invoice.status;
}

/** Days past due decide the bucket: not yet due is current. */
export function agingBucket(dueDate: string, today: string): TAgingBucket {
  const days = daysApart(dueDate, today);
  if (days <= 0) return 'current';
  if (days <= 30) return 'd1_30';
  if (days <= 60) return 'd31_60';
  if (days <= 90) return 'd61_90';
  return 'd90_plus';
}
