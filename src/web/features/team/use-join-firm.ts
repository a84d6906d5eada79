import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { toast } from '@web/ui';
import { trpc } from '../../lib/trpc';

/**
 * Joins the firm an invitation is from, as the signed-in person, and opens the app. Used by the
 * invitation's "Join" button and by the sign-up that came from the invitation, which joins at once.
 * A refusal shows its toast (the call's error link) and leaves the caller where it is.
 */
export function useJoinFirm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.invites.accept.mutationOptions({
      onSuccess: async (joined) => {
        // Nothing cached before joining (no firm, no profile) may outlive it.
        queryClient.clear();
        toast.success(`Welcome to ${joined.firmName}`);
        await navigate({ to: '/' });
      },
    }),
  );
}
