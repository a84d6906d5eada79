import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants';
import { zNumber, zString } from './fields';

/** The shape every server-side list takes: page window, sort and a free-text search. */
export const ZPageInput = z.object({
  page: zNumber().int().min(1, 'Page must be 1 or more').default(1),
  pageSize: zNumber()
    .int()
    .min(1, 'Page size must be at least 1')
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  sort: zString().max(64).optional(),
  direction: z.enum(['asc', 'desc']).default('desc'),
  search: zString().trim().max(200, 'Search must be at most 200 characters').optional(),
});
export type TPageInput = z.infer<typeof ZPageInput>;

/**
 * One page of a list. `totalCapped`: the list counted only up to LIST_COUNT_CAP rows, so `total` is
 * that many and the list holds more ("of 10,000+").
 */
export type TPage<T> = { rows: T[]; total: number; page: number; pageSize: number; totalCapped?: boolean };

/**
 * Where a large list stops counting: past it the count of every matching row (an index scan of the
 * whole firm's rows, 10 ms for 137,000 invoices) costs more than the page itself, and nobody pages
 * to the 201st page of 50 rather than filtering.
 */
export const LIST_COUNT_CAP = 10_000;

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
