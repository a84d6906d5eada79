import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Drawer, DrawerContent, Skeleton, useFormat } from '@web/ui';
import type { ReactNode } from 'react';
import { trpc } from '../../lib/trpc';
import { InvoiceStatusBadge } from './invoice-status';
import { UpiPay } from './upi-pay';

/**
 * One invoice as printed: its lines, taxes and totals, what is left to pay and when. One that is not
 * the client's answers NOT_FOUND: the panel says so and shows nothing else.
 */
export function PortalInvoiceDrawer({
  clientId,
  invoiceId,
  onClose,
}: {
  clientId: string;
  invoiceId: string | undefined;
  onClose: () => void;
}) {
  return (
    <Drawer open={Boolean(invoiceId)} onOpenChange={(open) => !open && onClose()}>
      {invoiceId ? <InvoicePanel clientId={clientId} invoiceId={invoiceId} /> : null}
    </Drawer>
  );
}

function InvoicePanel({ clientId, invoiceId }: { clientId: string; invoiceId: string }) {
  const format = useFormat();
  const query = useQuery({
    ...trpc.clientPortalInvoices.get.queryOptions({ clientId, invoiceId }),
    retry: false,
  });
  const inv = query.data;
  const credit = inv?.kind === 'credit_note';
  const title = inv
    ? `${credit ? 'Credit note' : 'Invoice'} ${inv.number}`
    : query.isError
      ? 'Invoice not found'
      : 'Invoice';
  return (
    <DrawerContent size="lg" title={title}>
      {query.isError ? (
        <p className="text-muted-fg">This invoice is not available.</p>
      ) : !inv ? (
        <Skeleton className="h-64" />
      ) : (
        <div className="flex flex-col gap-5">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            <InvoiceStatusBadge status={inv.displayStatus} kind={inv.kind} />
            {inv.issueDate ? <span>Issued {format.date(inv.issueDate)}</span> : null}
            {!credit && inv.dueDate && inv.status !== 'void' ? (
              <span>Due {format.date(inv.dueDate)}</span>
            ) : null}
          </div>
          {inv.creditFor ? (
            <p className="text-sm">
              Corrects invoice{' '}
              <Link
                to="."
                search={(s: Record<string, unknown>) => ({ ...s, invoice: inv.creditFor?.id })}
                className="font-medium text-primary underline underline-offset-2"
              >
                {inv.creditFor.number}
              </Link>
              .
            </p>
          ) : null}
          {inv.status === 'void' ? (
            <p className="rounded-md border border-border bg-muted/40 p-3 text-sm">
              This invoice was cancelled by the firm: there is nothing to pay on it.
            </p>
          ) : null}

          <section aria-labelledby="invoice-lines">
            <h3 id="invoice-lines" className="mb-1 text-sm font-medium">
              What it is for
            </h3>
            <ul className="divide-y divide-border text-sm">
              {inv.lines.map((line) => (
                <li key={line.id} className="flex items-start justify-between gap-3 py-2">
                  <div className="min-w-0">
                    <p className="break-words">{line.description}</p>
                    {line.quantityMilli !== 1000 || line.discount ? (
                      <p className="text-xs text-muted-fg">
                        {format.number(line.quantityMilli / 1000, { maximumFractionDigits: 3 })} ×{' '}
                        {format.moneyMinor(line.rate)}
                        {line.discount ? `, less ${format.moneyMinor(line.discount)}` : ''}
                      </p>
                    ) : null}
                  </div>
                  <span className="shrink-0 tabular-nums">{format.moneyMinor(line.amount)}</span>
                </li>
              ))}
            </ul>
          </section>

          <dl className="flex flex-col gap-1 border-t border-border pt-3 text-sm">
            <Amount label="Subtotal">{format.moneyMinor(inv.subtotal)}</Amount>
            {inv.taxTotal ? <Amount label="Tax">{format.moneyMinor(inv.taxTotal)}</Amount> : null}
            {inv.roundOff ? <Amount label="Round-off">{format.moneyMinor(inv.roundOff)}</Amount> : null}
            <Amount label="Total" strong>
              {format.moneyMinor(inv.total)}
            </Amount>
            {!credit && inv.status !== 'void' ? (
              <>
                <Amount label="Paid">{format.moneyMinor(inv.amountPaid)}</Amount>
                <Amount label="To pay" strong>
                  {format.moneyMinor(inv.balance)}
                </Amount>
              </>
            ) : null}
          </dl>

          {inv.upiUri && inv.number ? (
            <UpiPay uri={inv.upiUri} amount={inv.balance} number={inv.number} />
          ) : null}

          {inv.notes ? <p className="whitespace-pre-line text-sm">{inv.notes}</p> : null}
          {inv.terms ? <p className="whitespace-pre-line text-xs text-muted-fg">{inv.terms}</p> : null}
        </div>
      )}
    </DrawerContent>
  );
}

function Amount({ label, strong, children }: { label: string; strong?: boolean; children: ReactNode }) {
  return (
    <div className={strong ? 'flex justify-between gap-3 font-semibold' : 'flex justify-between gap-3'}>
      <dt className={strong ? '' : 'text-muted-fg'}>{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}
