import { PAYMENT_METHOD_LABELS } from '@domain/billing/constants';
import { receiptValue } from '@domain/billing/payments';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { Button, Card, CardContent, CardHeader, CardTitle, PageHeader, Spinner, useFormat } from '@web/ui';
import { Pencil, Undo2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { type AppRouter, trpc } from '../../../lib/trpc';
import { NoAccess, useCan } from '../../shell/access';
import { RecordNotFound } from '../../shell/record-not-found';
import { PaymentAllocations } from './payment-allocations';
import { PaymentStateBadges } from './payment-badges';
import { PaymentEditDialog } from './payment-edit-dialog';
import { PaymentReverseDialog } from './payment-reverse-dialog';

const route = getRouteApi('/_main/billing/payments/$id');
export type TPaymentDetail = inferRouterOutputs<AppRouter>['billing']['payments']['get'];

/** /billing/payments/{id}: one payment or refund, where its money went, and what may still change. */
export function PaymentPage() {
  if (!useCan('billing.view')) return <NoAccess message="Your role does not include billing." />;
  return <PaymentScreen />;
}

function PaymentScreen() {
  const { id } = route.useParams();
  const detail = useQuery(trpc.billing.payments.get.queryOptions({ paymentId: id }));
  if (detail.error?.data?.code === 'NOT_FOUND') {
    return <RecordNotFound thing="payment" back={{ to: '/billing/payments', label: 'Back to payments' }} />;
  }
  // Anything else, once its retries are spent, is the error screen rather than a spinner forever.
  if (detail.error) throw detail.error;
  if (!detail.data) {
    return (
      <div className="grid place-items-center p-16">
        <Spinner />
      </div>
    );
  }
  return <PaymentDetail payment={detail.data} />;
}

function PaymentDetail({ payment }: { payment: TPaymentDetail }) {
  const format = useFormat();
  const canCollect = useCan('billing.collect');
  const [open, setOpen] = useState<'edit' | 'reverse' | null>(null);
  const money = format.moneyMinor;
  const refund = payment.kind === 'refund';
  const title = refund
    ? `Refund of ${money(payment.amount)} to ${payment.client.name}`
    : `${money(payment.amount)} from ${payment.client.name}`;
  const live = !payment.reversedAt;
  const row = (label: string, value: ReactNode) => (
    <div className="flex justify-between gap-6 py-1.5">
      <dt className="text-muted-fg">{label}</dt>
      <dd className="text-right">{value}</dd>
    </div>
  );
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[
          { label: 'Billing' },
          { label: 'Payments', to: '/billing/payments' },
          { label: `${format.date(payment.receivedOn)} · ${payment.client.name}` },
        ]}
        title={
          <span className="flex flex-wrap items-center gap-2">
            <span>{title}</span>
            <PaymentStateBadges payment={payment} />
          </span>
        }
        description={
          <span>
            {PAYMENT_METHOD_LABELS[payment.method]}
            {payment.reference ? ` · ${payment.reference}` : ''} · {refund ? 'paid' : 'received'}{' '}
            {format.date(payment.receivedOn)} ·{' '}
            <Link
              to="/clients/$id/billing"
              params={{ id: payment.client.id }}
              className="text-primary underline"
            >
              {payment.client.name}
            </Link>
          </span>
        }
        actions={
          canCollect && live ? (
            <>
              <Button variant="outline" onClick={() => setOpen('edit')}>
                <Pencil aria-hidden /> Edit
              </Button>
              <Button variant="outline" onClick={() => setOpen('reverse')}>
                <Undo2 aria-hidden /> Reverse
              </Button>
              <PaymentEditDialog
                open={open === 'edit'}
                onOpenChange={(o) => setOpen(o ? 'edit' : null)}
                payment={payment}
              />
              <PaymentReverseDialog
                open={open === 'reverse'}
                onOpenChange={(o) => setOpen(o ? 'reverse' : null)}
                payment={payment}
              />
            </>
          ) : null
        }
      />
      {payment.reversedAt ? (
        <p role="note" className="rounded-md border border-danger/30 bg-danger/5 px-4 py-3 text-sm">
          Reversed {format.dateTime(payment.reversedAt)}
          {payment.reversedBy ? ` by ${payment.reversedBy}` : ''}: {payment.reverseReason}. It no longer
          counts: what it settled is owed again.
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{refund ? 'Refund' : 'Payment'}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="flex flex-col divide-y divide-border text-sm">
              {row(refund ? 'Paid on' : 'Received on', format.date(payment.receivedOn))}
              {row('Method', PAYMENT_METHOD_LABELS[payment.method])}
              {row('Reference', payment.reference || '—')}
              {row(
                refund ? 'Refunded' : 'Amount received',
                <span className="tabular-nums">{money(payment.amount)}</span>,
              )}
              {refund ? null : (
                <>
                  {row(
                    'TDS deducted',
                    payment.tdsAmount > 0 ? (
                      <span className="tabular-nums">
                        {money(payment.tdsAmount)}
                        {payment.tdsSection ? ` · section ${payment.tdsSection}` : ''}
                      </span>
                    ) : (
                      '—'
                    ),
                  )}
                  {payment.tdsAmount > 0
                    ? row('TDS certificate', payment.tdsCertificateReceived ? 'Received' : 'Pending')
                    : null}
                  {row('Bank charges', <span className="tabular-nums">{money(payment.bankCharges)}</span>)}
                  {row(
                    'Settles in all',
                    <span className="font-medium tabular-nums">{money(receiptValue(payment))}</span>,
                  )}
                  {row(
                    'Allocated to invoices',
                    <span className="tabular-nums">{money(payment.allocated)}</span>,
                  )}
                  {row(
                    "Left as the client's credit",
                    <span className="tabular-nums">{money(payment.unallocated)}</span>,
                  )}
                </>
              )}
              {payment.notes
                ? row('Notes', <span className="whitespace-pre-line">{payment.notes}</span>)
                : null}
              {row(
                'Recorded',
                `${format.dateTime(payment.createdAt)}${payment.recordedBy ? ` by ${payment.recordedBy}` : ''}`,
              )}
            </dl>
          </CardContent>
        </Card>
        {refund ? null : <PaymentAllocations payment={payment} />}
      </div>
    </div>
  );
}
