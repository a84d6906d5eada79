import { z } from 'zod';
import { ZPageInput } from './pagination';

export const SYSTEM_LOG_SORTS = ['at', 'action', 'recordType'] as const;

export const ZSystemLogListInput = ZPageInput.extend({
  sort: z.enum(SYSTEM_LOG_SORTS).default('at'),
  actorId: z.uuid('Choose a member from the list').optional(),
  recordType: z.string().trim().max(64).optional(),
  action: z.string().trim().max(64).optional(),
  from: z.date().optional(),
  to: z.date().optional(),
});
export type TSystemLogListInput = z.input<typeof ZSystemLogListInput>;
export type TSystemLogListQuery = z.output<typeof ZSystemLogListInput>;
