import { createFileRoute } from '@tanstack/react-router';
import { loadOrNotFound } from '../../../../features/client-portal/load';
import { ensureValidRoute, isUuid } from '../../../../lib/route-guard';

/** /clientportal/{clientId}/documents/{folderId}: a shared folder; any other folder is a 404. */
export const Route = createFileRoute('/clientportal/$clientId/documents/$folderId')({
  beforeLoad: ({ params }) => ensureValidRoute(isUuid(params.folderId)),
  loader: ({ context, params }) =>
    loadOrNotFound(() =>
      context.queryClient.ensureQueryData(
        context.trpc.clientPortalDocuments.folder.queryOptions({
          clientId: params.clientId,
          folderId: params.folderId,
        }),
      ),
    ),
});
