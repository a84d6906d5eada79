import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';

/** /admin/settings/org: no route guard beyond login (SPEC.md §2); the screen shows "no access". */
export const Route = createFileRoute('/_main/admin/settings/org')({
  loader: async ({ context: { queryClient, trpc } }) => {
    const me = await queryClient.ensureQueryData(trpc.profile.me.queryOptions());
    if (hasPermission(me, 'settings.view'))
      await queryClient.ensureQueryData(trpc.settings.get.queryOptions());
  },
});
