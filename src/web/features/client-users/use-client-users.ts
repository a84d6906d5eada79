import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type AppRouter, trpc } from '../../lib/trpc';

export type TClientUserRow = inferRouterOutputs<AppRouter>['clientUsers']['list']['rows'][number];

/** Refreshes the portal users lists after a change. */
export function useClientUsersRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.clientUsers.pathKey() });
}
