import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type AppRouter, trpc } from '../../lib/trpc';

type TClientsOutputs = inferRouterOutputs<AppRouter>['clients'];
export type TClientRow = TClientsOutputs['list']['rows'][number];
export type TClientDetail = TClientsOutputs['get'];
export type TClientTeamRow = TClientsOutputs['team']['list'][number];

/** Refreshes every clients query (list, the open client, its team). */
export function useClientsRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.clients.pathKey() });
}
