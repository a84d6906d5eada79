import { Avatar, Badge, cn, useFormat } from '@web/ui';
import { Download, Lock } from 'lucide-react';
import type { ReactNode } from 'react';

export type TShownMessage = {
  id: string;
  body: string;
  createdAt: Date | string;
  authorName: string;
  fromClient: boolean;
  internal?: boolean;
  /** Written by the person looking (their bubble sits on the right). */
  mine: boolean;
  attachments: { documentId: string; name: string; size: number }[];
};

/**
 * A thread's messages, oldest first: the client's on the left, the firm's on the right; an internal
 * note marked as such (the firm's screens only). Files open through `onOpen` (a signed link for
 * staff, the portal's own route for the client).
 */
export function MessageList({
  messages,
  onOpen,
  action,
}: {
  messages: TShownMessage[];
  onOpen: (file: { documentId: string; name: string }) => void;
  /** A button under each message (the firm's "Make a task"). */
  action?: (m: TShownMessage) => ReactNode;
}) {
  const format = useFormat();
  return (
    <ol aria-label="Messages" className="flex flex-col gap-3">
      {messages.map((m) => (
        <li key={m.id} className={cn('flex gap-2', m.mine && 'flex-row-reverse')}>
          <Avatar name={m.authorName} size="sm" />
          <div
            className={cn(
              'min-w-0 max-w-[85%] rounded-lg border px-3 py-2',
              m.internal
                ? 'border-amber-300 bg-amber-50 dark:border-amber-700 dark:bg-amber-950/40'
                : m.mine
                  ? 'border-primary/30 bg-primary/10'
                  : 'border-border bg-surface',
            )}
          >
            <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-fg">
              <span className="font-medium text-fg">{m.authorName}</span>
              {m.fromClient ? <Badge tone="blue">Client</Badge> : null}
              {m.internal ? (
                <Badge tone="yellow">
                  <Lock aria-hidden className="size-3" /> Internal note
                </Badge>
              ) : null}
              <span>{format.dateTime(m.createdAt)}</span>
            </p>
            <p className="whitespace-pre-wrap break-words text-sm">{m.body}</p>
            {m.attachments.length ? (
              <ul aria-label="Attachments" className="mt-2 flex flex-wrap gap-2">
                {m.attachments.map((a) => (
                  <li key={a.documentId}>
                    <button
                      type="button"
                      onClick={() => onOpen(a)}
                      className="inline-flex max-w-full items-center gap-1 rounded border border-border bg-bg px-2 py-1 text-xs hover:bg-muted"
                    >
                      <Download aria-hidden className="size-3 shrink-0" />
                      <span className="truncate">{a.name}</span>
                      <span className="shrink-0 text-muted-fg">{format.bytes(a.size)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            {action ? <div className="mt-1 flex justify-end">{action(m)}</div> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
