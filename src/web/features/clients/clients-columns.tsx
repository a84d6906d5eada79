import { CLIENT_TYPE_LABELS } from '@domain/clients';
import { Badge, type DataTableColumn, DateText } from '@web/ui';
import type { TClientRow } from './use-clients';
import type { TOptionalColumn } from './use-column-choice';

const COLUMNS: Record<TOptionalColumn | 'code' | 'name', DataTableColumn<TClientRow>> = {
  code: {
    id: 'code',
    header: 'Code',
    sortable: true,
    cell: (c) => <span className="font-mono text-xs">{c.code}</span>,
  },
  name: {
    id: 'name',
    header: 'Name',
    sortable: true,
    primary: true,
    truncate: true,
    minWidth: 10,
    cell: (c) => (
      <>
        <span className="font-medium text-fg">{c.name}</span>
        {c.archivedAt ? (
          <Badge tone="grey" className="ml-1.5 align-middle">
            Archived
          </Badge>
        ) : null}
      </>
    ),
  },
  type: { id: 'type', header: 'Type', cell: (c) => CLIENT_TYPE_LABELS[c.type] },
  group: {
    id: 'group',
    header: 'Group',
    truncate: true,
    minWidth: 6,
    cell: (c) => c.group?.name ?? <span className="text-muted-fg">—</span>,
  },
  email: {
    id: 'email',
    header: 'Email',
    truncate: true,
    cell: (c) => c.email ?? <span className="text-muted-fg">—</span>,
  },
  phone: { id: 'phone', header: 'Phone', cell: (c) => c.phone ?? <span className="text-muted-fg">—</span> },
  city: {
    id: 'city',
    header: 'City',
    truncate: true,
    minWidth: 6,
    cell: (c) => c.city ?? <span className="text-muted-fg">—</span>,
  },
  tags: {
    id: 'tags',
    header: 'Tags',
    // As many badges as the column has room for, then an ellipsis; all of them on hover.
    truncate: true,
    minWidth: 6,
    cell: (c) => (
      <span title={c.tags.join(', ') || undefined}>
        {c.tags.map((t) => (
          <Badge key={t} className="mr-1 align-middle">
            {t}
          </Badge>
        ))}
      </span>
    ),
  },
  status: {
    id: 'status',
    header: 'Status',
    cell: (c) =>
      c.status === 'active' ? (
        <Badge tone="green" dot>
          Active
        </Badge>
      ) : (
        <Badge tone="grey" dot>
          Inactive
        </Badge>
      ),
  },
  createdAt: {
    id: 'createdAt',
    header: 'Added',
    sortable: true,
    sortDescFirst: true,
    cell: (c) => (
      <span className="text-muted-fg">
        <DateText value={c.createdAt} />
      </span>
    ),
  },
};

/** The list's columns: code and name always, then the optional ones the member chose, in order. */
export function clientColumns(visible: readonly TOptionalColumn[]): DataTableColumn<TClientRow>[] {
  return [COLUMNS.code, COLUMNS.name, ...visible.map((id) => COLUMNS[id])];
}
