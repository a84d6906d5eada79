import { hasPermission, type TPermission } from '@domain/permissions';
import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type AppRouter, trpc } from '../../lib/trpc';
import { useProfile } from '../shell/use-profile';

type TTeamOutputs = inferRouterOutputs<AppRouter>['team'];
export type TMemberRow = TTeamOutputs['list']['rows'][number];
export type TInviteRow = TTeamOutputs['invites']['rows'][number];

/** What the signed-in member may do: the web app hides the rest, the server refuses it anyway. */
export function useCan() {
  const profile = useProfile();
  return (permission: TPermission) =>
    hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, permission);
}

/** Refreshes the team's lists (and the profile, whose owner flag a transfer changes). */
export function useTeamRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() }),
    ]);
}
