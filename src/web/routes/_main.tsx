import { createFileRoute } from '@tanstack/react-router';
import { guard } from '../lib/route-guard';

/** The staff main layout: login required. Its component is in _main.lazy.tsx (a separate chunk). */
export const Route = createFileRoute('/_main')({
  beforeLoad: ({ location }) => guard(location, { isPublic: false }),
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions()),
});
