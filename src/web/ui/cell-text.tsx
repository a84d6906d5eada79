import type { ReactNode } from 'react';
import { cn } from './cn';

// Text that may break between any two letters adds nothing to its column's minimum width, so a
// table narrows such a column (down to the column's minWidth) before it overflows, while the text
// still asks for its full width when there is room; and the ellipsis comes at the column's edge,
// not after the last whole word. Two lines break between words where they can.
const clipClasses = {
  1: 'line-clamp-1 whitespace-normal break-all',
  2: 'line-clamp-2 whitespace-normal [overflow-wrap:anywhere]',
};

/**
 * A line (or two) of a table cell's text, clipped with an ellipsis when the column is narrower; the
 * DataTable shows the full text on hover. A `truncate` column wraps its cells in one; a cell of
 * several lines (a name over a description) uses one per line, in a column with a `minWidth`.
 */
export function CellText({
  lines = 1,
  className,
  children,
}: {
  lines?: 1 | 2;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span data-clip="" className={cn(clipClasses[lines], className)}>
      {children}
    </span>
  );
}
