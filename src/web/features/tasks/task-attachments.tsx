import { TASK_ATTACHMENTS_FOLDER } from '@domain/tasks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogContent,
  IconButton,
  Input,
  Skeleton,
  Spinner,
  toast,
  useFormat,
} from '@web/ui';
import { Download, FileText, Paperclip, Upload, X } from 'lucide-react';
import { type DragEvent, useCallback, useRef, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { saveFile } from '../documents/file-transfer';
import { PortalBadge } from '../documents/portal-state';
import { UploadList } from '../documents/upload-list';
import { useUploads } from '../documents/use-uploads';
import { useCan } from '../shell/access';

/**
 * The task's files. Uploads become documents in an "Attachments" folder of the task's client (of the
 * firm vault for an internal task); an existing file of that client can be attached too. Removing
 * an attachment only unlinks it: the file stays in the documents.
 */
export function TaskAttachments({
  taskId,
  clientName,
  canEdit,
}: {
  taskId: string;
  clientName: string | null;
  canEdit: boolean;
}) {
  const canUpload = useCan('documents.create') && canEdit;
  const canPick = useCan('documents.view') && canEdit;
  const canDownload = useCan('documents.view');
  const format = useFormat();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tasks.attachments.list.queryOptions({ taskId }));
  const limits = useQuery({ ...trpc.documents.limits.queryOptions(), enabled: canUpload });
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: trpc.tasks.attachments.pathKey() }),
    [queryClient],
  );
  const uploads = useUploads({ maxBytes: limits.data?.maxBytes, onUploaded: refresh });
  const detach = useMutation(
    trpc.tasks.attachments.detach.mutationOptions({
      onSuccess: async () => {
        toast.success('Attachment removed (the file stays in the documents)');
        await refresh();
      },
      onError: (e) => toast.error(e.message),
    }),
  );
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [picking, setPicking] = useState(false);
  const addFiles = (files: FileList | File[] | null) => {
    const chosen = Array.from(files ?? []);
    if (chosen.length && canUpload) uploads.add(chosen, { taskId });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };
  const where = `${clientName ? `${clientName}'s documents` : 'the firm vault'}, folder “${TASK_ATTACHMENTS_FOLDER}”`;

  return (
    <section
      aria-labelledby="task-attachments-title"
      className={`flex flex-col gap-3 rounded-md ${dragging ? 'outline-2 outline-primary outline-dashed' : ''}`}
      onDragOver={(e) => {
        if (!canUpload) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="task-attachments-title" className="text-sm font-semibold">
          Attachments
        </h3>
        <div className="flex gap-2">
          {canPick ? (
            <Button variant="outline" size="sm" onClick={() => setPicking(true)}>
              <Paperclip aria-hidden />
              Attach existing
            </Button>
          ) : null}
          {canUpload ? (
            <Button variant="outline" size="sm" onClick={() => input.current?.click()}>
              <Upload aria-hidden />
              Upload files
            </Button>
          ) : null}
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label="Files to attach"
            onChange={(e) => {
              addFiles(e.target.files);
              e.target.value = '';
            }}
          />
        </div>
      </div>
      {list.isPending ? (
        <Skeleton className="h-10" />
      ) : list.isError ? (
        <p className="text-xs text-danger">The attachments could not be loaded: {list.error.message}</p>
      ) : list.data.length ? (
        <ul
          aria-label="Attachments"
          className="flex flex-col divide-y divide-border rounded-md border border-border"
        >
          {list.data.map((a) => (
            <li key={a.documentId} className="flex items-center gap-3 px-3 py-2 text-sm">
              <FileText aria-hidden className="size-4 shrink-0 text-muted-fg" />
              <div className="min-w-0 flex-1">
                <p className="flex min-w-0 items-center gap-2">
                  <span className="truncate font-medium">{a.name}</span>
                  {/* A client's to-do: whether the client sees the file with it in the portal. */}
                  {a.portal ? <PortalBadge state={a.portal} hiddenBy={[]} /> : null}
                </p>
                <p className="text-xs text-muted-fg">
                  {format.bytes(a.size)} · {a.attachedBy ?? 'Someone'} · {format.date(a.attachedAt)}
                </p>
              </div>
              {canDownload ? (
                <IconButton
                  aria-label={`Download ${a.name}`}
                  size="sm"
                  onClick={() =>
                    saveFile(`/api/documents/${a.documentId}/download`, a.name).catch((e: Error) =>
                      toast.error(e.message),
                    )
                  }
                >
                  <Download aria-hidden />
                </IconButton>
              ) : null}
              {canEdit ? (
                <IconButton
                  aria-label={`Remove the attachment ${a.name}`}
                  size="sm"
                  disabled={detach.isPending}
                  onClick={() => detach.mutate({ taskId, documentId: a.documentId })}
                >
                  <X aria-hidden />
                </IconButton>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-muted-fg">
          No attachments yet.{canUpload ? ` Drop files here or upload them; they are saved in ${where}.` : ''}
        </p>
      )}
      <UploadList
        uploads={uploads.uploads}
        onCancel={uploads.cancel}
        onRetry={uploads.retry}
        onClear={uploads.clearFinished}
      />
      {canPick ? (
        <AttachExistingDialog taskId={taskId} open={picking} onOpenChange={setPicking} onAttached={refresh} />
      ) : null}
    </section>
  );
}

function AttachExistingDialog({
  taskId,
  open,
  onOpenChange,
  onAttached,
}: {
  taskId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAttached: () => Promise<unknown>;
}) {
  const format = useFormat();
  const [search, setSearch] = useState('');
  const candidates = useQuery({
    ...trpc.tasks.attachments.candidates.queryOptions({ taskId, search }),
    enabled: open,
    placeholderData: (previous) => previous,
  });
  const attach = useMutation(
    trpc.tasks.attachments.attach.mutationOptions({
      onSuccess: async () => {
        toast.success('File attached');
        await onAttached();
      },
      onError: (e) => toast.error(e.message),
    }),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Attach an existing file"
        description="Files of this task's client (or of the firm vault)."
      >
        <div className="flex flex-col gap-3">
          <Input
            aria-label="Search files"
            placeholder="Search by name"
            value={search}
            maxLength={200}
            onChange={(e) => setSearch(e.target.value)}
          />
          {candidates.isPending ? (
            <div className="grid place-items-center p-6">
              <Spinner />
            </div>
          ) : candidates.isError ? (
            <p className="text-xs text-danger">{candidates.error.message}</p>
          ) : candidates.data.length ? (
            <ul
              aria-label="Files"
              className="flex flex-col divide-y divide-border rounded-md border border-border"
            >
              {candidates.data.map((c) => (
                <li key={c.documentId} className="flex items-center gap-3 px-3 py-2">
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">{c.name}</p>
                    <p className="text-xs text-muted-fg">
                      {c.folderName} · {format.bytes(c.size)}
                    </p>
                  </div>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Attach ${c.name}`}
                    disabled={attach.isPending}
                    onClick={() => attach.mutate({ taskId, documentId: c.documentId })}
                  >
                    Attach
                  </Button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-muted-fg">
              {search
                ? 'No file matches this search.'
                : 'No files to attach: every file is attached already, or there are none.'}
            </p>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
