import { SIGN_INS_PAGE_SIZE } from '@domain/security-constants';
import { createFileRoute } from '@tanstack/react-router';

/** /my-account/security: the member's devices, recent sign-ins, signing out everywhere, leaving. */
export const Route = createFileRoute('/_main/my-account/security')({
  loader: ({ context: { queryClient, trpc } }) =>
    queryClient.ensureQueryData(
      trpc.security.signIns.queryOptions({ page: 1, pageSize: SIGN_INS_PAGE_SIZE }),
    ),
});
