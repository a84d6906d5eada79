import { hasPermission } from '@domain/permissions';
import { isReminderType } from '@domain/reminders-constants';
import { createFileRoute } from '@tanstack/react-router';
import { parseRemindersSearch, remindersListInput } from '../../../features/reminders/reminders-search';
import { ensureValidRoute } from '../../../lib/route-guard';

/** /reminders/{type}: client, team or expiry; any other type is the route-validity 404. */
export const Route = createFileRoute('/_main/reminders/$type')({
  beforeLoad: ({ params }) => ensureValidRoute(isReminderType(params.type)),
  validateSearch: parseRemindersSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, params, deps }) => {
    if (!isReminderType(params.type)) return;
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'reminders.view'))
      return;
    await context.queryClient.prefetchQuery(
      context.trpc.reminders.list.queryOptions(remindersListInput(params.type, deps)),
    );
  },
});
