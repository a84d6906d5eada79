import { createFileRoute, redirect } from '@tanstack/react-router';
import { guard } from '../../lib/route-guard';

/** Login required; a member who already has a firm goes home. */
export const Route = createFileRoute('/_auth/onboarding')({
  beforeLoad: async ({ location, context }) => {
    guard(location, { isPublic: false });
    const { hasFirm } = await context.queryClient.fetchQuery(context.trpc.onboarding.status.queryOptions());
    if (hasFirm) throw redirect({ to: '/' });
  },
});
