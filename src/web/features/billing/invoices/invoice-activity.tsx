import { INVOICE_STATUS_LABELS, PAYMENT_METHOD_IN_SENTENCE } from '@domain/billing/constants';
import { Link } from '@tanstack/react-router';
import { Badge, Card, CardContent, CardHeader, CardTitle, useFormat } from '@web/ui';
import type { TInvoiceDetail } from './invoice-page';

const DELIVERY = {
  queued: { label: 'Queued', tone: 'grey' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
} as const;

/**
 * What happened to the invoice: money set against it (payments, each opening its own
 * page, and credit notes), the credit notes raised, each mailing, and the system log.
 */
export function InvoiceActivity({ detail }: { detail: TInvoiceDetail }) {
  const format = useFormat();
  const { invoice } = detail;
  const isNote = invoice.kind === 'credit_note';
  const empty = (text: string) => <p className="text-sm text-muted-fg">{text}</p>;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>{isNote ? 'Applied to' : 'Payments and credits'}</CardTitle>
        </CardHeader>
        <CardContent>
          {detail.allocations.length === 0 ? (
            empty(isNote ? 'Not applied to any invoice yet.' : 'Nothing paid or credited yet.')
          ) : (
            <ul
              aria-label={isNote ? 'Applied to' : 'Payments and credits'}
              className="flex flex-col divide-y divide-border text-sm"
            >
              {detail.allocations.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                  <span className="min-w-0 flex-1">
                    {a.paymentId ? (
                      <Link
                        to="/billing/payments/$id"
                        params={{ id: a.paymentId }}
                        className="text-primary underline"
                      >
                        {`Payment${a.paymentMethod ? ` by ${PAYMENT_METHOD_IN_SENTENCE[a.paymentMethod]}` : ''}${a.paymentReference ? ` · ${a.paymentReference}` : ''}`}
                      </Link>
                    ) : (
                      <>
                        {isNote ? 'Invoice ' : 'Credit note '}
                        <Link
                          to="/billing/invoices/$id"
                          params={{ id: (isNote ? a.invoiceId : a.creditNoteId) ?? '' }}
                          className="font-mono text-primary underline"
                        >
                          {a.otherNumber}
                        </Link>
                      </>
                    )}
                  </span>
                  <span className="text-muted-fg">{format.date(a.allocatedOn)}</span>
                  <span className={a.reversedAt ? 'tabular-nums line-through' : 'tabular-nums'}>
                    {format.moneyMinor(a.amount)}
                  </span>
                  {a.reversedAt ? <Badge tone="grey">Reversed</Badge> : null}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      {isNote ? null : (
        <Card>
          <CardHeader>
            <CardTitle>Credit notes</CardTitle>
          </CardHeader>
          <CardContent>
            {detail.creditNotes.length === 0 ? (
              empty('No credit notes against this invoice.')
            ) : (
              <ul aria-label="Credit notes" className="flex flex-col divide-y divide-border text-sm">
                {detail.creditNotes.map((c) => (
                  <li key={c.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                    <Link
                      to="/billing/invoices/$id"
                      params={{ id: c.id }}
                      className="min-w-0 flex-1 font-mono text-primary underline"
                    >
                      {c.number ?? 'Draft'}
                    </Link>
                    <span className="text-muted-fg">{c.issueDate ? format.date(c.issueDate) : '—'}</span>
                    <span className={c.status === 'void' ? 'tabular-nums line-through' : 'tabular-nums'}>
                      {format.moneyMinor(c.total)}
                    </span>
                    {c.status === 'void' ? <Badge tone="grey">{INVOICE_STATUS_LABELS.void}</Badge> : null}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Mailed</CardTitle>
        </CardHeader>
        <CardContent>
          {detail.deliveries.length === 0 ? (
            empty('Not sent yet.')
          ) : (
            <ul aria-label="Mailed" className="flex flex-col divide-y divide-border text-sm">
              {detail.deliveries.map((d) => (
                <li key={d.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                  <span className="min-w-0 flex-1 break-all">{d.email}</span>
                  <span className="text-muted-fg">{format.dateTime(d.sentAt ?? d.createdAt)}</span>
                  <Badge tone={DELIVERY[d.status].tone} dot>
                    {DELIVERY[d.status].label}
                  </Badge>
                  {d.error ? <span className="w-full text-xs text-danger">{d.error}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card className={isNote ? undefined : 'lg:col-span-1'}>
        <CardHeader>
          <CardTitle>History</CardTitle>
        </CardHeader>
        <CardContent>
          {detail.history.length === 0 ? (
            empty('Nothing logged yet.')
          ) : (
            <ol aria-label="History" className="flex flex-col divide-y divide-border text-sm">
              {detail.history.map((h) => (
                <li key={h.id} className="py-2">
                  <p className="break-words">{h.summary}</p>
                  <p className="text-xs text-muted-fg">
                    {format.dateTime(h.at)} ·{' '}
                    {h.actorKind === 'system' ? 'Practice' : (h.actorName ?? 'Someone')}
                  </p>
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
