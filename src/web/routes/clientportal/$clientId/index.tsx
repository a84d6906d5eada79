import { createFileRoute } from '@tanstack/react-router';
import { loadOrNotFound } from '../../../features/client-portal/load';

/** /clientportal/{clientId}: the portal's home for the client. */
export const Route = createFileRoute('/clientportal/$clientId/')({
  loader: ({ context, params }) =>
    loadOrNotFound(() =>
      context.queryClient.ensureQueryData(
        context.trpc.clientPortalHome.get.queryOptions({ clientId: params.clientId }),
      ),
    ),
});
