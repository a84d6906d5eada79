import { filterMentionable, insertMention, mentionQueryAt } from '@domain/mentions';
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
  useFormat,
} from '@web/ui';
import { AtSign } from 'lucide-react';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useTasksRefresh } from './use-tasks';

/**
 * Comments, newest last, and a box to add one. Typing "@" opens the member picker under the box
 * (filtered as one types; arrows, Enter or Tab to pick, Escape to close); "@ Mention" does the same
 * by mouse. Either writes the member's @name, which is what the server looks for.
 */
export function TaskComments({ taskId, canEdit }: { taskId: string; canEdit: boolean }) {
  const comments = useQuery(trpc.tasks.comments.list.queryOptions({ taskId }));
  const options = useQuery(trpc.tasks.options.queryOptions());
  const refresh = useTasksRefresh();
  const format = useFormat();
  const [body, setBody] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const members = options.data?.members ?? [];
  const listId = useId();
  // The "@" being typed: where it starts and the text after it; null when the picker is closed.
  const [typing, setTyping] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const suggestions = typing ? filterMentionable(members, typing.query) : [];
  const open = suggestions.length > 0;
  const track = (text: string, caret: number) => {
    const next = mentionQueryAt(text, caret);
    setTyping(next);
    if (next?.query !== typing?.query) setActive(0);
  };
  const pick = (name: string) => {
    if (!typing) return;
    const el = box.current;
    const caret = el?.selectionStart ?? body.length;
    const next = insertMention(body, typing.start, caret, name);
    pendingCaret.current = next.caret;
    setBody(next.text);
    setTyping(null);
  };
  // The caret goes after the inserted mention in the same commit as the new text, before the next
  // keystroke is handled: set a frame later, it jumped back over whatever was typed meanwhile.
  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (caret === null || !box.current) return;
    pendingCaret.current = null;
    box.current.focus();
    box.current.setSelectionRange(caret, caret);
  });
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
                  {format.dateTime(c.createdAt)}
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
          <div className="relative">
            <Textarea
              ref={box}
              aria-label="New comment"
              placeholder="Write a comment; @ to mention someone"
              value={body}
              maxLength={5000}
              aria-autocomplete="list"
              // A textbox takes no aria-expanded (ARIA 1.2); the list it controls and the
              // active option are what a screen reader follows.
              aria-controls={open ? listId : undefined}
              aria-activedescendant={open ? `${listId}-${active}` : undefined}
              // The drawer reads this to leave Escape to the picker while it is open.
              data-mention-open={open ? 'true' : undefined}
              onChange={(e) => {
                setBody(e.target.value);
                track(e.target.value, e.target.selectionStart);
              }}
              onSelect={(e) => track(e.currentTarget.value, e.currentTarget.selectionStart)}
              onBlur={() => setTyping(null)}
              onKeyDown={(e) => {
                if (open) {
                  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                    e.preventDefault();
                    const step = e.key === 'ArrowDown' ? 1 : -1;
                    setActive((i) => (i + step + suggestions.length) % suggestions.length);
                    return;
                  }
                  if (e.key === 'Enter' || e.key === 'Tab') {
                    const chosen = suggestions[active];
                    if (chosen) {
                      e.preventDefault();
                      pick(chosen.name);
                      return;
                    }
                  }
                  if (e.key === 'Escape') {
                    e.preventDefault();
                    setTyping(null);
                    return;
                  }
                }
                if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
                  e.preventDefault();
                  submit();
                }
              }}
            />
            {open ? (
              <div
                id={listId}
                role="listbox"
                aria-label="Members to mention"
                className="absolute top-full left-0 z-10 mt-1 max-h-60 w-64 overflow-y-auto rounded-md border border-border bg-surface p-1 shadow-lg"
              >
                {suggestions.map((m, i) => (
                  <div
                    key={m.id}
                    id={`${listId}-${i}`}
                    role="option"
                    tabIndex={-1}
                    aria-selected={i === active}
                    className={`flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm ${
                      i === active ? 'bg-muted' : ''
                    }`}
                    // Before the box's blur: picking must not close the list first.
                    onMouseDown={(e) => {
                      e.preventDefault();
                      pick(m.name);
                    }}
                    onMouseEnter={() => setActive(i)}
                  >
                    <Avatar name={m.name} size="sm" />
                    <span className="truncate">{m.name}</span>
                  </div>
                ))}
              </div>
            ) : null}
          </div>
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
