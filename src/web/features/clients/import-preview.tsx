import { useMutation } from '@tanstack/react-query';
import { Button, DialogContent } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { ImportRowsTable } from './import-rows-table';
import { ImportCounts, type TImportSummary, usePlural } from './import-summary';

/**
 * The step before anything goes in: every row checked, with the counts and the columns left out;
 * or, for an import that stopped part-way, the offer to continue it.
 */
export function ImportPreview({
  summary,
  onStart,
  onClose,
  onRestart,
}: {
  summary: TImportSummary;
  onStart: () => void;
  onClose: () => void;
  onRestart: () => void;
}) {
  const discard = useMutation(trpc.clients.import.discard.mutationOptions({ onSuccess: onRestart }));
  const resumable = summary.status === 'importing';
  const plural = usePlural();
  return (
    <DialogContent
      size="xl"
      title={`Import ${summary.fileName}`}
      description={
        resumable
          ? `This import stopped after ${plural(summary.processedRows, 'row')}: continue to import the rest.`
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
              onClick={() => discard.mutate({ importId: summary.id })}
              loading={discard.isPending}
            >
              Choose another file
            </Button>
          )}
          <Button onClick={onStart} disabled={!resumable && summary.counts.new === 0}>
            {resumable ? 'Continue import' : `Import ${plural(summary.counts.new, 'new client')}`}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <ImportCounts summary={summary} />
        {summary.ignoredColumns.length || summary.repeatedColumns.length ? (
          <p className="text-xs text-muted-fg">
            {summary.ignoredColumns.length
              ? `Columns not imported: ${summary.ignoredColumns.join(', ')}. `
              : ''}
            {summary.repeatedColumns.length
              ? `Repeated columns ignored: ${summary.repeatedColumns.join(', ')}.`
              : ''}
          </p>
        ) : null}
        <ImportRowsTable importId={summary.id} />
      </div>
    </DialogContent>
  );
}
