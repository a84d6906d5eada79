import { SYSTEM_LOG_SORTS } from '@domain/system-log';
import { z } from 'zod';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);
const text = z.string().trim().max(200).optional().catch(undefined);

/** The system log screen's URL: a bad or stale value falls back to its default rather than failing. */
export const ZSystemLogSearch = z.object({
  page: z.coerce.number().int().min(1).default(1).catch(1),
  pageSize: z.coerce
    .number()
    .pipe(z.union([z.literal(25), z.literal(50), z.literal(100)]))
    .default(50)
    .catch(50),
  sort: z.enum(SYSTEM_LOG_SORTS).default('at').catch('at'),
  direction: z.enum(['asc', 'desc']).default('desc').catch('desc'),
  search: text,
  actorId: z.uuid().optional().catch(undefined),
  recordType: text,
  action: text,
  from: day,
  to: day,
});
export type TSystemLogSearch = z.output<typeof ZSystemLogSearch>;
