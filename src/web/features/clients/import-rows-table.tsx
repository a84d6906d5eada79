import { FIELD_HEADERS, type TImportRowStatus } from '@domain/client-import';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Badge, type BadgeTone, DataTable, type DataTableColumn, Select } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import type { TImportPreviewRow } from './import-summary';

const STATUS_BADGES: Record<TImportRowStatus, { tone: BadgeTone; label: string }> = {
  new: { tone: 'blue', label: 'New' },
  imported: { tone: 'green', label: 'Imported' },
  duplicate: { tone: 'yellow', label: 'Duplicate' },
  error: { tone: 'red', label: 'Error' },
};

const ALL = 'all';

/** The preview's rows, or with `problemsOnly` (the status shown first) the report's skipped rows. */
export function ImportRowsTable({
  importId,
  problemsOnly,
}: {
  importId: string;
  problemsOnly?: 'error' | 'duplicate';
}) {
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
  const columns: DataTableColumn<TImportPreviewRow>[] = [
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
