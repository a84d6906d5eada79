import { INVOICE_KIND_LABELS } from '@domain/billing/invoice-list';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { PageHeader, Spinner, useFormat } from '@web/ui';
import { type AppRouter, trpc } from '../../../lib/trpc';
import { NoAccess, useCan } from '../../shell/access';
import { RecordNotFound } from '../../shell/record-not-found';
import { InvoiceActions } from './invoice-actions';
import { InvoiceActivity } from './invoice-activity';
import { InvoiceDocument } from './invoice-document';
import { InvoiceEditor } from './invoice-editor';
import { InvoiceStatusBadge } from './invoice-status-badge';

const route = getRouteApi('/_main/billing/invoices/$id');
export type TInvoiceDetail = inferRouterOutputs<AppRouter>['billing']['invoices']['get'];

/** /billing/invoices/{id}: a draft to edit, or an issued invoice or credit note as the client sees it. */
export function InvoicePage() {
  if (!useCan('billing.view')) return <NoAccess message="Your role does not include billing." />;
  return <InvoiceScreen />;
}

function InvoiceScreen() {
  const { id } = route.useParams();
  const detail = useQuery(trpc.billing.invoices.get.queryOptions({ invoiceId: id }));
  if (detail.error?.data?.code === 'NOT_FOUND') {
    return <RecordNotFound thing="invoice" back={{ to: '/billing/invoices', label: 'Back to invoices' }} />;
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
  return <InvoiceDetail detail={detail.data} />;
}

function InvoiceDetail({ detail }: { detail: TInvoiceDetail }) {
  const format = useFormat();
  const canManage = useCan('billing.manage');
  const { invoice, client } = detail;
  const kind = INVOICE_KIND_LABELS[invoice.kind];
  const name = invoice.number ?? `Draft ${kind.toLowerCase()}`;
  const editing = invoice.status === 'draft' && canManage;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Billing' }, { label: 'Invoices', to: '/billing/invoices' }, { label: name }]}
        title={
          <span className="flex flex-wrap items-center gap-2">
            <span className={invoice.number ? 'font-mono' : undefined}>{name}</span>
            <InvoiceStatusBadge status={invoice.displayStatus} />
          </span>
        }
        description={
          <span>
            {invoice.number ? `${kind} · ` : ''}
            <Link to="/clients/$id/billing" params={{ id: client.id }} className="text-primary underline">
              {client.name}
            </Link>
            {detail.creditFor ? (
              <>
                {' · against '}
                <Link
                  to="/billing/invoices/$id"
                  params={{ id: detail.creditFor.id }}
                  className="font-mono text-primary underline"
                >
                  {detail.creditFor.number}
                </Link>
              </>
            ) : null}
            {invoice.issueDate ? ` · issued ${format.date(invoice.issueDate)}` : ''}
          </span>
        }
        actions={editing ? null : <InvoiceActions detail={detail} />}
      />
      {editing ? <InvoiceEditor detail={detail} /> : <InvoiceDocument detail={detail} />}
      <InvoiceActivity detail={detail} />
    </div>
  );
}
