import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';
import { parseProjectsSearch, projectsListInput } from '../../../features/projects/projects-search';

/** /projects: the list is loaded only for a member who may see it. */
export const Route = createFileRoute('/_main/projects/')({
  validateSearch: parseProjectsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'projects.view'))
      return;
    if (deps.view === 'board') return;
    await context.queryClient.prefetchQuery(context.trpc.projects.list.queryOptions(projectsListInput(deps)));
  },
});
