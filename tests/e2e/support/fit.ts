import type { Page } from 'playwright-core';

/**
 * What a screen cuts off at its width (1280 px for the staff screens): a table that scrolls
 * sideways, a column past the edge of its table's box or of the window, a cell whose content
 * spills out of it, and the page itself wider than the window. Clipping on purpose (a `truncate`
 * column's `CellText`, the full text on hover) is not a cut: the cell's content fits its box.
 * A region meant to scroll (a grid of periods, the load heat map) says so with `data-scrolls`.
 * Answers one line per fault, naming the table and the column, so a failure reads as a to-do.
 */
export function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const visible = (el: Element) => el.getClientRects().length > 0;
    const nameOf = (table: HTMLTableElement) =>
      table.getAttribute('aria-label') ??
      table.caption?.textContent?.trim() ??
      table.closest('[role="dialog"]')?.querySelector('h2')?.textContent?.trim() ??
      'a table';
    const scrollerOf = (el: Element): HTMLElement | null => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const x = getComputedStyle(p).overflowX;
        if (x === 'auto' || x === 'scroll' || x === 'hidden' || x === 'clip') return p;
      }
      return null;
    };
    const overPage = document.documentElement.scrollWidth - window.innerWidth;
    if (overPage > 1) faults.push(`the page is ${overPage} px wider than the window`);

    for (const table of document.querySelectorAll('table')) {
      if (!visible(table) || table.closest('[data-scrolls]')) continue;
      const name = nameOf(table);
      const scroller = scrollerOf(table);
      if (scroller && scroller.scrollWidth > scroller.clientWidth + 1) {
        faults.push(`${name} scrolls sideways by ${scroller.scrollWidth - scroller.clientWidth} px`);
      }
      const edge = Math.min(window.innerWidth, scroller?.getBoundingClientRect().right ?? window.innerWidth);
      const headers = [...table.querySelectorAll('thead th')].filter(visible);
      const columnName = (cell: HTMLTableCellElement) =>
        headers[cell.cellIndex]?.textContent?.trim() || `column ${cell.cellIndex + 1}`;
      for (const cell of table.querySelectorAll<HTMLTableCellElement>('th, td')) {
        if (!visible(cell)) continue;
        const right = cell.getBoundingClientRect().right;
        if (right > edge + 1) {
          faults.push(
            `${name}: "${columnName(cell)}" is cut at the edge (${Math.round(right - edge)} px out)`,
          );
        } else if (cell.scrollWidth > cell.clientWidth + 1) {
          faults.push(
            `${name}: "${columnName(cell)}" spills out of its cell by ${cell.scrollWidth - cell.clientWidth} px`,
          );
        }
      }
    }
    // One line per table and column is enough to act on.
    return [...new Set(faults)];
  });
}
