import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../lib/trpc';
import { trpc } from '../../lib/trpc';

export type TDashboard = inferRouterOutputs<AppRouter>['dashboard']['summary'];

export function useDashboard() {
  // Counts age quickly while people work in other tabs: refresh when the member comes back.
  return useQuery({ ...trpc.dashboard.summary.queryOptions(), refetchOnWindowFocus: true });
}
