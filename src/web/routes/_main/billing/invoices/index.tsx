import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';
import {
  invoicesListInput,
  parseInvoicesSearch,
} from '../../../../features/billing/invoices/invoices-search';

/** /billing/invoices: the firm's invoices and credit notes, loaded only for a member who may see them. */
export const Route = createFileRoute('/_main/billing/invoices/')({
  validateSearch: parseInvoicesSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'billing.view'))
      return;
    await context.queryClient.prefetchQuery(
      context.trpc.billing.invoices.list.queryOptions(invoicesListInput(deps)),
    );
  },
});
