import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';
import {
  INVITES_PAGE_SIZE,
  membersListInput,
  parseMembersSearch,
} from '../../../features/team/members-search';

/** /team/members: login from the _main layout; the list is loaded only for a member who may see it. */
export const Route = createFileRoute('/_main/team/members')({
  validateSearch: parseMembersSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'team.view')) return;
    await Promise.all([
      context.queryClient.prefetchQuery(context.trpc.team.list.queryOptions(membersListInput(deps))),
      context.queryClient.prefetchQuery(
        context.trpc.team.invites.queryOptions({ page: 1, pageSize: INVITES_PAGE_SIZE }),
      ),
    ]);
  },
});
