import { INVOICE_STATUS_LABELS, type TInvoiceDisplayStatus } from '@domain/billing/constants';
import { Badge, type BadgeTone } from '@web/ui';

const TONES: Record<TInvoiceDisplayStatus, BadgeTone> = {
  draft: 'grey',
  issued: 'blue',
  sent: 'blue',
  partly_paid: 'yellow',
  paid: 'green',
  void: 'light-grey',
  overdue: 'red',
};

/** An invoice's status as the client reads it (Overdue derived on the server), with a dot beside the colour. */
export function InvoiceStatusBadge({
  status,
  kind,
  className,
}: {
  status: TInvoiceDisplayStatus;
  kind: 'invoice' | 'credit_note';
  className?: string;
}) {
  // A credit note is money the firm gives back: "Issued" says all there is to say of it.
  return (
    <Badge tone={kind === 'credit_note' ? 'grey' : TONES[status]} dot className={className}>
      {INVOICE_STATUS_LABELS[status]}
    </Badge>
  );
}
