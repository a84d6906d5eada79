import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';
import {
  parsePaymentsSearch,
  paymentsListInput,
} from '../../../../features/billing/payments/payments-search';

/** /billing/payments: the firm's payments and refunds, loaded only for a member who may see them. */
export const Route = createFileRoute('/_main/billing/payments/')({
  validateSearch: parsePaymentsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'billing.view'))
      return;
    await context.queryClient.prefetchQuery(
      context.trpc.billing.payments.list.queryOptions(paymentsListInput(deps)),
    );
  },
});
