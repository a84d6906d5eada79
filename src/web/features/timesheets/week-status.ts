import type { TWeekStatus } from '@domain/timesheets';

export const WEEK_STATUS_TEXT: Record<TWeekStatus, string> = {
  open: 'Not submitted',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Sent back',
};
