import { CLIENT_TYPE_LABELS, CLIENT_TYPES } from '@domain/clients';
import {
  Button,
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuTrigger,
  SearchBox,
  Select,
} from '@web/ui';
import { Columns3 } from 'lucide-react';
import type { TClientsSearch } from './clients-search';
import { OPTIONAL_COLUMNS, type TOptionalColumn } from './use-column-choice';

const ALL = 'all';

/** Above the list: search, the filters (all kept in the URL) and the choice of columns. */
export function ClientsToolbar({
  search,
  setSearch,
  groups,
  visible,
  toggle,
}: {
  search: TClientsSearch;
  setSearch: (next: Partial<TClientsSearch>) => void;
  groups: readonly { id: string; name: string }[];
  visible: readonly TOptionalColumn[];
  toggle: (id: TOptionalColumn, on: boolean) => void;
}) {
  return (
    <>
      <SearchBox
        label="Search clients"
        placeholder="Search name, code, email, PAN…"
        value={search.search}
        onSearch={(value) => setSearch({ search: value, page: undefined })}
      />
      <Select
        aria-label="Type"
        className="w-40"
        value={search.type ?? ALL}
        onValueChange={(v) =>
          setSearch({ type: v === ALL ? undefined : (v as TClientsSearch['type']), page: undefined })
        }
        options={[
          { value: ALL, label: 'All types' },
          ...CLIENT_TYPES.map((t) => ({ value: t, label: CLIENT_TYPE_LABELS[t] })),
        ]}
      />
      <Select
        aria-label="Group"
        className="w-44"
        value={search.groupId ?? ALL}
        onValueChange={(v) => setSearch({ groupId: v === ALL ? undefined : v, page: undefined })}
        options={[
          { value: ALL, label: 'All groups' },
          ...groups.map((g) => ({ value: g.id, label: g.name })),
        ]}
      />
      <Select
        aria-label="Status"
        className="w-36"
        value={search.status ?? ALL}
        onValueChange={(v) =>
          setSearch({ status: v === ALL ? undefined : (v as TClientsSearch['status']), page: undefined })
        }
        options={[
          { value: ALL, label: 'All statuses' },
          { value: 'active', label: 'Active' },
          { value: 'inactive', label: 'Inactive' },
        ]}
      />
      <Select
        aria-label="Archived"
        className="w-44"
        value={search.archived ?? 'hide'}
        onValueChange={(v) =>
          setSearch({
            archived: v === 'hide' ? undefined : (v as TClientsSearch['archived']),
            page: undefined,
          })
        }
        options={[
          { value: 'hide', label: 'Hide archived' },
          { value: 'include', label: 'Include archived' },
          { value: 'only', label: 'Archived only' },
        ]}
      />
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
    </>
  );
}
