import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';
import { clientsListInput, parseClientsSearch } from '../../../features/clients/clients-search';

/** /clients: the list is loaded only for a member who may see it. */
export const Route = createFileRoute('/_main/clients/')({
  validateSearch: parseClientsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'clients.view'))
      return;
    await context.queryClient.prefetchQuery(context.trpc.clients.list.queryOptions(clientsListInput(deps)));
  },
});
