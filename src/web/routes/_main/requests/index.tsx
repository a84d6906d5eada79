import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';
import { parseRequestsSearch, requestsListInput } from '../../../features/requests/requests-search';

/** /requests: the firm's client requests, loaded only for a member who may see them. */
export const Route = createFileRoute('/_main/requests/')({
  validateSearch: parseRequestsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'requests.view'))
      return;
    await context.queryClient.prefetchQuery(context.trpc.requests.list.queryOptions(requestsListInput(deps)));
  },
});
