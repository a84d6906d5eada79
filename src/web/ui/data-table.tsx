import { ArrowDown, ArrowUp, ChevronsUpDown, Inbox } from 'lucide-react';
import { type CSSProperties, type ReactNode, useRef, useState } from 'react';
import { Button } from './button';
import { CellText } from './cell-text';
import { Checkbox } from './checkbox';
import { cn } from './cn';
import { EmptyState } from './empty-state';
import { useFormat } from './format';
import { Pagination } from './pagination';
import { type DataTableRowLink, RowAction, syncHoverTitle } from './row-action';
import { Skeleton } from './skeleton';
import { useScrollsSideways } from './use-scrolls-sideways';

export type { DataTableRowLink } from './row-action';

export type SortDirection = 'asc' | 'desc';

export type DataTableColumn<T> = {
  /** Also the sort key sent to the server. */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  sortable?: boolean;
  /** First click sorts descending (dates, amounts), instead of ascending. */
  sortDescFirst?: boolean;
  /** Applied to the header and every cell of the column (width, alignment, `hidden md:table-cell`). */
  className?: string;
  /**
   * Free text of any length (names, emails, summaries). The column shares out the width the others
   * leave, never narrower than `minWidth`, and clips longer text to one line with an ellipsis (the
   * full text shows on hover). Other columns are as wide as their content (badges, dates, codes,
   * people) and are never cut.
   */
  truncate?: boolean;
  /** Lines a truncating column shows before it clips (1 by default; 2 for a log's summary). */
  lines?: 1 | 2;
  /**
   * The narrowest a truncating column gets, in rem (8 by default). A column whose cells clip their
   * own lines (<CellText>, e.g. a name over a description) sets it without `truncate`.
   */
  minWidth?: number;
  /**
   * The cell that names the row: it holds the row's link (`rowLink`) or button (`onRowClick`). The
   * first column when none says so.
   */
  primary?: boolean;
  /**
   * More in the cell after its content, outside the row's link and the clipping: controls of their
   * own (a task's tag links), which a link may not contain.
   */
  after?: (row: T) => ReactNode;
};

export type DataTableProps<T> = {
  /** Names the table for screen readers, e.g. "Clients". */
  label: string;
  columns: DataTableColumn<T>[];
  rows: T[];
  getRowId: (row: T) => string;
  total: number;
  /** The server stopped counting at `total` (TPage's totalCapped). */
  totalCapped?: boolean;
  page: number;
  pageSize: number;
  sort?: string;
  direction?: SortDirection;
  onPageChange: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  onSortChange?: (sort: string, direction: SortDirection) => void;
  pageSizeOptions?: number[];
  /** Shows skeleton rows in place of the data, keeping the layout. */
  loading?: boolean;
  /** Shown when there are no rows; a sensible default otherwise. */
  empty?: ReactNode;
  /** Search and filter inputs above the table. */
  toolbar?: ReactNode;
  /** Turns on row selection. Ids persist across pages, so "N selected" can exceed one page. */
  onSelectionChange?: (ids: string[]) => void;
  /** Controlled selection; internal state when omitted. */
  selectedIds?: string[];
  /** Buttons in the bar that appears while rows are selected. */
  bulkActions?: (selectedIds: string[]) => ReactNode;
  /**
   * Where a row leads (null: nowhere). The primary cell becomes a real link there, stretched over the
   * whole row: a click anywhere opens it, Ctrl/Cmd- or middle-click opens a new tab, a screen reader
   * hears a link named by the cell. Buttons, checkboxes and menus in the row sit above it.
   */
  rowLink?: (row: T) => DataTableRowLink | null;
  /**
   * For rows that open something without an address of its own (a dialog): the primary cell
   * becomes a button, stretched over the row as `rowLink` is. Prefer `rowLink` when there is a URL.
   */
  onRowClick?: (row: T) => void;
  /** A row's name for its checkbox label ("Select Acme Ltd"). */
  getRowLabel?: (row: T) => string;
  /**
   * Rows listed on the first page ahead of the paged ones (a folder's sub-folders before its files):
   * counted in the range shown, not in the pages.
   */
  leading?: number;
  /**
   * A totals row under the rows (a report's sums over every page): what each column shows there.
   * The first column's is the row's header ("Total").
   */
  footer?: (column: DataTableColumn<T>) => ReactNode;
  className?: string;
};

// Cells do not wrap: on a narrow screen the table scrolls sideways instead of growing tall rows.
// A column of long text opts back in with `className: 'whitespace-normal'`, or clips with `truncate`.
const cellClasses = 'whitespace-nowrap px-3 py-2 align-middle';
// Varied placeholder widths read as text rather than as a grid of bars.
const skeletonWidths = ['w-3/4', 'w-1/2', 'w-2/3', 'w-5/6'];

function columnStyle<T>(column: DataTableColumn<T>): CSSProperties | undefined {
  if (!column.truncate && column.minWidth === undefined) return undefined;
  return { minWidth: `${column.minWidth ?? 8}rem` };
}

