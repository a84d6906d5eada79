import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, guard, isUuid } from '../../lib/route-guard';

/**
 * The clientportal layout for one client (login required). A client this person may not act for is
 * not in the server's answer: the route is not valid, a 404 "Page Not Found". Checked before the
 * screens below load, so they never ask the server about a client that is not theirs.
 */
export const Route = createFileRoute('/clientportal/$clientId')({
  beforeLoad: async ({ location, params, context }) => {
    guard(location, { isPublic: false });
    ensureValidRoute(isUuid(params.clientId));
    const me = await context.queryClient.ensureQueryData(context.trpc.clientPortalProfile.me.queryOptions());
    ensureValidRoute(me.clients.some((c) => c.id === params.clientId));
  },
});
