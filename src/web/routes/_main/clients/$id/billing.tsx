import { createFileRoute } from '@tanstack/react-router';
import { parseInvoicesSearch } from '../../../../features/billing/invoices/invoices-search';
import { ensureValidRoute, isUuid } from '../../../../lib/route-guard';

/** /clients/{id}/billing: the Billing tab of the client layout (which loads the client itself). */
export const Route = createFileRoute('/_main/clients/$id/billing')({
  validateSearch: parseInvoicesSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isUuid(params.id)),
});
