import { z } from 'zod';
import { BILLING_MODES, FEE_TRIGGERS } from './billing/constants';
import { ZBillingDate } from './billing/schemas';
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
  // The fee arrangement (billing). Left out, a new engagement takes its service's, and an edit
  // keeps what the engagement had.
  billingMode: z.enum(BILLING_MODES, { error: 'Choose how the engagement is billed' }).optional(),
  feeTrigger: z.enum(FEE_TRIGGERS, { error: 'Choose when the fee is billed' }).optional(),
  /** Fixed fees are due for periods from this day; empty: from the start date; left out: unchanged. */
  billFrom: zString()
    .trim()
    .refine((v) => v === '' || ZBillingDate.safeParse(v).success, 'Choose a day between 2000 and 2100')
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null)),
});

type TDates = { startDate: string; endDate: string | null; billFrom?: string | null };
type TArrangement = { billingMode?: string; fee: string | null };
const endNotBeforeStart = (v: TDates) => !v.endDate || v.endDate >= v.startDate;
const endMessage = { message: 'The end date cannot be before the start date', path: ['endDate'] };
const billFromNotBeforeStart = (v: TDates) => !v.billFrom || v.billFrom >= v.startDate;
const billFromMessage = {
  message: 'Billing cannot start before the engagement does',
  path: ['billFrom'],
};
// A fixed fee per period with no fee would leave its time "covered" by nothing.
const fixedHasFee = (v: TArrangement) => v.billingMode !== 'fixed' || (!!v.fee && Number(v.fee) > 0);
const feeMessage = { message: 'A fixed fee per period needs the fee', path: ['fee'] };

export const ZEngagementInput = ZEngagementFields.refine(endNotBeforeStart, endMessage)
  .refine(billFromNotBeforeStart, billFromMessage)
  .refine(fixedHasFee, feeMessage);
export type TEngagementInput = z.input<typeof ZEngagementInput>;

export const ZEngagementCreate = ZEngagementFields.extend({ clientId: z.uuid('Choose a client') })
  .refine(endNotBeforeStart, endMessage)
  .refine(billFromNotBeforeStart, billFromMessage)
  .refine(fixedHasFee, feeMessage);
export const ZEngagementUpdate = ZEngagementFields.omit({ serviceId: true })
  .extend({ engagementId: z.uuid('Choose an engagement') })
  .refine(endNotBeforeStart, endMessage)
  .refine(billFromNotBeforeStart, billFromMessage)
  .refine(fixedHasFee, feeMessage);
export const ZEngagementRef = z.object({ engagementId: z.uuid('Choose an engagement') });
export const ZEngagementEnd = z.object({ engagementId: z.uuid('Choose an engagement'), endDate: ZIsoDate });
export const ZEngagementListInput = z.object({
  clientId: z.uuid('Choose a client'),
  page: zNumber().int().min(1).default(1),
  pageSize: zNumber().int().min(1).max(100).default(25),
});
