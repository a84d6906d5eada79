import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Button, useFormat } from '@web/ui';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../../lib/trpc';
import { NoAccess, useCan } from '../../shell/access';
import { ClientPaymentActions } from '../payments/client-payment-actions';
import { StatementCard } from '../payments/statement-card';
import { BillingContactsCard } from './billing-contacts-card';
import { ClientMailingsCard } from './client-mailings-card';
import { InvoicesExportMenu } from './invoices-export-menu';
import { InvoicesList } from './invoices-list';
import { NewInvoiceDialog } from './new-invoice-dialog';

const route = getRouteApi('/_main/clients/$id/billing');

/**
 * /clients/{id}/billing: what the client owes and the credit it holds, its payments and credit, its
 * invoices, its statement, who its invoices go to, what was mailed.
 */
export function ClientBillingPage() {
  if (!useCan('billing.view')) return <NoAccess message="Your role does not include billing." />;
  return <ClientBilling />;
}

function ClientBilling() {
  const { id } = route.useParams();
  const search = route.useSearch();
  const format = useFormat();
  const canManage = useCan('billing.manage');
  const [creating, setCreating] = useState(false);
  const summary = useQuery(trpc.billing.invoices.clientBilling.queryOptions({ clientId: id }));
  const account = useQuery(trpc.billing.payments.clientAccount.queryOptions({ clientId: id }));
  const s = summary.data;
  const credit = account.data?.credit;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-x-8 gap-y-3">
        <dl className="flex flex-wrap gap-x-8 gap-y-2">
          <div>
            <dt className="text-xs text-muted-fg">Outstanding</dt>
            <dd className="text-lg font-semibold tabular-nums">
              {s ? format.moneyMinor(s.outstanding) : '—'}
              {s ? (
                <span className="ml-1.5 text-sm font-normal text-muted-fg">
                  {s.openCount} invoice{s.openCount === 1 ? '' : 's'}
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-fg">Overdue</dt>
            <dd className={`text-lg font-semibold tabular-nums ${s?.overdue ? 'text-danger' : ''}`}>
              {s ? format.moneyMinor(s.overdue) : '—'}
              {s?.overdueCount ? (
                <span className="ml-1.5 text-sm font-normal text-muted-fg">
                  {s.overdueCount} invoice{s.overdueCount === 1 ? '' : 's'}
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-fg">Credit</dt>
            <dd className="text-lg font-semibold tabular-nums">
              {credit === undefined ? '—' : format.moneyMinor(credit)}
            </dd>
          </div>
        </dl>
        <div className="ml-auto flex flex-wrap gap-2">
          <ClientPaymentActions clientId={id} account={account.data} />
          <InvoicesExportMenu search={search} clientId={id} />
          {canManage ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden /> New invoice
            </Button>
          ) : null}
        </div>
      </div>
      {canManage ? <NewInvoiceDialog open={creating} onOpenChange={setCreating} clientId={id} /> : null}
      <InvoicesList search={search} clientId={id} />
      <StatementCard clientId={id} />
      <div className="grid gap-4 lg:grid-cols-2">
        {s ? <BillingContactsCard key={JSON.stringify([s.emails, s.remindersPaused])} billing={s} /> : null}
        <ClientMailingsCard clientId={id} />
      </div>
    </div>
  );
}
