import { z } from 'zod';
import { isIsoDate } from '../days';
import { zId, zText } from '../fields';
import { ZPageInput } from '../pagination';
import { ZAnswerValue } from './answers';
import { ZChaseSchedule } from './chase';
import { MAX_RECIPIENTS, REQUEST_LIST_STATUS } from './constants';

export { REQUEST_LIST_STATUS } from './constants';

import { ZSections } from './items';

// Client requests' inputs (issue 36), shared by the forms and the procedures.

export const ZRequestDueDate = zText({ max: 10, min: 1, label: 'The due date' })
  .refine(isIsoDate, 'Enter a date as YYYY-MM-DD')
  .refine((d) => d >= '2000-01-01' && d <= '2100-12-31', 'Choose a date between 2000 and 2100');

export const ZRequestTemplateSave = z.object({
  templateId: zId().optional(),
  name: zText({ max: 120, min: 1, label: 'The name' }),
  description: zText({ max: 1000, label: 'The description' }).default(''),
  sections: ZSections,
});
export type TRequestTemplateSave = z.input<typeof ZRequestTemplateSave>;

export const ZRequestTemplateRef = z.object({ templateId: zId() });

export const ZRequestCreate = z.object({
  clientId: zId('Choose a client'),
  /** The project it is for (sent from the project's page): the client's portal gets a to-do for it. */
  projectId: zId().optional(),
  /** The template it starts from, named in the request's history; its items are in `sections`. */
  templateId: zId().optional(),
  title: zText({ max: 200, min: 1, label: 'The title' }),
  dueDate: ZRequestDueDate,
  recipientIds: z
    .array(zId())
    .min(1, 'Choose who receives it')
    .max(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} people`),
  message: zText({ max: 4000, label: 'The message' }).default(''),
  sections: ZSections,
  /** false keeps it a draft the firm sends later. */
  send: z.boolean().default(true),
  /** Its reminder schedule; absent: the firm's default. */
  chase: ZChaseSchedule.optional(),
});
export type TRequestCreate = z.input<typeof ZRequestCreate>;

/** A draft edited for its client before it is sent: everything but the client (send: save and send). */
export const ZRequestDraftUpdate = ZRequestCreate.omit({ clientId: true, templateId: true }).extend({
  requestId: zId(),
  send: z.boolean().default(false),
});
export type TRequestDraftUpdate = z.input<typeof ZRequestDraftUpdate>;

export const ZRequestListInput = ZPageInput.extend({
  status: z.enum(REQUEST_LIST_STATUS).optional(),
  clientId: zId().optional(),
  overdue: z.boolean().optional(),
  /** A project's requests (its page), or the one made with a portal to-do (the task drawer). */
  projectId: zId().optional(),
  taskId: zId().optional(),
});
export type TRequestListInput = z.input<typeof ZRequestListInput>;

export const ZRequestRef = z.object({ requestId: zId() });
export const ZRequestClientRef = z.object({ clientId: zId('Choose a client') });

export const ZItemReview = z
  .object({
    requestId: zId(),
    itemId: zId(),
    decision: z.enum(['accepted', 'returned']),
    reason: zText({ max: 1000, label: 'The reason' }).default(''),
  })
  .refine((r) => r.decision === 'accepted' || r.reason.length > 0, {
    path: ['reason'],
    message: 'Tell the client what to fix',
  });

export const ZRequestCancel = z.object({
  requestId: zId(),
  reason: zText({ max: 1000, label: 'The reason' }).default(''),
});

// The portal's inputs: the client comes first (portalClientProcedure checks the session reaches it).

export const ZPortalRequestList = ZPageInput.extend({ open: z.boolean().optional() });
export const ZPortalRequestRef = z.object({ requestId: zId() });
export const ZPortalAnswer = z.object({ requestId: zId(), itemId: zId(), value: ZAnswerValue });
export const ZPortalNotApplicable = z.object({
  requestId: zId(),
  itemId: zId(),
  /** null takes "not applicable" back. */
  reason: zText({ max: 1000, min: 1, label: 'The reason' }).nullable(),
});
export const ZPortalRemoveFile = z.object({ requestId: zId(), itemId: zId(), fileId: zId() });
