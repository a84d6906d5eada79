import { z } from 'zod';
import { zCoerceDate, zDate, zString } from './fields';
import { ZPageInput } from './pagination';
import { SYSTEM_LOG_SORTS } from './system-log-constants';

export { SYSTEM_LOG_SORTS } from './system-log-constants';

const filterFields = {
  sort: z.enum(SYSTEM_LOG_SORTS).default('at'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  search: ZPageInput.shape.search,
  actorId: z.uuid('Choose a member from the list').optional(),
  recordType: zString().trim().max(64).optional(),
  action: zString().trim().max(64).optional(),
};

const fromBeforeTo = (value: { from?: Date; to?: Date }) =>
  !value.from || !value.to || value.from <= value.to;
const fromBeforeToError = { message: 'The start date must be on or before the end date', path: ['to'] };

export const ZSystemLogListInput = ZPageInput.extend({
  ...filterFields,
  from: zDate().optional(),
  to: zDate().optional(),
}).refine(fromBeforeTo, fromBeforeToError);
export type TSystemLogListInput = z.input<typeof ZSystemLogListInput>;
export type TSystemLogListQuery = z.output<typeof ZSystemLogListInput>;

/** The filter of a CSV export, as the URL's query string carries it (dates as ISO instants). */
export const ZSystemLogExportQuery = z
  .object({
    ...filterFields,
    from: zCoerceDate({ error: 'The start date is not a date' }).optional(),
    to: zCoerceDate({ error: 'The end date is not a date' }).optional(),
  })
  .refine(fromBeforeTo, fromBeforeToError);
export type TSystemLogFilter = z.output<typeof ZSystemLogExportQuery>;

/** The URL of the CSV export of a filter (the web app fetches it with the staff token). */
export const SYSTEM_LOG_EXPORT_PATH = '/api/systemlog/export.csv';

export function systemLogExportSearch(filter: Partial<Record<keyof TSystemLogFilter, unknown>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, value instanceof Date ? value.toISOString() : String(value));
  }
  return params.toString();
}

/** The entry of a document tree set up the first time something needs it (a screen, an upload). */
export const TREE_SETUP_ACTION = 'documents.tree.create';

/**
 * Entries the product writes while setting itself up, which nobody did: the system log keeps them
 * (every change has its entry), the home's Recent activity leaves them out.
 */
export const HOUSEKEEPING_ACTIONS: readonly string[] = [TREE_SETUP_ACTION];
