import { z } from 'zod';
import { isIsoDate } from './days';
import { zNumber, zString } from './fields';
import { ZOptionalMoney } from './services';

// Engagements (/clients/{id}/services): a client takes a service from a date, for a fee.

export const ZIsoDate = zString().trim().refine(isIsoDate, 'Enter a date as YYYY-MM-DD');
const ZOptionalDate = zString()
  .trim()
  .refine((v) => v === '' || isIsoDate(v), 'Enter a date as YYYY-MM-DD')
  .nullish()
  .transform((v) => (v ? v : null));

export const ZEngagementFields = z.object({
  serviceId: z.uuid('Choose a service'),
  startDate: ZIsoDate,
  endDate: ZOptionalDate,
  fee: ZOptionalMoney,
  assigneeIds: z.array(z.uuid('Choose members from the list')).max(50, 'At most 50 assignees').default([]),
  notes: zString()
    .trim()
    .max(2000, 'Notes must be at most 2000 characters')
    .nullish()
    .transform((v) => (v ? v : null)),
});

const endNotBeforeStart = (v: { startDate: string; endDate: string | null }) =>
  !v.endDate || v.endDate >= v.startDate;
const endMessage = { message: 'The end date cannot be before the start date', path: ['endDate'] };

export const ZEngagementInput = ZEngagementFields.refine(endNotBeforeStart, endMessage);
export type TEngagementInput = z.input<typeof ZEngagementInput>;

export const ZEngagementCreate = ZEngagementFields.extend({ clientId: z.uuid('Choose a client') }).refine(
  endNotBeforeStart,
  endMessage,
);
export const ZEngagementUpdate = ZEngagementFields.omit({ serviceId: true })
  .extend({ engagementId: z.uuid('Choose an engagement') })
  .refine(endNotBeforeStart, endMessage);
export const ZEngagementRef = z.object({ engagementId: z.uuid('Choose an engagement') });
export const ZEngagementEnd = z.object({ engagementId: z.uuid('Choose an engagement'), endDate: ZIsoDate });
export const ZEngagementListInput = z.object({
  clientId: z.uuid('Choose a client'),
  page: zNumber().int().min(1).default(1),
  pageSize: zNumber().int().min(1).max(100).default(25),
});
