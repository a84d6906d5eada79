import { portalDownloadPath, ZPortalComment } from '@domain/client-portal';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Avatar,
  Badge,
  Button,
  Drawer,
  DrawerContent,
  Skeleton,
  StatusBadge,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { Check, Download, Paperclip } from 'lucide-react';
import { type FormEvent, useCallback, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { PortalUploader } from './portal-uploads';

/**
 * One of the client's tasks: what is asked, the conversation with the firm, files attached, and
 * "Mark as done". A task that is not the client's (or not theirs to see) answers NOT_FOUND: the
 * panel says so instead of showing anything.
 */
export function PortalTaskDrawer({
  clientId,
  taskId,
  onClose,
}: {
  clientId: string;
  taskId: string | undefined;
  onClose: () => void;
}) {
  return (
    <Drawer open={Boolean(taskId)} onOpenChange={(open) => !open && onClose()}>
      {taskId ? <TaskPanel clientId={clientId} taskId={taskId} /> : null}
    </Drawer>
  );
}

function TaskPanel({ clientId, taskId }: { clientId: string; taskId: string }) {
  const queryClient = useQueryClient();
  const format = useFormat();
  const task = useQuery({ ...trpc.clientPortalTasks.get.queryOptions({ clientId, taskId }), retry: false });
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.clientPortalTasks.get.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.clientPortalTasks.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.clientPortalHome.get.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.clientPortalDocuments.folder.queryKey() });
  }, [queryClient]);
  const complete = useMutation(
    trpc.clientPortalTasks.complete.mutationOptions({
      onSuccess: () => {
        toast.success('Marked as done. Thank you!');
        refresh();
      },
    }),
  );
  const t = task.data;
  const done = t?.status === 'COMPLETED';
  return (
    <DrawerContent
      size="lg"
      title={t?.title ?? (task.isError ? 'Task not found' : 'Task')}
      footer={
        t && !done ? (
          <Button
            onClick={() => complete.mutate({ clientId, taskId })}
            disabled={complete.isPending}
            className="w-full sm:w-auto"
          >
            <Check aria-hidden="true" />
            Mark as done
          </Button>
        ) : null
      }
    >
      {task.isError ? (
        <p className="text-muted-fg">This task is not available.</p>
      ) : !t ? (
        <Skeleton className="h-40" />
      ) : (
        <div className="flex flex-col gap-5">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge item={t} />
            <span className="text-muted-fg">
              {t.completedDate
                ? `Done ${format.date(t.completedDate)}`
                : t.dueDate
                  ? `Due ${format.date(t.dueDate)}`
                  : 'No due date'}
            </span>
            {t.tags.map((tag) => (
              <Badge key={tag} tone="grey">
                {tag}
              </Badge>
            ))}
          </div>
          {t.projectName ? <p className="text-muted-fg">Part of {t.projectName}</p> : null}
          {t.description ? <p className="whitespace-pre-wrap">{t.description}</p> : null}

          <section aria-labelledby="portal-task-files" className="flex flex-col gap-2">
            <h3 id="portal-task-files" className="font-semibold">
              Attachments
            </h3>
            {t.attachments.length ? (
              <ul className="divide-y divide-border rounded-md border border-border px-3">
                {t.attachments.map((a) => (
                  <li key={a.id} className="flex items-center gap-2 py-2">
                    <Paperclip aria-hidden="true" className="size-4 shrink-0 text-muted-fg" />
                    <span className="min-w-0 flex-1 truncate">{a.name}</span>
                    <span className="shrink-0 text-xs text-muted-fg">{format.bytes(a.size)}</span>
                    <a
                      href={portalDownloadPath(clientId, a.id)}
                      download
                      aria-label={`Download ${a.name}`}
                      className="grid size-8 place-items-center rounded-md text-muted-fg hover:bg-muted"
                    >
                      <Download aria-hidden="true" className="size-4" />
                    </a>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-muted-fg">No files attached yet.</p>
            )}
            <PortalUploader target={{ clientId, taskId }} label="Attach files" onUploaded={refresh} />
          </section>

          <Conversation clientId={clientId} taskId={taskId} comments={t.comments} onAdded={refresh} />
        </div>
      )}
    </DrawerContent>
  );
}

type TComment = {
  id: string;
  body: string;
  createdAt: Date;
  authorName: string;
  fromClient: boolean;
  mine: boolean;
};

function Conversation({
  clientId,
  taskId,
  comments,
  onAdded,
}: {
  clientId: string;
  taskId: string;
  comments: TComment[];
  onAdded: () => void;
}) {
  const format = useFormat();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useMutation(
    trpc.clientPortalTasks.comment.mutationOptions({
      onSuccess: () => {
        setBody('');
        onAdded();
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = ZPortalComment.safeParse({ taskId, body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the comment');
      return;
    }
    setError(null);
    add.mutate({ clientId, ...parsed.data });
  };
  return (
    <section aria-labelledby="portal-task-comments" className="flex flex-col gap-3">
      <h3 id="portal-task-comments" className="font-semibold">
        Comments
      </h3>
      {comments.length ? (
        <ul className="flex flex-col gap-3">
          {comments.map((c) => (
            <li key={c.id} className="flex gap-2">
              <Avatar name={c.authorName} size="sm" />
              <div className="min-w-0 flex-1 rounded-md bg-muted px-3 py-2">
                <p className="text-xs text-muted-fg">
                  <span className="font-medium text-fg">{c.mine ? 'You' : c.authorName}</span> ·{' '}
                  {format.dateTime(c.createdAt)}
                </p>
                <p className="mt-1 whitespace-pre-wrap break-words">{c.body}</p>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted-fg">No comments yet. Ask your firm anything about this task.</p>
      )}
      <form onSubmit={submit} className="flex flex-col gap-2">
        <label htmlFor="portal-comment" className="sr-only">
          Write a comment
        </label>
        <Textarea
          id="portal-comment"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          placeholder="Write a comment…"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'portal-comment-error' : undefined}
        />
        {error ? (
          <p id="portal-comment-error" className="text-xs text-danger">
            {error}
          </p>
        ) : null}
        <Button type="submit" variant="outline" disabled={add.isPending} className="self-end">
          Send
        </Button>
      </form>
    </section>
  );
}
