import { mentionToken } from '@domain/tasks';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Avatar,
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
  Skeleton,
  Textarea,
} from '@web/ui';
import { AtSign } from 'lucide-react';
import { useRef, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useTasksRefresh } from './use-tasks';

/** Comments, newest last, and a box to add one; "@ Mention" inserts a member's @name. */
export function TaskComments({ taskId, canEdit }: { taskId: string; canEdit: boolean }) {
  const comments = useQuery(trpc.tasks.comments.list.queryOptions({ taskId }));
  const options = useQuery(trpc.tasks.options.queryOptions());
  const refresh = useTasksRefresh();
  const [body, setBody] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const members = options.data?.members ?? [];
  const add = useMutation(
    trpc.tasks.comments.add.mutationOptions({
      onSuccess: async () => {
        setBody('');
        await refresh();
      },
    }),
  );
  const mention = (name: string) => {
    const token = `${mentionToken(name)} `;
    const el = box.current;
    const at = el?.selectionStart ?? body.length;
    // Typing "@" and then picking replaces that "@".
    const before = body.slice(0, at).replace(/@$/, '');
    const next = `${before}${before && !before.endsWith(' ') ? ' ' : ''}${token}${body.slice(at)}`;
    setBody(next);
    requestAnimationFrame(() => el?.focus());
  };
  const submit = () => {
    const text = body.trim();
    if (!text) return;
    // Every member whose @name is in the text; the server checks again.
    const mentions = members.filter((m) => text.includes(mentionToken(m.name))).map((m) => m.id);
    add.mutate({ taskId, body: text, mentions });
  };
  return (
    <section aria-labelledby="task-comments-title" className="flex flex-col gap-3">
      <h3 id="task-comments-title" className="text-sm font-semibold">
        Comments
      </h3>
      {comments.isPending ? (
        <Skeleton className="h-12" />
      ) : comments.data?.length ? (
        <ol className="flex flex-col gap-3" aria-label="Comments">
          {comments.data.map((c) => (
            <li key={c.id} className="flex gap-2">
              <Avatar name={c.authorName ?? 'Someone'} size="sm" />
              <div className="min-w-0 flex-1">
                <p className="text-xs text-muted-fg">
                  <span className="font-medium text-fg">{c.authorName ?? 'Someone'}</span>{' '}
                  {c.createdAt.toLocaleString()}
                </p>
                <p className="whitespace-pre-wrap break-words text-sm">{c.body}</p>
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-xs text-muted-fg">No comments yet.</p>
      )}
      {canEdit ? (
        <div className="flex flex-col gap-2">
          <Textarea
            ref={box}
            aria-label="New comment"
            placeholder="Write a comment; @ to mention someone"
            value={body}
            maxLength={5000}
            onChange={(e) => setBody(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
                e.preventDefault();
                submit();
              }
            }}
          />
          <div className="flex items-center justify-between gap-2">
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="outline" size="sm">
                  <AtSign aria-hidden />
                  Mention
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="start" className="max-h-72 overflow-y-auto">
                <DropdownMenuLabel>Mention a member</DropdownMenuLabel>
                {members.map((m) => (
                  <DropdownMenuItem key={m.id} onSelect={() => mention(m.name)}>
                    {m.name}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
            <Button size="sm" onClick={submit} disabled={!body.trim() || add.isPending}>
              Comment
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
