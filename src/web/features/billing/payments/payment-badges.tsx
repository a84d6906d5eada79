import { Badge, useFormat } from '@web/ui';

type TPaymentState = { kind: 'receipt' | 'refund'; reversedAt: Date | null };
type TPaymentTds = { tdsAmount: number; tdsSection: string | null; tdsCertificateReceived: boolean };

/** What a payment is beyond money received: a refund paid out, or reversed (it no longer counts). */
export function PaymentStateBadges({ payment }: { payment: TPaymentState }) {
  return (
    <span className="inline-flex gap-1">
      {payment.kind === 'refund' ? <Badge tone="blue">Refund</Badge> : <Badge tone="green">Received</Badge>}
      {payment.reversedAt ? (
        <Badge tone="red" dot>
          Reversed
        </Badge>
      ) : null}
    </span>
  );
}

/** The tax the client deducted and its section; under it, whether its certificate is still to come. */
export function TdsText({ payment }: { payment: TPaymentTds }) {
  const format = useFormat();
  return (
    <span className="inline-flex flex-col items-end gap-0.5">
      <span className="tabular-nums">
        {format.moneyMinor(payment.tdsAmount)}
        {payment.tdsSection ? (
          <span className="ml-1.5 text-xs text-muted-fg">{payment.tdsSection}</span>
        ) : null}
      </span>
      {payment.tdsCertificateReceived ? null : <Badge tone="yellow">Certificate pending</Badge>}
    </span>
  );
}
