import { createFileRoute } from '@tanstack/react-router';
import { loadOrNotFound } from '../../../../features/client-portal/load';

/** /clientportal/{clientId}/documents: the top of the files the firm shares with the client. */
export const Route = createFileRoute('/clientportal/$clientId/documents/')({
  loader: ({ context, params }) =>
    loadOrNotFound(() =>
      context.queryClient.ensureQueryData(
        context.trpc.clientPortalDocuments.folder.queryOptions({ clientId: params.clientId }),
      ),
    ),
});
