import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';
import { parseTasksSearch, tasksListInput } from '../../../features/tasks/tasks-search';

/** /tasks: the list is loaded only for a member who may see it. */
export const Route = createFileRoute('/_main/tasks/')({
  validateSearch: parseTasksSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'tasks.view')) return;
    if (deps.layout !== 'board') {
      await context.queryClient.prefetchQuery(context.trpc.tasks.list.queryOptions(tasksListInput(deps, {})));
    }
  },
});
