import { z } from 'zod';
import { zInt, zText } from './fields';
import { ZPageInput } from './pagination';
import { MAX_RATE, RATE_TOO_HIGH } from './rate-text';

// Hourly rates are whole numbers in the currency's minor unit (paise, cents; yen have none), so
// money never passes through a float on its way to the database. A person types major units
// ("1500.50"); parseRate turns that into minor units with the currency's own number of digits.

/**
 * A member's cost (`cost`, what an hour of theirs costs the firm) and billing rates by member,
 * client, service or task. The most specific billing rate wins: task → service → client → member.
 */
export const RATE_KINDS = ['cost', 'member', 'client', 'service', 'task'] as const;
export type TRateKind = (typeof RATE_KINDS)[number];

export const RATE_KIND_LABELS: Record<TRateKind, string> = {
  cost: 'Cost rate',
  member: 'Billing rate',
  client: 'Billing rate',
  service: 'Billing rate',
  task: 'Billing rate',
};

export { MAX_RATE, parseRate, RATE_FORMAT, RATE_TOO_HIGH, rateText } from './rate-text';

/** A rate in minor units; null clears it. */
export const ZRateValue = zInt({ error: 'Give the rate as a whole number of the smallest unit' })
  .min(0, 'A rate cannot be negative')
  .max(MAX_RATE, RATE_TOO_HIGH);

export const ZRateSet = z.object({
  kind: z.enum(RATE_KINDS, { error: 'Choose which rate to set' }),
  refId: z.uuid('This link is not valid'),
  rate: ZRateValue.nullable(),
});
export type TRateSet = z.output<typeof ZRateSet>;

/** The lists of the rates screen: members, clients or services, a page at a time. */
export const ZRateListInput = ZPageInput.pick({ page: true, pageSize: true }).extend({
  search: zText({ max: 100, label: 'Search' }).optional(),
});

export const ZTaskRateInput = z.object({ taskId: z.uuid('This task link is not valid') });

/** What an entry earns or costs at an hourly rate: minutes × rate / 60, in minor units. */
export const amountOf = (minutes: number, rate: number) => Math.round((minutes * rate) / 60);
