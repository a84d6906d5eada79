import {
  CLIENT_IMPORT_MAX_BYTES,
  CLIENT_IMPORT_UPLOAD_PATH,
  clientImportErrorsPath,
  FIELD_HEADERS,
  IMPORT_FIELDS,
  type TImportRowStatus,
} from '@domain/client-import';
import { ERROR_TOAST_MS } from '@domain/constants';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Badge,
  type BadgeTone,
  Button,
  DataTable,
  type DataTableColumn,
  DialogContent,
  Dialog as DialogRoot,
  Select,
  toast,
} from '@web/ui';
import { Download, FileUp } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';
import { type AppRouter, trpc } from '../../lib/trpc';
import { useClientsRefresh } from './use-clients';

type TImportOutputs = inferRouterOutputs<AppRouter>['clients']['import'];
type TSummary = TImportOutputs['get'];
type TPreviewRow = TImportOutputs['rows']['rows'][number];

const STATUS_BADGES: Record<TImportRowStatus, { tone: BadgeTone; label: string }> = {
  new: { tone: 'blue', label: 'New' },
  imported: { tone: 'green', label: 'Imported' },
  duplicate: { tone: 'yellow', label: 'Duplicate' },
  error: { tone: 'red', label: 'Error' },
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

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

async function downloadProblems(importId: string) {
  const res = await fetch(clientImportErrorsPath(importId), { headers: await staffAuthHeaders() });
  if (!res.ok) throw new Error('The download failed. Please try again.');
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'import-problems.csv';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Import clients from a spreadsheet: choose a file, see every row checked (new, duplicate, error
 * with the reasons), confirm, watch the progress, read the report. The server keeps the import, so
 * the steps and the report survive a reload of the dialog.
 */
export function ClientImportDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [importId, setImportId] = useState<string | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setImportId(null);
  };
  return (
    <DialogRoot open={open} onOpenChange={close}>
      {importId ? (
        <ImportFlow importId={importId} onClose={() => close(false)} onRestart={() => setImportId(null)} />
      ) : (
        <ChooseFile onUploaded={setImportId} />
      )}
    </DialogRoot>
  );
}

