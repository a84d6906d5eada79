import { DialogContent, useFormat } from '@web/ui';
import { type TImportSummary, usePlural } from './import-summary';

/** While the rows go in: a progress bar, and the dialog cannot be closed. */
export function ImportProgress({ summary }: { summary: TImportSummary }) {
  const plural = usePlural();
  const { number } = useFormat();
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
          {number(summary.processedRows)} of {plural(summary.totalRows, 'row')} ({percent} %):{' '}
          {plural(summary.counts.imported, 'client')} imported so far
        </p>
      </div>
    </DialogContent>
  );
}
