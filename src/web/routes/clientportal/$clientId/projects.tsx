import { createFileRoute } from '@tanstack/react-router';
import { loadOrNotFound } from '../../../features/client-portal/load';

/** /clientportal/{clientId}/projects: the client's projects and how far along they are. */
export const Route = createFileRoute('/clientportal/$clientId/projects')({
  loader: ({ context, params }) =>
    loadOrNotFound(() =>
      context.queryClient.ensureQueryData(
        context.trpc.clientPortalProjects.list.queryOptions({ clientId: params.clientId }),
      ),
    ),
});
