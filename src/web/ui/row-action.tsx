import { Link, type LinkOptions } from '@tanstack/react-router';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { cn } from './cn';

/**
 * Where a table row leads, typed against the route tree: `{ to: '/clients/$id', params: { id } }`,
 * or the list itself with a drawer open, `{ to: '.', search: (prev) => ({ ...prev, task: id }) }`.
 */
export type DataTableRowLink = Pick<LinkOptions, 'to' | 'params' | 'search' | 'replace'>;

// The row's link or button is stretched over the whole row by its ::after (the row is its containing
// block), so a click anywhere on the row is a click on it; the row's own controls sit above it
// (base.css, [data-row-actions]). Its focus ring is drawn round the row, on the ::after.
const stretched =
  "block text-left after:absolute after:inset-0 after:content-[''] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-ring";

/** Up and down walk the rows' links, so a long list is not a long run of Tab presses. */
function walkRows(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const row = event.currentTarget.closest('tr');
  let next = event.key === 'ArrowDown' ? row?.nextElementSibling : row?.previousElementSibling;
  while (next) {
    const target = next.querySelector<HTMLElement>('[data-row-action]');
    if (target) {
      event.preventDefault();
      target.focus();
      return;
    }
    next = event.key === 'ArrowDown' ? next.nextElementSibling : next.previousElementSibling;
  }
}

/** The row's primary cell content as the link or button that opens the row. */
export function RowAction({
  link,
  onClick,
  children,
}: {
  link?: DataTableRowLink;
  onClick?: () => void;
  children: ReactNode;
}) {
  if (link) {
    return (
      <Link {...link} data-row-action="" className={stretched} onKeyDown={walkRows}>
        {children}
      </Link>
    );
  }
  return (
    <button
      type="button"
      data-row-action=""
      className={cn(stretched, 'cursor-pointer')}
      onClick={onClick}
      onKeyDown={walkRows}
    >
      {children}
    </button>
  );
}

/** A truncating cell's text is clipped when it runs past its box. */
function isClipped(el: Element) {
  return el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
}

/**
 * The tooltip of what lies under the pointer within a row: the title of the element there, or the
 * full text of a clipped cell. Null when there is nothing to show.
 */
function tooltipAt(row: Element, x: number, y: number, skip: Element | null): string | null {
  // Optional: not every DOM has it (happy-dom in the unit tests).
  for (const el of document.elementsFromPoint?.(x, y) ?? []) {
    if (el === skip || !row.contains(el) || el === row) continue;
    const cell = el.closest('td');
    for (let node: Element | null = el; node && node !== cell; node = node.parentElement) {
      if (node === skip) continue;
      const title = node.getAttribute('title');
      if (title) return title;
      if (node.hasAttribute('data-clip')) return isClipped(node) ? (node.textContent ?? '') : null;
    }
    return null;
  }
  return null;
}

/**
 * Keeps the full text of clipped cells on hover. In a row with a stretched link or button the
 * pointer is always over that control, so its title follows what lies beneath it; elsewhere a clipped
 * cell gets its own title.
 */
export function syncHoverTitle(event: PointerEvent<HTMLElement>) {
  const row = (event.target as Element).closest('tr');
  if (!row) return;
  const action = row.querySelector('[data-row-action]');
  if (action) {
    const title = tooltipAt(row, event.clientX, event.clientY, action);
    if (title) action.setAttribute('title', title);
    else action.removeAttribute('title');
    return;
  }
  const clip = (event.target as Element).closest('[data-clip]');
  if (clip && !clip.hasAttribute('title') && isClipped(clip))
    clip.setAttribute('title', clip.textContent ?? '');
}
