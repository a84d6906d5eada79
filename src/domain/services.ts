import { z } from 'zod';
import { BILLING_MODES, FEE_TRIGGERS } from './billing/constants';
import { ZTaxCode } from './billing/schemas';
import { ZPercentText } from './billing/wip';
import { zNumber, zString } from './fields';
import { ZPageInput } from './pagination';
// The codes alone: the services screens need not load the catalogue (filing-codes.ts says why).
import { FILING_CODE_LIST } from './statutory/filing-codes';

// The firm's service catalogue (/admin/services): what the practice does for its clients.

/** The same values as the services.frequency column. */
export const SERVICE_FREQUENCIES = ['one_time', 'monthly', 'quarterly', 'half_yearly', 'yearly'] as const;
export type TServiceFrequency = (typeof SERVICE_FREQUENCIES)[number];

export const FREQUENCY_LABELS: Record<TServiceFrequency, string> = {
  one_time: 'One-time',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  half_yearly: 'Half-yearly',
  yearly: 'Yearly',
};

export type TDueDateRule = { dayOfMonth: number; monthsAfterPeriod: number };

export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  const suffix = { 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** "20th of the month after the period", in the words a person would use. */
export function dueDateRulePreview(rule: TDueDateRule | null | undefined): string {
  if (!rule) return 'No due date';
  const day = rule.dayOfMonth === 31 ? 'Last day' : ordinal(rule.dayOfMonth);
  const month =
    rule.monthsAfterPeriod === 0
      ? 'the last month of the period'
      : rule.monthsAfterPeriod === 1
        ? 'the month after the period'
        : `the ${ordinal(rule.monthsAfterPeriod)} month after the period`;
  return `${day} of ${month}`;
}

const MONEY = /^\d{1,10}(\.\d{1,2})?$/;
const MONEY_MESSAGE = 'Enter an amount like 1500 or 1500.50 (not negative, at most 2 decimals)';

/** A money amount as the database keeps it: a decimal string with two places, never negative. */
export const ZMoney = zString()
  .trim()
  .regex(MONEY, MONEY_MESSAGE)
  .transform((v) => Number(v).toFixed(2));

/** An optional money field from a form: '' means none. */
export const ZOptionalMoney = zString()
  .trim()
  .refine((v) => v === '' || MONEY.test(v), MONEY_MESSAGE)
  .nullish()
  .transform((v) => (v ? Number(v).toFixed(2) : null));

export const ZDueDateRule = z.object({
  dayOfMonth: zNumber({ error: 'Enter a day of the month' })
    .int('Day must be a whole number')
    .min(1, 'Day must be between 1 and 31')
    .max(31, 'Day must be between 1 and 31'),
  monthsAfterPeriod: zNumber({ error: 'Enter the months after the period' })
    .int('Months must be a whole number')
    .min(0, 'Months after the period must be between 0 and 12')
    .max(12, 'Months after the period must be between 0 and 12'),
});

const optionalText = (max: number, label: string) =>
  zString()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const ZServiceInput = z.object({
  name: zString().trim().min(1, 'Enter the service name').max(120, 'Name must be at most 120 characters'),
  code: zString()
    .trim()
    .min(1, 'Enter a short code, e.g. GST-M')
    .max(32, 'Code must be at most 32 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'Code may use letters, digits, dot, dash and underscore')
    .transform((v) => v.toUpperCase()),
  category: optionalText(80, 'Category'),
  description: optionalText(2000, 'Description'),
  frequency: z.enum(SERVICE_FREQUENCIES, { error: 'Choose how often the service recurs' }),
  dueDateRule: ZDueDateRule.nullish().transform((v) => v ?? null),
  defaultFee: ZOptionalMoney,
  /** The template its engagements' projects start from (recurring work); none: no projects are generated. */
  projectTemplateId: z
    .uuid('Choose a project template from the list')
    .nullish()
    .transform((v) => v ?? null),
  /**
   * A statutory filing of the catalogue (issue 39): linked, the service takes the filing's frequency,
   * periods and due dates (and the firm's recorded extensions); the typed rule is then not used.
   * Left out, an edit keeps the link; null unlinks.
   */
  statutoryFilingCode: z
    .enum(FILING_CODE_LIST as [string, ...string[]], 'Choose a filing from the catalogue')
    .nullish(),
  // Billing (issue 35): what its engagements start with, and what its invoice lines carry. Left
  // out, a new service with a default fee is billed as a fixed fee and one without by the hour, and
  // an edit keeps what the service had.
  billingMode: z.enum(BILLING_MODES, { error: 'Choose how the service is billed' }).optional(),
  feeTrigger: z.enum(FEE_TRIGGERS, { error: 'Choose when its fee is billed' }).optional(),
  taxCode: ZTaxCode.optional(),
  /** Percent as typed ("18"); empty: the firm's default rate. */
  taxRate: ZPercentText.optional(),
});
export type TServiceInput = z.input<typeof ZServiceInput>;
export type TServiceValues = z.output<typeof ZServiceInput>;

export const ZServiceRef = z.object({ serviceId: z.uuid('Choose a service from the list') });
export const ZServiceUpdate = ZServiceInput.extend({ serviceId: z.uuid('Choose a service from the list') });

export const SERVICE_SORTS = ['name', 'code', 'category', 'clients'] as const;
export const ZServiceListInput = ZPageInput.extend({
  sort: z.enum(SERVICE_SORTS).default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  archived: z.boolean().default(false),
});
export type TServiceListInput = z.input<typeof ZServiceListInput>;
export type TServiceListQuery = z.output<typeof ZServiceListInput>;

export const ZServiceClientsInput = ZPageInput.pick({ page: true, pageSize: true }).extend({
  serviceId: z.uuid('Choose a service from the list'),
});
export type TServiceClientsQuery = z.output<typeof ZServiceClientsInput>;
