import { useMutation, useQuery } from '@tanstack/react-query';
import { DialogContent, Dialog as DialogRoot, toast } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { ImportChooseFile } from './import-choose-file';
import { ImportPreview } from './import-preview';
import { ImportProgress } from './import-progress';
import { ImportReport } from './import-report';
import { type TImportSummary, usePlural } from './import-summary';
import { useClientsRefresh } from './use-clients';

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
        <ImportChooseFile onUploaded={setImportId} />
      )}
    </DialogRoot>
  );
}

/** An uploaded import, step by step: preview, progress while it runs, then the report. */
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
  const [running, setRunning] = useState<TImportSummary | null>(null);
  const refresh = useClientsRefresh();
  const step = useMutation(trpc.clients.import.step.mutationOptions());
  const plural = usePlural();

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
  return <ImportPreview summary={data} onStart={start} onClose={onClose} onRestart={onRestart} />;
}
