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

export type TPage<T> = { rows: T[]; total: number; page: number; pageSize: number };

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
