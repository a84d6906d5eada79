import { clientImportErrorsPath } from '@domain/client-import';
import { ERROR_TOAST_MS } from '@domain/constants';
import { Button, DialogContent, toast } from '@web/ui';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { saveFile } from '../documents/file-transfer';
import { ImportRowsTable } from './import-rows-table';
import { ImportCounts, type TImportSummary, usePlural } from './import-summary';

const downloadProblems = (importId: string) =>
  saveFile(clientImportErrorsPath(importId), 'import-problems.csv');

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
