import { createFileRoute } from '@tanstack/react-router';

/** /team/leaves: the requests waiting for the caller's decision; the screen loads its own lists. */
export const Route = createFileRoute('/_main/team/leaves')({
  loader: ({ context: { queryClient, trpc } }) =>
    queryClient.prefetchQuery(trpc.leave.requests.team.queryOptions({ status: 'pending' })),
});
