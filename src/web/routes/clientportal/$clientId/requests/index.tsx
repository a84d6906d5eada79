import { createFileRoute } from '@tanstack/react-router';
import { loadOrNotFound } from '../../../../features/client-portal/load';
import { ZPortalRequestSearch } from '../../../../features/requests/portal-search';

/** /clientportal/{clientId}/requests: what the firm asked this person for, what waits on them first. */
export const Route = createFileRoute('/clientportal/$clientId/requests/')({
  validateSearch: ZPortalRequestSearch,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context, params, deps }) =>
    loadOrNotFound(() =>
      context.queryClient.ensureQueryData(
        context.trpc.clientPortalRequests.list.queryOptions({ clientId: params.clientId, page: deps.page }),
      ),
    ),
});
