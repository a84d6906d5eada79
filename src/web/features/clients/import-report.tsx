import { clientImportErrorsPath } from '@domain/client-import';
import { ERROR_TOAST_MS } from '@domain/constants';
import { Button, DialogContent, toast } from '@web/ui';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';
import { ImportRowsTable } from './import-rows-table';
import { ImportCounts, type TImportSummary, usePlural } from './import-summary';

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

/** The last step: what went in, what was skipped and why, and the skipped rows as CSV. */
export function ImportReport({ summary, onClose }: { summary: TImportSummary; onClose: () => void }) {
  const { counts } = summary;
  const plural = usePlural();
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
        <ImportCounts summary={summary} />
        {problems ? (
          <>
            <p className="text-sm text-muted-fg">
              These rows were not imported. Fix them in the downloaded file and import it again.
            </p>
            <ImportRowsTable importId={summary.id} problemsOnly={counts.error ? 'error' : 'duplicate'} />
          </>
        ) : (
          <p className="text-sm">Every row was imported.</p>
        )}
      </div>
    </DialogContent>
  );
}