function ChooseFile({ onUploaded }: { onUploaded: (importId: string) => void }) {
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

function ImportFlow({
  importId,
  onClose,
  onRestart,
}: {
  importId: string;
  onClose: () => void;
  onRestart: () => void;
}) {
  const summary = useQuery(trpc.clients.import.get.queryOptions({ importId }));
  const [running, setRunning] = useState<TSummary | null>(null);
  const refresh = useClientsRefresh();
  const step = useMutation(trpc.clients.import.step.mutationOptions());
  const discard = useMutation(trpc.clients.import.discard.mutationOptions({ onSuccess: onRestart }));

  const start = async () => {
    const first = summary.data;
    if (!first) return;
    setRunning(first);
    try {
      let current = first;
      // One batch per call; the cursor is on the server, so a failed call can simply be retried.
      do {
        current = await step.mutateAsync({ importId });
        setRunning(current);
      } while (current.status !== 'done');
      toast.success(`Imported ${plural(current.counts.imported, 'client')}`);
    } catch {
      // The error link has shown the message; what went in stays in, and Continue picks up from there.
    } finally {
      await summary.refetch();
      setRunning(null);
      await refresh();
    }
  };

  const data = running ?? summary.data;
  if (!data) {
    return (
      <DialogContent size="xl" title="Import clients" description="Reading the import…">
        <div className="h-40" aria-busy="true" />
      </DialogContent>
    );
  }
  if (running || (data.status === 'importing' && step.isPending)) {
    return <ImportProgress summary={data} />;
  }
  if (data.status === 'done') return <ImportReport summary={data} onClose={onClose} />;
  const resumable = data.status === 'importing';
  return (
    <DialogContent
      size="xl"
      title={`Import ${data.fileName}`}
      description={
        resumable
          ? `This import stopped after ${plural(data.processedRows, 'row')}: continue to import the rest.`
          : 'Check the rows below. Only the new rows will be imported; duplicates and rows with errors are skipped.'
      }
      footer={
        <>
          {resumable ? (
            <Button variant="outline" onClick={onClose}>
              Close
            </Button>
          ) : (
            <Button
              variant="outline"
              onClick={() => discard.mutate({ importId })}
              loading={discard.isPending}
            >
              Choose another file
            </Button>
          )}
          <Button onClick={start} disabled={!resumable && data.counts.new === 0}>
            {resumable ? 'Continue import' : `Import ${plural(data.counts.new, 'new client')}`}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <Counts summary={data} />
        {data.ignoredColumns.length || data.repeatedColumns.length ? (
          <p className="text-xs text-muted-fg">
            {data.ignoredColumns.length ? `Columns not imported: ${data.ignoredColumns.join(', ')}. ` : ''}
            {data.repeatedColumns.length
              ? `Repeated columns ignored: ${data.repeatedColumns.join(', ')}.`
              : ''}
          </p>
        ) : null}
        <RowsTable importId={importId} />
      </div>
    </DialogContent>
  );
}

function Counts({ summary }: { summary: TSummary }) {
  const { counts } = summary;
  const done = summary.status === 'done';
  return (
    <ul className="flex flex-wrap gap-2 text-sm" aria-label="Rows by status">
      <li>
        <Badge tone="outline">{plural(summary.totalRows, 'row')}</Badge>
      </li>
      {done ? (
        <li>
          <Badge tone="green">{counts.imported.toLocaleString()} imported</Badge>
        </li>
      ) : (
        <li>
          <Badge tone="blue">{counts.new.toLocaleString()} new</Badge>
        </li>
      )}
      <li>
        <Badge tone="yellow">{plural(counts.duplicate, 'duplicate')}</Badge>
      </li>
      <li>
        <Badge tone="red">{plural(counts.error, 'error')}</Badge>
      </li>
    </ul>
  );
}

function ImportProgress({ summary }: { summary: TSummary }) {
  const percent = summary.totalRows ? Math.round((summary.processedRows / summary.totalRows) * 100) : 0;
  return (
    <DialogContent
      size="md"
      title={`Importing ${summary.fileName}`}
      description="Keep this window open until the import finishes."
      hideClose
      onEscapeKeyDown={(e) => e.preventDefault()}
      onPointerDownOutside={(e) => e.preventDefault()}
      onInteractOutside={(e) => e.preventDefault()}
    >
      <div className="flex flex-col gap-2 py-2">
        <div
          role="progressbar"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={summary.totalRows}
          aria-valuenow={summary.processedRows}
          aria-valuetext={`${summary.processedRows} of ${summary.totalRows} rows`}
          className="h-2 w-full overflow-hidden rounded-full bg-muted"
        >
          <div
            className="h-full rounded-full bg-primary transition-[width]"
            style={{ width: `${percent}%` }}
          />
        </div>
        <p className="text-sm text-muted-fg" aria-live="polite">
          {summary.processedRows.toLocaleString()} of {plural(summary.totalRows, 'row')} ({percent} %):{' '}
          {plural(summary.counts.imported, 'client')} imported so far
        </p>
      </div>
    </DialogContent>
  );
}

function ImportReport({ summary, onClose }: { summary: TSummary; onClose: () => void }) {
  const { counts } = summary;
  const problems = counts.duplicate + counts.error;
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadProblems(summary.id);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Network Error', { duration: ERROR_TOAST_MS });
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogContent
      size="xl"
      title="Import finished"
      description={`${summary.fileName}: imported ${plural(counts.imported, 'client')}, skipped ${plural(counts.duplicate, 'duplicate')}, ${plural(counts.error, 'row')} with errors.`}
      footer={
        <>
          {problems ? (
            <Button variant="outline" onClick={download} loading={busy}>
              <Download aria-hidden />
              Download skipped rows (CSV)
            </Button>
          ) : null}
          <Button onClick={onClose}>Done</Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <Counts summary={summary} />
        {problems ? (
          <>
            <p className="text-sm text-muted-fg">
              These rows were not imported. Fix them in the downloaded file and import it again.
            </p>
            <RowsTable importId={summary.id} problemsOnly={counts.error ? 'error' : 'duplicate'} />
          </>
        ) : (
          <p className="text-sm">Every row was imported.</p>
        )}
      </div>
    </DialogContent>
  );
}

const ALL = 'all';

/** The preview's rows, or with `problemsOnly` (the status shown first) the report's skipped rows. */
function RowsTable({ importId, problemsOnly }: { importId: string; problemsOnly?: 'error' | 'duplicate' }) {
  const [status, setStatus] = useState<TImportRowStatus | typeof ALL>(problemsOnly ?? ALL);
  const [page, setPage] = useState(1);
  const pageSize = 25;
  const rows = useQuery({
    ...trpc.clients.import.rows.queryOptions({
      importId,
      page,
      pageSize,
      ...(status === ALL ? {} : { status }),
    }),
    placeholderData: keepPreviousData,
  });
  const columns: DataTableColumn<TPreviewRow>[] = [
    { id: 'row', header: 'Row', cell: (r) => <span className="tabular-nums text-muted-fg">{r.rowNo}</span> },
    {
      id: 'status',
      header: 'Status',
      cell: (r) => (
        <Badge tone={STATUS_BADGES[r.status].tone} dot>
          {STATUS_BADGES[r.status].label}
        </Badge>
      ),
    },
    {
      id: 'code',
      header: 'Code',
      cell: (r) => (
        <span className="font-mono text-xs">
          {r.code ?? r.values.code ?? ''}
          {r.generatedCode ? <span className="ml-1 font-sans text-muted-fg">(new)</span> : null}
        </span>
      ),
    },
    { id: 'name', header: 'Name', cell: (r) => r.values.name ?? <span className="text-muted-fg">—</span> },
    { id: 'email', header: 'Email', cell: (r) => r.values.email ?? <span className="text-muted-fg">—</span> },
    { id: 'group', header: 'Group', cell: (r) => r.values.group ?? <span className="text-muted-fg">—</span> },
    {
      id: 'problems',
      header: 'Problems',
      className: 'whitespace-normal min-w-64',
      cell: (r) =>
        r.messages.length ? (
          <ul className="flex flex-col gap-0.5">
            {r.messages.map((m) => (
              <li key={`${m.field}|${m.message}`} className="text-xs">
                <span className="font-medium">
                  {FIELD_HEADERS[m.field as keyof typeof FIELD_HEADERS] ?? m.field}:
                </span>{' '}
                {m.message}
              </li>
            ))}
          </ul>
        ) : (
          <span className="text-muted-fg">—</span>
        ),
    },
  ];
  const options = problemsOnly
    ? [
        { value: 'error', label: 'Errors' },
        { value: 'duplicate', label: 'Duplicates' },
      ]
    : [
        { value: ALL, label: 'All rows' },
        { value: 'new', label: 'New' },
        { value: 'duplicate', label: 'Duplicates' },
        { value: 'error', label: 'Errors' },
      ];
  return (
    <DataTable
      label={problemsOnly ? 'Rows not imported' : 'Import preview'}
      columns={columns}
      rows={rows.data?.rows ?? []}
      getRowId={(r) => String(r.rowNo)}
      total={rows.data?.total ?? 0}
      page={page}
      pageSize={pageSize}
      loading={rows.isPending}
      onPageChange={setPage}
      toolbar={
        <Select
          aria-label="Show rows"
          className="w-44"
          value={status}
          onValueChange={(v) => {
            setStatus(v as TImportRowStatus | typeof ALL);
            setPage(1);
          }}
          options={options}
        />
      }
    />
  );
}
