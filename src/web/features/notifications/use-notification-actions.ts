import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';

/** Mark read / mark all read; both refresh the list and the bell's count. */
export function useNotificationActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.notifications.pathKey() });
  const markRead = useMutation(trpc.notifications.markRead.mutationOptions({ onSuccess: refresh }));
  const markAllRead = useMutation(trpc.notifications.markAllRead.mutationOptions({ onSuccess: refresh }));
  return { markRead, markAllRead };
}
