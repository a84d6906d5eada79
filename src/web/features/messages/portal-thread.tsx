import {
  MAX_MESSAGE_LENGTH,
  PORTAL_MESSAGE_UPLOAD_PATH,
  portalMessageAttachmentPath,
} from '@domain/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button, Skeleton, Textarea, toast } from '@web/ui';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { MessageList } from './message-list';
import { PendingFiles } from './pending-files';
import { useAttachments } from './use-attachments';

const POLL_MS = 10_000;

/** One conversation in the portal: the firm's messages (never its notes), a reply with files. */
export function PortalThread({ clientId, threadId }: { clientId: string; threadId: string }) {
  const queryClient = useQueryClient();
  const ref = { clientId, threadId };
  const thread = useQuery(trpc.clientPortalMessages.get.queryOptions(ref));
  const page = useQuery(trpc.clientPortalMessages.messages.queryOptions(ref, { refetchInterval: POLL_MS }));
  const [body, setBody] = useState('');
  const attachments = useAttachments({
    url: `${PORTAL_MESSAGE_UPLOAD_PATH}?${new URLSearchParams(ref)}`,
    staff: false,
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.clientPortalMessages.messages.queryKey(ref) }),
      queryClient.invalidateQueries({ queryKey: trpc.clientPortalMessages.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.clientPortalMessages.unread.queryKey() }),
    ]);
  const markRead = useMutation(
    trpc.clientPortalMessages.markRead.mutationOptions({
      onSuccess: (r) => {
        if (r.changed) {
          void queryClient.invalidateQueries({ queryKey: trpc.clientPortalMessages.list.queryKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.clientPortalMessages.unread.queryKey() });
        }
      },
    }),
  );
  const count = page.data?.messages.length ?? 0;
  // Seeing the messages is reading them (each new page of them moves the mark).
  const mark = markRead.mutate;
  useEffect(() => {
    if (count > 0) mark({ clientId, threadId });
  }, [count, clientId, threadId, mark]);
  const post = useMutation(
    trpc.clientPortalMessages.post.mutationOptions({
      onSuccess: () => {
        setBody('');
        attachments.clear();
        void refresh();
      },
      onError: (e) => toast.error(e.message),
    }),
  );
  const send = () => {
    const text = body.trim();
    if (!text || attachments.busy) return;
    post.mutate({ clientId, threadId, body: text, attachmentIds: attachments.ready });
  };
  if (thread.isError)
    return (
      <p role="alert" className="p-4 text-sm text-muted-fg">
        This conversation does not exist or is not shared with you.
      </p>
    );
  return (
    <section
      aria-label={thread.data ? `Conversation: ${thread.data.subject}` : 'Conversation'}
      className="flex flex-col gap-3"
    >
      <div className="flex items-center gap-2">
        <Link
          to="/clientportal/$clientId/messages"
          params={{ clientId }}
          search={{}}
          className="inline-flex items-center gap-1 rounded px-1 py-1 text-sm text-muted-fg hover:text-fg"
        >
          <ArrowLeft aria-hidden className="size-4" />
          <span>All messages</span>
        </Link>
      </div>
      <h1 className="break-words text-lg font-semibold">{thread.data?.subject ?? ''}</h1>
      {page.data ? (
        <MessageList
          messages={page.data.messages.map((m) => ({ ...m, internal: false }))}
          onOpen={(f) => {
            window.location.assign(portalMessageAttachmentPath(clientId, f.documentId));
          }}
        />
      ) : (
        <Skeleton className="h-40" />
      )}
      <form
        aria-label="Reply"
        className="flex flex-col gap-2 border-t border-border pt-3"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <Textarea
          aria-label="Message"
          placeholder="Write a reply"
          rows={3}
          value={body}
          maxLength={MAX_MESSAGE_LENGTH}
          onChange={(e) => setBody(e.target.value)}
        />
        <div className="flex flex-wrap items-start justify-between gap-2">
          <PendingFiles
            files={attachments.files}
            onAdd={(f) => void attachments.add(f)}
            onRemove={attachments.remove}
          />
          <Button type="submit" disabled={!body.trim() || attachments.busy || post.isPending}>
            Send
          </Button>
        </div>
      </form>
    </section>
  );
}
