import { createFileRoute } from '@tanstack/react-router';

/** /my-account/leaves: the member's balances, apply form and history. */
export const Route = createFileRoute('/_main/my-account/leaves')({
  loader: ({ context: { queryClient, trpc } }) =>
    queryClient.ensureQueryData(trpc.leave.requests.mine.queryOptions({ year: new Date().getFullYear() })),
});
