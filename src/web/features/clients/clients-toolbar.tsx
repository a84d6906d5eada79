import { CLIENT_TYPE_LABELS, CLIENT_TYPES } from '@domain/clients';
import {
  Button,
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuTrigger,
  type ListFilter,
} from '@web/ui';
import { Columns3 } from 'lucide-react';
import type { TClientsSearch } from './clients-search';
import { OPTIONAL_COLUMNS, type TOptionalColumn } from './use-column-choice';

/** The list's filters, all kept in the URL. */
export function clientFilters(groups: readonly { id: string; name: string }[]): ListFilter<TClientsSearch>[] {
  return [
    {
      key: 'type',
      label: 'Type',
      all: 'All types',
      options: CLIENT_TYPES.map((t) => ({ value: t, label: CLIENT_TYPE_LABELS[t] })),
    },
    {
      key: 'groupId',
      label: 'Group',
      all: 'All groups',
      className: 'w-44',
      options: groups.map((g) => ({ value: g.id, label: g.name })),
    },
    {
      key: 'status',
      label: 'Status',
      all: 'All statuses',
      className: 'w-36',
      options: [
        { value: 'active', label: 'Active' },
        { value: 'inactive', label: 'Inactive' },
      ],
    },
    {
      key: 'archived',
      label: 'Archived',
      all: 'Hide archived',
      className: 'w-44',
      options: [
        { value: 'include', label: 'Include archived' },
        { value: 'only', label: 'Archived only' },
      ],
    },
    {
      key: 'prospects',
      label: 'Prospects',
      all: 'Hide prospects',
      className: 'w-44',
      options: [
        { value: 'include', label: 'Include prospects' },
        { value: 'only', label: 'Prospects only' },
      ],
    },
  ];
}

/** The choice of optional columns, kept in this browser. */
export function ColumnChooser({
  visible,
  toggle,
}: {
  visible: readonly TOptionalColumn[];
  toggle: (id: TOptionalColumn, on: boolean) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline">
          <Columns3 aria-hidden />
          Columns
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>Show columns</DropdownMenuLabel>
        {OPTIONAL_COLUMNS.map((c) => (
          <DropdownMenuCheckboxItem
            key={c.id}
            checked={visible.includes(c.id)}
            onCheckedChange={(on) => toggle(c.id, on === true)}
            onSelect={(e) => e.preventDefault()}
          >
            {c.label}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
