import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';

/** /admin/settings/api: no route guard beyond login; the screen shows "no access". */
export const Route = createFileRoute('/_main/admin/settings/api')({
  loader: async ({ context: { queryClient, trpc } }) => {
    const me = await queryClient.ensureQueryData(trpc.profile.me.queryOptions());
    if (hasPermission(me, 'settings.edit'))
      await queryClient.ensureQueryData(trpc.apiKeys.list.queryOptions());
  },
});
