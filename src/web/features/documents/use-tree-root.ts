import { type MutationState, useMutation, useMutationState } from '@tanstack/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { useEffect } from 'react';
import { type AppRouter, retryTransient, trpc } from '../../lib/trpc';

type TTreeRef = inferRouterInputs<AppRouter>['documents']['open'];
type TTreeRoot = inferRouterOutputs<AppRouter>['documents']['open'];

/**
 * The top folder of a tree (a client's, or the firm vault's when `clientId` is null), for the
 * screen that opens the tree at its top.
 *
 * `documents.open` makes that folder the first time anyone opens the tree (with the firm's default
 * folders for a client) and logs it, so it is a mutation, run because the person opened the tree:
 * never by a hover's preload or a background refetch. It is idempotent, so a dropped connection is
 * retried as a query would be. Its answer stays in the mutation cache (five minutes once no screen
 * shows it), so coming back to the top of the same tree shows it at once without calling again;
 * with `enabled` false (a screen inside the tree) it is that remembered answer, if any.
 */
export function useTreeRoot(clientId: string | null, { enabled }: { enabled: boolean }) {
  const { mutate } = useMutation(trpc.documents.open.mutationOptions({ retry: retryTransient }));
  const answered = useMutationState<MutationState<TTreeRoot, unknown, TTreeRef>>({
    filters: { mutationKey: trpc.documents.open.mutationKey(), status: 'success' },
    select: (mutation) => mutation.state,
  });
  const root = answered.findLast((state) => state.variables?.clientId === clientId)?.data;
  const known = Boolean(root);
  useEffect(() => {
    if (enabled && !known) mutate({ clientId });
  }, [enabled, known, clientId, mutate]);
  return root;
}
