import {
  CLIENT_IMPORT_MAX_BYTES,
  CLIENT_IMPORT_UPLOAD_PATH,
  FIELD_HEADERS,
  IMPORT_FIELDS,
} from '@domain/client-import';
import { ERROR_TOAST_MS } from '@domain/constants';
import { useQuery } from '@tanstack/react-query';
import { Button, DialogContent, toast } from '@web/ui';
import { FileUp } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';
import { trpc } from '../../lib/trpc';

async function uploadFile(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch(CLIENT_IMPORT_UPLOAD_PATH, {
    method: 'POST',
    headers: await staffAuthHeaders(),
    body: form,
  });
  const body = (await res.json().catch(() => null)) as { importId?: string; message?: string } | null;
  if (!res.ok || !body?.importId) throw new Error(body?.message ?? 'The upload failed. Please try again.');
  return body.importId;
}

/** The import's first step: pick a file (or continue an import that stopped) and upload it. */
export function ImportChooseFile({ onUploaded }: { onUploaded: (importId: string) => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const tooBig = file ? file.size > CLIENT_IMPORT_MAX_BYTES : false;
  const unfinished = useQuery(trpc.clients.import.unfinished.queryOptions());
  const upload = async () => {
    if (!file) return;
    setBusy(true);
    try {
      onUploaded(await uploadFile(file));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Network Error', { duration: ERROR_TOAST_MS });
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogContent
      size="md"
      title="Import clients"
      description="Upload a CSV or Excel (.xlsx) file with one client per row. Nothing is added until you have seen the preview and confirmed."
      footer={
        <Button onClick={upload} disabled={!file || tooBig} loading={busy}>
          <FileUp aria-hidden />
          {busy ? 'Checking…' : 'Upload and preview'}
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        {unfinished.data ? (
          <div className="flex items-center justify-between gap-3 rounded-md border border-amber-500/40 bg-amber-50 p-3 text-sm dark:bg-amber-400/10">
            <span>The import of {unfinished.data.fileName} stopped before the end.</span>
            <Button
              size="sm"
              variant="outline"
              onClick={() => unfinished.data && onUploaded(unfinished.data.id)}
            >
              Continue it
            </Button>
          </div>
        ) : null}
        <div className="flex flex-col gap-1.5">
          <label htmlFor={inputId} className="text-sm font-medium">
            CSV or Excel file
          </label>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept=".csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="block w-full text-sm text-muted-fg file:mr-3 file:rounded-md file:border file:border-border file:bg-surface file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-fg hover:file:bg-muted"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          {tooBig ? (
            <p className="text-sm text-danger" role="alert">
              The file is larger than {CLIENT_IMPORT_MAX_BYTES / 1024 / 1024} MB: split it into smaller files.
            </p>
          ) : (
            <p className="text-xs text-muted-fg">
              Up to {CLIENT_IMPORT_MAX_BYTES / 1024 / 1024} MB. From Excel, the first sheet is read.
            </p>
          )}
        </div>
        <div className="rounded-md border border-border bg-muted/40 p-3 text-xs text-muted-fg">
          <p className="font-medium text-fg">Columns</p>
          <p className="mt-1">
            The first row names the columns; only <strong>Name</strong> is required. Recognised:{' '}
            {IMPORT_FIELDS.map((f) => FIELD_HEADERS[f]).join(', ')} (and common names such as “Client Name”,
            “E-mail”, “Mobile”, “PAN”, “GSTIN”). A blank code gets the next free one. Tax IDs read as
            “PAN:ABCDE1234F; GSTIN:…”, tags are separated by “;”, and a group must already exist. A row with
            the same email or tax identifier as an existing client, or an earlier row, is skipped as a
            duplicate. The export of the client list has exactly these columns.
          </p>
        </div>
      </div>
    </DialogContent>
  );
}
