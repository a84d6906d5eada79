import { z } from 'zod';
import { zId, zNumber, zText } from '../fields';
import { ZRequestDueDate } from './schemas';

// Client requests in the flow of work (issue 36): a project template's request, the bulk send from
// the client list, and what waits on clients. Shared by the forms and the procedures.

/** Most clients one bulk send reaches: one list page's selection, at most. */
export const MAX_BULK_CLIENTS = 200;
/** How far ahead of a project's due date its template may send the request. */
export const MAX_LEAD_DAYS = 366;

const zDays = (label: string) =>
  zNumber({ error: `Enter ${label}` })
    .int(`${label[0]?.toUpperCase()}${label.slice(1)} must be a whole number of days`)
    .min(0, `${label[0]?.toUpperCase()}${label.slice(1)} cannot be negative`)
    .max(MAX_LEAD_DAYS, `At most ${MAX_LEAD_DAYS} days`);

/**
 * A project template's request: null `requestTemplateId` takes it off. It is sent `leadDays` before
 * each project's due date and due back `dueDaysBefore` days before it, so the second is smaller.
 */
export const ZProjectTemplateRequest = z
  .object({
    projectTemplateId: zId('Choose a project template'),
    requestTemplateId: zId('Choose a request template').nullable(),
    leadDays: zDays('the days before the due date'),
    dueDaysBefore: zDays('the days the client has'),
  })
  .refine((v) => v.requestTemplateId === null || v.dueDaysBefore < v.leadDays, {
    path: ['dueDaysBefore'],
    message: 'The client’s due date must come after the request is sent: use fewer days than the lead time',
  });
export type TProjectTemplateRequest = z.input<typeof ZProjectTemplateRequest>;

/** The defaults the project template's form starts from: sent 30 days ahead, due 10 days before. */
export const DEFAULT_LEAD_DAYS = 30;
export const DEFAULT_DUE_DAYS_BEFORE = 10;

export const ZProjectTemplateRef = z.object({ projectTemplateId: zId('Choose a project template') });

/** Selected clients → one request each, from a template, to each client's portal users. */
export const ZRequestBulkSend = z.object({
  clientIds: z
    .array(zId())
    .min(1, 'Choose the clients to send it to')
    .max(MAX_BULK_CLIENTS, `Send to at most ${MAX_BULK_CLIENTS} clients at once`),
  templateId: zId('Choose a template'),
  title: zText({ max: 200, label: 'The title' }).default(''),
  dueDate: ZRequestDueDate,
  message: zText({ max: 4000, label: 'The message' }).default(''),
});
export type TRequestBulkSend = z.input<typeof ZRequestBulkSend>;

/** Why a client was left out of a bulk send. */
export const BULK_SKIP_REASONS = {
  no_portal_user: 'No portal user: invite someone to the portal first',
} as const;
export type TBulkSkipReason = keyof typeof BULK_SKIP_REASONS;

export const ZWaitingOnClients = z.object({
  limit: z.number().int().min(1).max(50).default(8),
});

/** "in 30 days before the due date", for the project template's screen. */
export function projectRequestLabel(leadDays: number, dueDaysBefore: number): string {
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  const due = dueDaysBefore === 0 ? 'on the project’s due date' : `${days(dueDaysBefore)} before it`;
  return `Sent ${days(leadDays)} before each project’s due date, due back ${due}`;
}
