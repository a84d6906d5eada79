import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@web/ui';
import { FolderInput } from 'lucide-react';
import { useState } from 'react';
import { trpc, trpcClient } from '../../lib/trpc';
import { MoveDialog } from '../documents/move-dialog';
import { SendRequestDialog } from '../requests/send-request-dialog';
import type { TShownMessage } from './message-list';

const linkClass = 'text-xs text-muted-fg underline-offset-2 hover:text-fg hover:underline';

/** "Save to folder" on a message's file: a copy of it in a folder of the client's documents. */
export function SaveFileButton({
  clientId,
  file,
}: {
  clientId: string;
  file: { documentId: string; name: string };
}) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.messages.saveAttachment.mutationOptions({
      onSuccess: (saved) => {
        setOpen(false);
        toast.success(
          saved.version > 1
            ? `Saved as version ${saved.version} of “${saved.name}”`
            : `Saved “${saved.name}”`,
        );
        void queryClient.invalidateQueries({ queryKey: trpc.documents.pathKey() });
      },
      onError: (e) => toast.error(e.message),
    }),
  );
  return (
    <>
      <button
        type="button"
        className={`${linkClass} inline-flex items-center gap-1`}
        onClick={() => setOpen(true)}
      >
        <FolderInput aria-hidden className="size-3" />
        <span>
          Save <span className="sr-only">{file.name} </span>to folder
        </span>
      </button>
      <MoveDialog
        open={open}
        onOpenChange={setOpen}
        clientId={clientId}
        itemName={file.name}
        shared={false}
        currentFolderId=""
        pending={save.isPending}
        onMove={(folderId) => save.mutate({ documentId: file.documentId, folderId })}
        wording={{
          title: `Save ${file.name} to a folder`,
          description:
            'A copy goes into the folder you choose; the message keeps its own. A file of the same name there gets a new version.',
          action: 'Save here',
        }}
      />
    </>
  );
}

/**
 * "Start a request" from a message: the client request dialog, its title from the thread and its
 * message the message's text; once made, a note in the thread links to it.
 */
export function StartRequestButton({
  thread,
  message,
}: {
  thread: { id: string; subject: string; clientId: string };
  message: TShownMessage;
}) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  return (
    <>
      <button type="button" className={linkClass} onClick={() => setOpen(true)}>
        Start a request
      </button>
      <SendRequestDialog
        clientId={thread.clientId}
        open={open}
        onOpenChange={setOpen}
        prefill={{ title: thread.subject.slice(0, 200), message: message.body.slice(0, 4000) }}
        onCreated={async (request) => {
          await trpcClient.messages.post.mutate({
            threadId: thread.id,
            internal: true,
            body: `Started a request from ${message.authorName}’s message: “${request.title}” (/requests/${request.id})`,
          });
          void queryClient.invalidateQueries({
            queryKey: trpc.messages.messages.queryKey({ threadId: thread.id }),
          });
        }}
      />
    </>
  );
}
