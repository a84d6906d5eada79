import { isPreviewable } from '@domain/documents';
import { LEAVE_ATTACHMENT_MAX_BYTES, LEAVE_ATTACHMENT_UPLOAD_PATH, leaveAttachmentUrl } from '@domain/leave';
import { Button, Field, IconButton, Spinner, toast, useFormat } from '@web/ui';
import { Download, Eye, Paperclip, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';
import { saveFile, signedLink } from '../documents/file-transfer';

export type TLeaveAttachment = { id: string; name: string; size: number; contentType: string };

async function uploadAttachment(file: File): Promise<TLeaveAttachment> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch(LEAVE_ATTACHMENT_UPLOAD_PATH, {
    method: 'POST',
    headers: await staffAuthHeaders(),
    body: form,
  });
  const body = (await res.json().catch(() => null)) as (TLeaveAttachment & { message?: string }) | null;
  if (!res.ok || !body?.id) throw new Error(body?.message ?? 'The upload failed. Please try again.');
  return body;
}

/**
 * The apply form's file: uploaded as soon as it is chosen (so a refused file is known before the
 * request is sent), then named by the request on submit.
 */
export function AttachmentField({
  value,
  onChange,
  required,
  hint,
  error,
}: {
  value: TLeaveAttachment | null;
  onChange: (value: TLeaveAttachment | null) => void;
  required: boolean;
  hint: string;
  error?: string;
}) {
  const format = useFormat();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > LEAVE_ATTACHMENT_MAX_BYTES) {
      toast.error(`The file is larger than the limit of ${format.bytes(LEAVE_ATTACHMENT_MAX_BYTES)}`);
      return;
    }
    setBusy(true);
    try {
      onChange(await uploadAttachment(file));
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Network Error');
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <Field label="Attachment" required={required} hint={hint} error={error}>
        <input
          ref={input}
          type="file"
          disabled={busy}
          className="block w-full text-sm text-muted-fg file:mr-3 file:rounded-md file:border file:border-border file:bg-surface file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-fg hover:file:bg-muted"
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </Field>
      {busy ? (
        <p className="flex items-center gap-2 text-sm text-muted-fg" aria-live="polite">
          <Spinner /> Uploading…
        </p>
      ) : value ? (
        <p className="flex items-center gap-2 text-sm" data-testid="leave-attachment-chosen">
          <Paperclip aria-hidden className="size-4 shrink-0 text-muted-fg" />
          <span className="truncate font-medium">{value.name}</span>
          <span className="text-muted-fg">{format.bytes(value.size)}</span>
          <IconButton aria-label={`Remove ${value.name}`} size="sm" onClick={() => onChange(null)}>
            <X aria-hidden />
          </IconButton>
        </p>
      ) : null}
    </div>
  );
}

/**
 * A request's file, to view (PDFs and images) or download; for its member and their approvers.
 * `compact` (a table's cell) clips the name and shows the actions as icons, so the column stays
 * narrow enough for the row's other columns at 1280 px.
 */
export function LeaveAttachmentFile({
  attachment,
  compact = false,
}: {
  attachment: TLeaveAttachment;
  compact?: boolean;
}) {
  const format = useFormat();
  const view = async () => {
    // A tab of its own: the server serves the preview locked down (no script, sandboxed).
    const tab = window.open('', '_blank');
    try {
      const url = await signedLink(leaveAttachmentUrl(attachment.id, 'preview'));
      if (tab) tab.location.href = url;
    } catch (e) {
      tab?.close();
      toast.error(e instanceof Error ? e.message : 'Network Error');
    }
  };
  const download = () =>
    saveFile(leaveAttachmentUrl(attachment.id), attachment.name).catch((e: Error) => toast.error(e.message));
  if (compact) {
    return (
      <span className="flex min-w-0 items-center gap-1">
        <Paperclip aria-hidden className="size-4 shrink-0 text-muted-fg" />
        <span className="max-w-[10rem] truncate font-medium" title={attachment.name}>
          {attachment.name}
        </span>
        {isPreviewable(attachment.contentType) ? (
          <IconButton size="sm" aria-label={`View ${attachment.name}`} onClick={() => void view()}>
            <Eye aria-hidden />
          </IconButton>
        ) : null}
        <IconButton size="sm" aria-label={`Download ${attachment.name}`} onClick={() => void download()}>
          <Download aria-hidden />
        </IconButton>
      </span>
    );
  }
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-2">
      <Paperclip aria-hidden className="size-4 shrink-0 text-muted-fg" />
      <span className="truncate font-medium">{attachment.name}</span>
      <span className="text-muted-fg">{format.bytes(attachment.size)}</span>
      {isPreviewable(attachment.contentType) ? (
        <Button
          size="sm"
          variant="outline"
          aria-label={`View ${attachment.name}`}
          onClick={() => void view()}
        >
          <Eye aria-hidden />
          View
        </Button>
      ) : null}
      <Button
        size="sm"
        variant="outline"
        aria-label={`Download ${attachment.name}`}
        onClick={() => void download()}
      >
        <Download aria-hidden />
        Download
      </Button>
    </span>
  );
}
