import { INVOICE_STATUS_LABELS, type TInvoiceDisplayStatus } from '@domain/billing/constants';
import { INVOICE_STATUS_TONES } from '@domain/billing/invoice-list';
import { Badge } from '@web/ui';

/** An invoice's status as SPEC §4 colours a status: overdue red, paid green, draft grey; void struck through. */
export function InvoiceStatusBadge({ status }: { status: TInvoiceDisplayStatus }) {
  return (
    <Badge tone={INVOICE_STATUS_TONES[status]} dot className={status === 'void' ? 'line-through' : undefined}>
      {INVOICE_STATUS_LABELS[status]}
    </Badge>
  );
}
