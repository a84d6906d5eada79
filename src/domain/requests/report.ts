import { z } from 'zod';
import { zId } from '../fields';
import { ZPageInput } from '../pagination';
import { OUTSTANDING_SORTS } from './report-constants';

export { OUTSTANDING_SORTS } from './report-constants';

// "Requests outstanding" (issue 36, item 7): the open requests by client, by age since they were
// sent, and by the member who sent them. Shared by the report's procedure, its export and its screen.

/** Days since sent: 0–7, 8–30, 31–60, over 60. */
export const AGE_BANDS = [
  { key: 'week', label: '0–7 days', min: 0, max: 7 },
  { key: 'month', label: '8–30 days', min: 8, max: 30 },
  { key: 'twoMonths', label: '31–60 days', min: 31, max: 60 },
  { key: 'older', label: 'Over 60 days', min: 61, max: null },
] as const;
export type TAgeBand = (typeof AGE_BANDS)[number]['key'];

export function ageBandOf(days: number): TAgeBand {
  return (AGE_BANDS.find((b) => days >= b.min && (b.max === null || days <= b.max)) ?? AGE_BANDS[3]).key;
}

export const ZRequestsOutstanding = ZPageInput.extend({
  sort: z.enum(OUTSTANDING_SORTS).default('open'),
  /** Only the requests this member sent. */
  senderId: zId().optional(),
});
export type TRequestsOutstandingInput = z.input<typeof ZRequestsOutstanding>;
