import { createFileRoute } from '@tanstack/react-router';
import { loadOrNotFound } from '../../../../features/client-portal/load';

/** /clientportal/{clientId}/requests/{requestId}: one request, answered item by item. */
export const Route = createFileRoute('/clientportal/$clientId/requests/$requestId')({
  loader: ({ context, params }) =>
    loadOrNotFound(() =>
      context.queryClient.ensureQueryData(
        context.trpc.clientPortalRequests.get.queryOptions({
          clientId: params.clientId,
          requestId: params.requestId,
        }),
      ),
    ),
});
