import { createFileRoute } from '@tanstack/react-router';

/** / : the home dashboard. Its numbers start loading with the route; the page shows a skeleton meanwhile. */
export const Route = createFileRoute('/_main/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.trpc.dashboard.summary.queryOptions());
  },
});
