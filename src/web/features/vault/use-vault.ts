import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type AppRouter, trpc } from '../../lib/trpc';

type TVaultOutputs = inferRouterOutputs<AppRouter>['vault'];
export type TVaultRow = TVaultOutputs['list']['rows'][number];
export type TVaultDetail = TVaultOutputs['get'];

/** Refreshes every vault query (list, facets, an open entry). */
export function useVaultRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.vault.pathKey() });
}
