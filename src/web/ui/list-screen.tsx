import { useNavigate } from '@tanstack/react-router';
import { type LucideIcon, Search } from 'lucide-react';
import { type ReactNode, useCallback, useState } from 'react';
import { Button } from './button';
import {
  DataTable,
  type DataTableColumn,
  type DataTableRowLink,
  type SortDirection,
  urlPagingProps,
} from './data-table';
import { EmptyState } from './empty-state';
import type { TListParams } from './list-search';
import { PAGE_SIZE_OPTIONS } from './pagination';
import { SearchBox } from './search-box';
import { Select } from './select';

export type ListUrl<S> = {
  search: S;
  /** Merges into the URL's search, replacing the history entry (a filter is not a page to go back to). */
  setSearch: (next: Partial<S>) => void;
};

/**
 * The list's state in the URL, `useListUrl(route.useSearch())`: filters, search, sort and page survive
 * a reload and can be shared, and the route's validateSearch types them.
 */
export function useListUrl<S extends TListParams<string>>(search: S): ListUrl<S> {
  const navigate = useNavigate();
  const setSearch = useCallback(
    // '.': the page the list is on, whichever route that is; the route's validateSearch types S.
    (next: Partial<S>) =>
      navigate({ to: '.', search: (prev: S) => ({ ...prev, ...next }), replace: true } as never),
    [navigate],
  );
  return { search, setSearch };
}

/** A select in the filter bar for one key of the URL; the "all" option leaves the key out. */
export type ListFilter<S> = {
  key: keyof S & string;
  /** The select's accessible name, e.g. "Status". */
  label: string;
  /** The first option, meaning no filter, e.g. "All statuses". */
  all: string;
  options: { value: string; label: string }[];
  className?: string;
};

export type ListScreenProps<T, S extends TListParams<string>> = {
  /** Names the table for screen readers, e.g. "Clients". */
  label: string;
  url: ListUrl<S>;
  /** The page, page size, sort and direction the query was asked for (defaults filled in). */
  query: { page?: number; pageSize?: number; sort?: string; direction?: SortDirection };
  /** The list query's result (`useQuery` with `placeholderData: keepPreviousData`). */
  list: { data?: { rows: T[]; total: number; totalCapped?: boolean } | undefined; isPending: boolean };
  columns: DataTableColumn<T>[];
  getRowId: (row: T) => string;
  getRowLabel?: (row: T) => string;
  rowLink?: (row: T) => DataTableRowLink | null;
  onRowClick?: (row: T) => void;
  /** The search box, bound to the URL's `search`. */
  searchBox?: { label: string; placeholder: string };
  filters?: ListFilter<S>[];
  /** Filter-bar controls of the screen's own, after the search box and the filters. */
  tools?: ReactNode;
  /** URL keys the screen's own tools filter by: they count as filtering and "Clear filters" empties them. */
  toolKeys?: (keyof S & string)[];
  /** Rows per page on offer; `false` for a fixed page size with no select. */
  pageSizes?: number[] | false;
  /** Turns on selection and the bulk bar; `clear` empties the selection once an action is done. */
  bulkActions?: (ids: string[], clear: () => void) => ReactNode;
  /** Shown when the list has nothing at all ("No results" when left out). */
  empty?: ReactNode;
  /** Shown instead when the search or a filter hides every row; `clear` adds a "Clear filters" button. */
  noMatch?: { title: string; message: string; clear?: boolean; icon?: LucideIcon };
  /** A totals row under the rows: what each column shows there (DataTable's `footer`). */
  footer?: (column: DataTableColumn<T>) => ReactNode;
  className?: string;
};

/**
 * A list screen's body: the filter bar (search box, filters, the screen's own tools), the table with
 * its loading and empty states, the pager, and selection with its bulk bar. Everything a person
 * changes goes to the URL through `url`, a new filter or sort starting again from page one.
 */
export function ListScreen<T, S extends TListParams<string>>(props: ListScreenProps<T, S>) {
  const { url, query, list, filters = [], toolKeys = [], noMatch, bulkActions } = props;
  const { search, setSearch } = url;
  const [selected, setSelected] = useState<string[]>([]);
  const onSearch = useCallback(
    (value: string | undefined) => setSearch({ search: value, page: undefined } as Partial<S>),
    [setSearch],
  );
  const keys = ['search', ...filters.map((f) => f.key), ...toolKeys] as (keyof S & string)[];
  const filtered = keys.some((key) => search[key] !== undefined);
  const clear = () =>
    setSearch(Object.fromEntries([...keys, 'page'].map((key) => [key, undefined])) as Partial<S>);
  const sizes = props.pageSizes === false ? undefined : (props.pageSizes ?? PAGE_SIZE_OPTIONS);
  const paging = urlPagingProps(query, (next) => setSearch(next as Partial<S>), sizes);

  const toolbar =
    props.searchBox || filters.length > 0 || props.tools ? (
      <>
        {props.searchBox ? (
          <SearchBox
            value={search.search}
            onSearch={onSearch}
            label={props.searchBox.label}
            placeholder={props.searchBox.placeholder}
          />
        ) : null}
        {filters.map((filter) => (
          <Select
            key={filter.key}
            aria-label={filter.label}
            className={filter.className ?? 'w-40'}
            value={String(search[filter.key] ?? ALL)}
            onValueChange={(v) =>
              setSearch({ [filter.key]: v === ALL ? undefined : v, page: undefined } as Partial<S>)
            }
            options={[{ value: ALL, label: filter.all }, ...filter.options]}
          />
        ))}
        {props.tools}
      </>
    ) : undefined;

  return (
    <DataTable
      label={props.label}
      className={props.className}
      columns={props.columns}
      rows={list.data?.rows ?? []}
      getRowId={props.getRowId}
      getRowLabel={props.getRowLabel}
      total={list.data?.total ?? 0}
      totalCapped={list.data?.totalCapped}
      {...paging}
      onPageSizeChange={sizes ? paging.onPageSizeChange : undefined}
      loading={list.isPending}
      rowLink={props.rowLink}
      onRowClick={props.onRowClick}
      footer={props.footer}
      {...(bulkActions
        ? {
            selectedIds: selected,
            onSelectionChange: setSelected,
            bulkActions: (ids: string[]) => bulkActions(ids, () => setSelected([])),
          }
        : {})}
      toolbar={toolbar}
      empty={
        filtered && noMatch ? (
          <EmptyState
            icon={noMatch.icon ?? Search}
            title={noMatch.title}
            message={noMatch.message}
            action={
              noMatch.clear ? (
                <Button variant="outline" onClick={clear}>
                  Clear filters
                </Button>
              ) : undefined
            }
          />
        ) : (
          props.empty
        )
      }
    />
  );
}

const ALL = 'all';
