import type { inferRouterOutputs } from '@trpc/server';
import { Badge, useFormat } from '@web/ui';
import type { AppRouter } from '../../lib/trpc';

type TImportOutputs = inferRouterOutputs<AppRouter>['clients']['import'];
/** An import as the server keeps it: file, status, counts by row status, columns it ignored. */
export type TImportSummary = TImportOutputs['get'];
export type TImportPreviewRow = TImportOutputs['rows']['rows'][number];

/** "1 row", "12,345 rows": a count in the firm's digits with its noun. */
export function usePlural() {
  const { number } = useFormat();
  return (n: number, one: string, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;
}

/** The rows by status, as badges: total, new (imported once done), duplicates, errors. */
export function ImportCounts({ summary }: { summary: TImportSummary }) {
  const { counts } = summary;
  const done = summary.status === 'done';
  const plural = usePlural();
  const { number } = useFormat();
  return (
    <ul className="flex flex-wrap gap-2 text-sm" aria-label="Rows by status">
      <li>
        <Badge tone="outline">{plural(summary.totalRows, 'row')}</Badge>
      </li>
      {done ? (
        <li>
          <Badge tone="green">{number(counts.imported)} imported</Badge>
        </li>
      ) : (
        <li>
          <Badge tone="blue">{number(counts.new)} new</Badge>
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
