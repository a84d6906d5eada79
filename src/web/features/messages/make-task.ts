import { threadLink } from '@domain/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@web/ui';
import { trpc, trpcClient } from '../../lib/trpc';
import type { TShownMessage } from './message-list';

/**
 * "Make a task" on a message: a task of the thread's client whose description quotes the message and
 * links to the thread, and an internal note in the thread that links to the task (both ways).
 */
export function useMakeTask(thread: { id: string; subject: string; clientId: string | null }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (m: TShownMessage) => {
      const firstLine = m.body.split('\n').find((l) => l.trim()) ?? thread.subject;
      const title = `${thread.subject}: ${firstLine}`.slice(0, 300);
      const link = thread.clientId ? threadLink(thread.id, thread.clientId) : '';
      const description =
        `From the conversation “${thread.subject}” (${link}), ${m.authorName} wrote:\n\n${m.body}`.slice(
          0,
          10_000,
        );
      const task = await trpcClient.tasks.create.mutate({ title, description, clientId: thread.clientId });
      await trpcClient.messages.post.mutate({
        threadId: thread.id,
        internal: true,
        body: `Made a task from ${m.authorName}’s message: “${title}” (/tasks?task=${task.id})`,
      });
      return task;
    },
    onSuccess: () => {
      toast.success('Task made, and noted in the conversation');
      void queryClient.invalidateQueries({
        queryKey: trpc.messages.messages.queryKey({ threadId: thread.id }),
      });
    },
    onError: (e) => toast.error(e.message),
  });
}
