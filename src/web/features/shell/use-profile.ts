import { useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../lib/trpc';
import { trpc } from '../../lib/trpc';

export type TProfileView = inferRouterOutputs<AppRouter>['profile']['me'];

/** The signed-in member; the main layout's loader has already fetched it. */
export function useProfile(): TProfileView {
  return useSuspenseQuery(trpc.profile.me.queryOptions()).data;
}
