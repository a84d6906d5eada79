import { createFileRoute } from '@tanstack/react-router';
import { ZPortalInvoiceSearch } from '../../../features/client-portal/invoice-search';
import { loadOrNotFound } from '../../../features/client-portal/load';

/** /clientportal/{clientId}/invoices: what the firm billed, what is still to pay first (?invoice={id} opens one). */
export const Route = createFileRoute('/clientportal/$clientId/invoices')({
  validateSearch: ZPortalInvoiceSearch,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context, params, deps }) =>
    loadOrNotFound(() =>
      context.queryClient.ensureQueryData(
        context.trpc.clientPortalInvoices.list.queryOptions({ clientId: params.clientId, page: deps.page }),
      ),
    ),
});
