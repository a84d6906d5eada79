import { PORTAL_PAGE_SIZE } from '@domain/client-portal-constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Card, CardContent, EmptyState, Pagination, Skeleton, useFormat } from '@web/ui';
import { Receipt } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { PortalInvoiceDrawer } from './invoice-drawer';
import { InvoiceStatusBadge } from './invoice-status';

const route = getRouteApi('/clientportal/$clientId/invoices');

/** The client's invoices: what is still to pay first, each opening with its lines, PDF and how to pay. */
export function PortalInvoicesPage() {
  const { clientId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const format = useFormat();
  const page = search.page ?? 1;
  const list = useQuery({
    ...trpc.clientPortalInvoices.list.queryOptions({ clientId, page, pageSize: PORTAL_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const data = list.data;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold tracking-tight">Invoices</h1>
      {!data ? (
        <Skeleton className="h-48" />
      ) : data.total === 0 ? (
        <Card>
          <EmptyState
            icon={Receipt}
            title="No invoices yet"
            message="The invoices your firm sends you show here, with what is left to pay."
          />
        </Card>
      ) : (
        <>
          <Card>
            <CardContent className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1 pt-4">
              <p>
                <span className="block text-sm text-muted-fg">To pay</span>
                <span className="text-2xl font-semibold tabular-nums" data-testid="portal-outstanding">
                  {format.moneyMinor(data.balance.outstanding)}
                </span>
              </p>
              <p className={data.balance.overdueCount ? 'text-sm text-danger' : 'text-sm text-muted-fg'}>
                {data.balance.overdueCount
                  ? `${format.number(data.balance.overdueCount)} overdue (${format.moneyMinor(data.balance.overdue)})`
                  : data.balance.outstanding
                    ? 'Nothing overdue'
                    : 'All paid. Thank you!'}
              </p>
            </CardContent>
          </Card>
          <Card className="px-4">
            <ul className="divide-y divide-border" aria-label="Invoices">
              {data.rows.map((inv) => (
                <li key={inv.id} className="flex flex-col gap-1 py-3">
                  <div className="flex items-start justify-between gap-3">
                    <Link
                      to="."
                      search={(s) => ({ ...s, invoice: inv.id })}
                      className="min-w-0 break-words font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                    >
                      {inv.kind === 'credit_note' ? 'Credit note ' : 'Invoice '}
                      {inv.number}
                    </Link>
                    <InvoiceStatusBadge status={inv.displayStatus} kind={inv.kind} className="shrink-0" />
                  </div>
                  <p className="text-xs text-muted-fg">
                    {[
                      inv.issueDate ? `Issued ${format.date(inv.issueDate)}` : null,
                      inv.kind === 'invoice' && inv.dueDate && inv.balance > 0
                        ? `due ${format.date(inv.dueDate)}`
                        : null,
                    ]
                      .filter(Boolean)
                      .join(', ')}
                  </p>
                  <dl className="flex flex-wrap gap-x-6 text-sm">
                    <div className="flex gap-1.5">
                      <dt className="text-muted-fg">Total</dt>
                      <dd className="tabular-nums">{format.moneyMinor(inv.total)}</dd>
                    </div>
                    {inv.kind === 'invoice' && inv.status !== 'void' ? (
                      <div className="flex gap-1.5">
                        <dt className="text-muted-fg">To pay</dt>
                        <dd className="font-medium tabular-nums">{format.moneyMinor(inv.balance)}</dd>
                      </div>
                    ) : null}
                  </dl>
                </li>
              ))}
            </ul>
            {data.total > PORTAL_PAGE_SIZE ? (
              <Pagination
                page={page}
                pageSize={PORTAL_PAGE_SIZE}
                total={data.total}
                onPageChange={(p) => navigate({ search: (s) => ({ ...s, page: p > 1 ? p : undefined }) })}
                className="px-0"
              />
            ) : null}
          </Card>
        </>
      )}
      <PortalInvoiceDrawer
        clientId={clientId}
        invoiceId={search.invoice}
        onClose={() => navigate({ search: (s) => ({ ...s, invoice: undefined }) })}
      />
    </div>
  );
}