function ariaSort(active: boolean, direction: SortDirection | undefined) {
  if (!active) return 'none' as const;
  return direction === 'asc' ? ('ascending' as const) : ('descending' as const);
}

/**
 * A table of server-side data: the parent owns page, sort and selection, and fetches. Sort headers are
 * buttons (aria-sort on the header cell), rows that open something hold a real link (`rowLink`),
 * long text clips rather than pushing columns out of view (`truncate`), the table scrolls sideways
 * when it still does not fit, and while loading, skeleton rows hold the page's height so nothing jumps.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { label, columns, rows, getRowId, loading, toolbar, rowLink, onRowClick, onSelectionChange } = props;
  const { bulkActions } = props;
  const primaryId = (columns.find((c) => c.primary) ?? columns[0])?.id;
  const [ownSelection, setOwnSelection] = useState<string[]>([]);
  const format = useFormat();
  const selectable = onSelectionChange !== undefined;
  const selected = props.selectedIds ?? ownSelection;
  const setSelected = (ids: string[]) => {
    if (props.selectedIds === undefined) setOwnSelection(ids);
    onSelectionChange?.(ids);
  };

  const pageIds = rows.map(getRowId);
  const selectedOnPage = pageIds.filter((id) => selected.includes(id)).length;
  const allState =
    pageIds.length > 0 && selectedOnPage === pageIds.length
      ? true
      : selectedOnPage > 0
        ? 'indeterminate'
        : false;
  const toggleAll = () =>
    setSelected(
      allState === true
        ? selected.filter((id) => !pageIds.includes(id))
        : [...selected, ...pageIds.filter((id) => !selected.includes(id))],
    );
  const toggleOne = (id: string) =>
    setSelected(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]);

  const sortBy = (column: DataTableColumn<T>) => {
    const first: SortDirection = column.sortDescFirst ? 'desc' : 'asc';
    const next: SortDirection =
      props.sort === column.id ? (props.direction === 'asc' ? 'desc' : 'asc') : first;
    props.onSortChange?.(column.id, next);
  };

  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(scroller);

  const span = columns.length + (selectable ? 1 : 0);
  const skeletonCount = Math.max(1, Math.min(props.pageSize, rows.length || 10));

  return (
    <div
      className={cn('overflow-hidden rounded-lg border border-border bg-surface shadow-xs', props.className)}
    >
      {toolbar ? (
        <div className="flex flex-wrap items-center gap-2 border-b border-border px-3 py-2">{toolbar}</div>
      ) : null}
      {selectable && selected.length > 0 ? (
        <div className="flex flex-wrap items-center gap-2 border-b border-border bg-primary/5 px-3 py-1.5">
          <p aria-live="polite" className="text-sm font-medium text-fg tabular-nums">
            {format.number(selected.length)} selected
          </p>
          <div className="flex flex-wrap items-center gap-2">{bulkActions?.(selected)}</div>
          <Button variant="ghost" size="sm" className="ml-auto" onClick={() => setSelected([])}>
            Clear selection
          </Button>
        </div>
      ) : null}
      {/* When the table is wider than its box, the box is a named region in the Tab order, so a
          keyboard can scroll it even when no row holds a link or button (WCAG 2.1.1). */}
      <div
        ref={scroller}
        className="relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-ring focus-visible:-outline-offset-2"
        {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
      >
        <table aria-label={label} aria-busy={loading || undefined} className="w-full border-collapse text-sm">
          <thead className="bg-muted/50">
            <tr className="border-b border-border">
              {selectable ? (
                <th scope="col" className="w-10 px-3 py-2">
                  <Checkbox
                    aria-label="Select all rows on this page"
                    checked={allState}
                    disabled={loading || rows.length === 0}
                    onCheckedChange={toggleAll}
                  />
                </th>
              ) : null}
              {columns.map((column) => {
                const active = props.sort === column.id;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    aria-sort={column.sortable ? ariaSort(active, props.direction) : undefined}
                    style={columnStyle(column)}
                    className={cn(
                      'h-9 whitespace-nowrap px-3 text-left text-xs font-medium text-muted-fg',
                      column.className,
                    )}
                  >
                    {column.sortable ? (
                      <button
                        type="button"
                        onClick={() => sortBy(column)}
                        className={cn(
                          '-mx-1.5 inline-flex h-7 items-center gap-1 rounded-md px-1.5 hover:bg-muted hover:text-fg',
                          'focus-visible:outline-2 focus-visible:outline-ring',
                          active && 'text-fg',
                        )}
                      >
                        {column.header}
                        {active && props.direction === 'asc' ? (
                          <ArrowUp aria-hidden="true" className="size-3.5" />
                        ) : active ? (
                          <ArrowDown aria-hidden="true" className="size-3.5" />
                        ) : (
                          <ChevronsUpDown aria-hidden="true" className="size-3.5 opacity-50" />
                        )}
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody onPointerOver={syncHoverTitle} onPointerMove={syncHoverTitle}>
            {loading ? (
              Array.from({ length: skeletonCount }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                <tr key={i} className="h-10 border-b border-border last:border-b-0">
                  {selectable ? (
                    <td className={cellClasses}>
                      <Skeleton className="size-4" />
                    </td>
                  ) : null}
                  {columns.map((column, c) => (
                    <td
                      key={column.id}
                      style={columnStyle(column)}
                      className={cn(cellClasses, column.className)}
                    >
                      <Skeleton
                        className={cn('h-4 max-w-40', skeletonWidths[(c + i) % skeletonWidths.length])}
                      />
                    </td>
                  ))}
                </tr>
              ))
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={span}>
                  {props.empty ?? (
                    <EmptyState icon={Inbox} title="No results" message="Nothing matches this view." />
                  )}
                </td>
              </tr>
            ) : (
              rows.map((row) => {
                const id = getRowId(row);
                const isSelected = selected.includes(id);
                const link = rowLink?.(row) ?? undefined;
                const opens = link !== undefined || onRowClick !== undefined;
                return (
                  <tr
                    key={id}
                    data-row-actions={opens ? '' : undefined}
                    className={cn(
                      'h-10 border-b border-border transition-colors last:border-b-0',
                      isSelected ? 'bg-primary/5' : 'hover:bg-muted/50',
                      // The containing block of the stretched link (RowAction).
                      opens && 'relative',
                    )}
                  >
                    {selectable ? (
                      // Above the stretched link: a click that misses the small box does not open the row.
                      <td className={cn(cellClasses, opens && 'relative z-[1]')}>
                        <Checkbox
                          aria-label={`Select ${props.getRowLabel?.(row) ?? 'row'}`}
                          checked={isSelected}
                          onCheckedChange={() => toggleOne(id)}
                        />
                      </td>
                    ) : null}
                    {columns.map((column) => {
                      const text = column.truncate ? (
                        <CellText lines={column.lines}>{column.cell(row)}</CellText>
                      ) : (
                        column.cell(row)
                      );
                      const main =
                        opens && column.id === primaryId ? (
                          <RowAction link={link} onClick={() => onRowClick?.(row)}>
                            {text}
                          </RowAction>
                        ) : (
                          text
                        );
                      return (
                        <td
                          key={column.id}
                          style={columnStyle(column)}
                          className={cn(cellClasses, column.className)}
                        >
                          {column.after ? (
                            <span className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
                              {main}
                              {column.after(row)}
                            </span>
                          ) : (
                            main
                          )}
                        </td>
                      );
                    })}
                  </tr>
                );
              })
            )}
          </tbody>
          {props.footer && !loading && rows.length > 0 ? (
            <tfoot className="border-t-2 border-border bg-muted/50 font-medium text-fg">
              <tr>
                {selectable ? <td className={cellClasses} /> : null}
                {columns.map((column, c) => {
                  const Cell = c === 0 ? 'th' : 'td';
                  return (
                    <Cell
                      key={column.id}
                      scope={c === 0 ? 'row' : undefined}
                      style={columnStyle(column)}
                      className={cn(cellClasses, c === 0 && 'text-left', column.className)}
                    >
                      {props.footer?.(column)}
                    </Cell>
                  );
                })}
              </tr>
            </tfoot>
          ) : null}
        </table>
        {loading ? (
          <span className="sr-only" role="status">
            Loading
          </span>
        ) : null}
      </div>
      <Pagination
        className="border-t border-border"
        page={props.page}
        pageSize={props.pageSize}
        total={props.total}
        totalCapped={props.totalCapped}
        onPageChange={props.onPageChange}
        onPageSizeChange={props.onPageSizeChange}
        pageSizeOptions={props.pageSizeOptions}
        leading={props.leading}
        disabled={loading}
      />
    </div>
  );
}

/** The slice of a URL-driven list's search that drives a DataTable's paging and sorting. */
export type TUrlPaging<S extends string> = {
  page?: number;
  pageSize?: number;
  sort?: S;
  direction?: SortDirection;
};

/**
 * DataTable's paging and sorting props for a list whose state lives in the URL: a new page size or
 * sort keeps the filters and starts again from page one (page: undefined).
 */
export function urlPagingProps<S extends string>(
  input: TUrlPaging<S>,
  setSearch: (next: TUrlPaging<S>) => void,
  pageSizeOptions: number[] = [25, 50, 100],
) {
  return {
    page: input.page ?? 1,
    pageSize: input.pageSize ?? pageSizeOptions[0] ?? 25,
    sort: input.sort,
    direction: input.direction,
    // Page one is the list's default: the URL leaves it out.
    onPageChange: (page: number) => setSearch({ page: page > 1 ? page : undefined }),
    onPageSizeChange: (pageSize: number) => setSearch({ pageSize, page: undefined }),
    onSortChange: (sort: string, direction: SortDirection) =>
      setSearch({ sort: sort as S, direction, page: undefined }),
    pageSizeOptions,
  };
}
