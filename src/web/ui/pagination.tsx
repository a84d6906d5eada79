import { pageCount } from '@domain/pagination';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';
import { cn } from './cn';
import { useFormat } from './format';
import { Select } from './select';

export const PAGE_SIZE_OPTIONS = [25, 50, 100];

export type PaginationProps = {
  /** 1-based, as the server's page input. */
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** Without it the page-size select is hidden. */
  onPageSizeChange?: (pageSize: number) => void;
  pageSizeOptions?: number[];
  /** Items listed on the first page ahead of the paged `total` (sub-folders before files). */
  leading?: number;
  /** `total` is where the server stopped counting: there are more ("of 10,000+"). */
  totalCapped?: boolean;
  /** Greys the buttons while a page is loading, so a double click does not skip one. */
  disabled?: boolean;
  className?: string;
};

/**
 * "1–50 of 1,234" for page 1 of a 1,234-row list, in the firm's digits; "0 results" for none.
 * `leading` items come before the first page's `pageSize` (a folder's sub-folders before its files)
 * and count too.
 */
export function rangeText(
  page: number,
  pageSize: number,
  total: number,
  number: (n: number) => string,
  leading = 0,
  capped = false,
): string {
  const all = leading + total;
  if (all <= 0) return '0 results';
  const first = page <= 1 ? 1 : Math.min(leading + (page - 1) * pageSize + 1, all);
  const last = Math.min(leading + page * pageSize, all);
  return `${number(first)}–${number(last)} of ${number(all)}${capped ? '+' : ''}`;
}

export function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  onPageSizeChange,
  pageSizeOptions = PAGE_SIZE_OPTIONS,
  leading = 0,
  totalCapped = false,
  disabled,
  className,
}: PaginationProps) {
  const pages = pageCount(total, pageSize);
  const { number } = useFormat();
  // A page size the caller uses but the options lack (e.g. from a URL) still shows as selected.
  const sizes = pageSizeOptions.includes(pageSize)
    ? pageSizeOptions
    : [...pageSizeOptions, pageSize].sort((a, b) => a - b);
  return (
    <nav
      aria-label="Pagination"
      className={cn(
        'flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-3 py-2 text-sm',
        className,
      )}
    >
      <p aria-live="polite" className="text-muted-fg tabular-nums">
        {rangeText(page, pageSize, total, number, leading, totalCapped)}
      </p>
      <div className="flex items-center gap-3">
        {onPageSizeChange ? (
          <div className="flex items-center gap-2">
            <span aria-hidden="true" className="hidden text-muted-fg sm:inline">
              Rows per page
            </span>
            <Select
              aria-label="Rows per page"
              size="sm"
              className="w-[4.5rem]"
              value={String(pageSize)}
              onValueChange={(v) => onPageSizeChange(Number(v))}
              options={sizes.map((s) => ({ value: String(s), label: String(s) }))}
            />
          </div>
        ) : null}
        <span className="hidden text-muted-fg tabular-nums md:inline">
          Page {number(Math.min(page, pages))} of {number(pages)}
          {totalCapped ? '+' : ''}
        </span>
        <div className="flex items-center gap-1">
          <Button
            variant="outline"
            size="sm"
            aria-label="Previous page"
            disabled={disabled || page <= 1}
            onClick={() => onPageChange(page - 1)}
          >
            <ChevronLeft aria-hidden="true" />
            <span className="hidden sm:inline">Previous</span>
          </Button>
          <Button
            variant="outline"
            size="sm"
            aria-label="Next page"
            disabled={disabled || page >= pages}
            onClick={() => onPageChange(page + 1)}
          >
            <span className="hidden sm:inline">Next</span>
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
    </nav>
  );
}
