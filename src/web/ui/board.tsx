import { type ReactNode, useState } from 'react';
import { cn } from './cn';

// One board (columns of cards a person drags between, or moves from each card's own "Move to"
// menu from the keyboard), shared by the projects' status board and the stages board.

const DRAG_TYPE = 'text/board-card-id';

/** The board's drop target under the pointer, kept by the board so one column shows it at a time. */
export function useBoardDrop() {
  const [over, setOver] = useState<string | null>(null);
  return { over, setOver };
}

/**
 * A column: a labelled region with its heading and cards. `onDropCard` gets the id of the card
 * dropped on it (none: the column takes no drops, as for someone who may not move cards).
 */
export function BoardColumn({
  columnKey,
  label,
  heading,
  drop,
  onDropCard,
  className,
  data,
  empty,
  footer,
  children,
}: {
  columnKey: string;
  label: string;
  heading: ReactNode;
  drop: ReturnType<typeof useBoardDrop>;
  onDropCard?: (cardId: string) => void;
  className?: string;
  /** data-* attributes (the browser tests find columns by them). */
  data?: Record<`data-${string}`, string>;
  empty: boolean;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      {...data}
      className={cn(
        'flex min-h-40 flex-col gap-2 rounded-lg border border-border bg-muted/40 p-2',
        drop.over === columnKey && 'ring-2 ring-ring',
        className,
      )}
      onDragOver={(e) => {
        if (!onDropCard) return;
        e.preventDefault();
        drop.setOver(columnKey);
      }}
      onDragLeave={() => drop.setOver(null)}
      onDrop={(e) => {
        e.preventDefault();
        drop.setOver(null);
        const id = e.dataTransfer.getData(DRAG_TYPE);
        if (id && onDropCard) onDropCard(id);
      }}
    >
      <h2 className="flex items-center justify-between px-1 text-sm font-semibold text-fg">{heading}</h2>
      {empty ? <p className="px-1 py-4 text-center text-xs text-muted-fg">No projects</p> : null}
      {children}
      {footer ? <p className="px-1 text-xs text-muted-fg">{footer}</p> : null}
    </section>
  );
}

/** A card: draggable when it may move; its content (a link, its "Move to" menu) is the caller's. */
export function BoardCard({
  cardId,
  draggable,
  testId,
  children,
}: {
  cardId: string;
  draggable: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <article
      draggable={draggable}
      onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, cardId)}
      className="flex flex-col gap-1.5 rounded-md border border-border bg-surface p-2.5 shadow-xs"
      data-testid={testId}
    >
      {children}
    </article>
  );
}
