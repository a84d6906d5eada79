import { filterMentionable, insertMention, mentionQueryAt } from '@domain/mentions';
import { MAX_MESSAGE_LENGTH, MESSAGE_UPLOAD_PATH } from '@domain/messages';
import { useMutation } from '@tanstack/react-query';
import { Button, Switch, Textarea, toast } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { PendingFiles } from './pending-files';
import { useAttachments } from './use-attachments';

/**
 * A member's reply or internal note. "@" then a name mentions a member (the picker under the box);
 * only mentions still in the text count, and the server checks again. Files upload as they are
 * picked and go with the message.
 */
export function StaffComposer({
  threadId,
  members,
  onSent,
}: {
  threadId: string;
  members: { id: string; name: string }[];
  onSent: () => void;
}) {
  const [body, setBody] = useState('');
  const [internal, setInternal] = useState(false);
  const [typing, setTyping] = useState<{ start: number; query: string } | null>(null);
  const attachments = useAttachments({
    url: `${MESSAGE_UPLOAD_PATH}?threadId=${encodeURIComponent(threadId)}`,
    staff: true,
  });
  const suggestions = typing ? filterMentionable(members, typing.query).slice(0, 6) : [];
  const post = useMutation(
    trpc.messages.post.mutationOptions({
      onSuccess: () => {
        setBody('');
        attachments.clear();
        onSent();
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  const send = () => {
    const text = body.trim();
    if (!text || attachments.busy) return;
    const mentions = members.filter((m) => text.includes(`@${m.name}`)).map((m) => m.id);
    post.mutate({ threadId, body: text, internal, mentions, attachmentIds: attachments.ready });
  };
  return (
    <form
      aria-label={internal ? 'Internal note' : 'Reply'}
      className="flex flex-col gap-2 border-t border-border pt-3"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <div className="relative">
        <Textarea
          aria-label={internal ? 'Internal note' : 'Message'}
          placeholder={internal ? 'A note for the firm only; @ to mention someone' : 'Write to the client'}
          value={body}
          rows={3}
          maxLength={MAX_MESSAGE_LENGTH}
          className={internal ? 'bg-amber-50 dark:bg-amber-950/30' : undefined}
          onChange={(e) => {
            setBody(e.target.value);
            setTyping(mentionQueryAt(e.target.value, e.target.selectionStart));
          }}
          onBlur={() => setTyping(null)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              send();
            }
            if (e.key === 'Escape') setTyping(null);
          }}
        />
        {suggestions.length ? (
          <div
            role="listbox"
            aria-label="Members to mention"
            className="absolute top-full left-0 z-10 mt-1 w-64 rounded-md border border-border bg-surface p-1 shadow-lg"
          >
            {suggestions.map((m) => (
              <div
                key={m.id}
                role="option"
                tabIndex={-1}
                aria-selected={false}
                className="cursor-pointer rounded px-2 py-1.5 text-sm hover:bg-muted"
                onMouseDown={(e) => {
                  e.preventDefault();
                  if (!typing) return;
                  const next = insertMention(
                    body,
                    typing.start,
                    typing.start + 1 + typing.query.length,
                    m.name,
                  );
                  setBody(next.text);
                  setTyping(null);
                }}
              >
                {m.name}
              </div>
            ))}
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <PendingFiles
          files={attachments.files}
          onAdd={(f) => void attachments.add(f)}
          onRemove={attachments.remove}
        />
        <div className="flex items-center gap-3">
          <Switch label="Internal note" checked={internal} onCheckedChange={setInternal} />
          <Button type="submit" size="sm" disabled={!body.trim() || attachments.busy || post.isPending}>
            {internal ? 'Add note' : 'Send'}
          </Button>
        </div>
      </div>
    </form>
  );
}
