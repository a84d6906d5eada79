import { createFileRoute, redirect } from '@tanstack/react-router';
import { guard } from '../../../lib/route-guard';

/** /clientportal: the clients this person may act for; with exactly one, straight to it. */
export const Route = createFileRoute('/_auth/clientportal/')({
  beforeLoad: ({ location }) => guard(location, { isPublic: false }),
  loader: async ({ context }) => {
    const me = await context.queryClient.ensureQueryData(context.trpc.clientPortalProfile.me.queryOptions());
    const [only] = me.clients;
    if (only && me.clients.length === 1) {
      throw redirect({ to: '/clientportal/$clientId', params: { clientId: only.id }, replace: true });
    }
  },
});
