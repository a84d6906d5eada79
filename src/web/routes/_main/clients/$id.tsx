import { hasPermission } from '@domain/permissions';
import { createFileRoute, notFound } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { RecordNotFound } from '../../../features/shell/record-not-found';
import { ensureValidRoute, isUuid } from '../../../lib/route-guard';

/**
 * /clients/{id}: one layout with tabs. Another firm's, a missing or an unassigned client shows the
 * "not found" panel inside the shell; an id that is not one at all is the route's 404.
 */
export const Route = createFileRoute('/_main/clients/$id')({
  notFoundComponent: () => (
    <RecordNotFound thing="client" back={{ to: '/clients', label: 'Back to clients' }} />
  ),
  loader: async ({ context, params }) => {
    ensureValidRoute(isUuid(params.id));
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    // Without the right, the screen shows its no-access state rather than asking the server.
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'clients.view'))
      return;
    try {
      await context.queryClient.ensureQueryData(
        context.trpc.clients.get.queryOptions({ clientId: params.id }),
      );
    } catch (error) {
      if (error instanceof TRPCClientError && error.data?.code === 'NOT_FOUND') throw notFound();
      throw error;
    }
  },
});
