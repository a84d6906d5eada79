import type { inferRouterOutputs } from '@trpc/server';
import { Badge } from '@web/ui';
import type { AppRouter } from '../../lib/trpc';

type TImportOutputs = inferRouterOutputs<AppRouter>['clients']['import'];
/** An import as the server keeps it: file, status, counts by row status, columns it ignored. */
export type TImportSummary = TImportOutputs['get'];
export type TImportPreviewRow = TImportOutputs['rows']['rows'][number];

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The rows by status, as badges: total, new (imported once done), duplicates, errors. */
export function ImportCounts({ summary }: { summary: TImportSummary }) {
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
