import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@web/ui';
import { trpc } from '../../lib/trpc';

/** Refreshes every projects query (lists, boards, a detail) after a change. */
export function useProjectsRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.projects.pathKey() });
}

export function useSetProjectStatus() {
  const refresh = useProjectsRefresh();
  return useMutation(
    trpc.projects.setStatus.mutationOptions({
      onSuccess: async () => {
        toast.success('Status changed');
        await refresh();
      },
    }),
  );
}
