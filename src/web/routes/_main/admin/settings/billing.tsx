import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';

/** /admin/settings/billing: no route guard beyond login (SPEC.md §2); the screen shows "no access". */
export const Route = createFileRoute('/_main/admin/settings/billing')({
  loader: async ({ context: { queryClient, trpc } }) => {
    const me = await queryClient.ensureQueryData(trpc.profile.me.queryOptions());
    if (hasPermission(me, 'settings.billing'))
      await queryClient.ensureQueryData(trpc.billing.settings.get.queryOptions());
  },
});
