import { createFileRoute, redirect } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { guard } from '../../lib/route-guard';

/** Login required; a member who already has a firm goes home. */
export const Route = createFileRoute('/_auth/onboarding')({
  beforeLoad: async ({ location, context }) => {
    guard(location, { isPublic: false });
    const hasFirm = await context.queryClient
      .fetchQuery(context.trpc.profile.me.queryOptions())
      .then(() => true)
      .catch((error: unknown) => {
        if (error instanceof TRPCClientError && error.data?.code === 'PRECONDITION_FAILED') return false;
        throw error;
      });
    if (hasFirm) throw redirect({ to: '/' });
  },
});
