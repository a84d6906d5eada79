import { createFileRoute } from '@tanstack/react-router';
import { MainLayout } from '../features/shell/main-layout';
import { guard } from '../lib/route-guard';

/** The staff main layout: login required. */
export const Route = createFileRoute('/_main')({
  beforeLoad: ({ location }) => guard(location, { isPublic: false }),
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions()),
  component: MainLayout,
});
