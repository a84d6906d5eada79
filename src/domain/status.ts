// Work-item statuses and the derived OVERDUE (SPEC.md §4).

export const STORED_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW', 'COMPLETED'] as const;
export type TStoredStatus = (typeof STORED_STATUSES)[number];
export type TDisplayStatus = TStoredStatus | 'OVERDUE' | 'UNKNOWN';

export type TBadgeColour = 'grey' | 'blue' | 'yellow' | 'green' | 'red' | 'light-grey';

export const STATUS_DISPLAY: Record<TDisplayStatus, { label: string; colour: TBadgeColour }> = {
  SCHEDULED: { label: 'Scheduled', colour: 'grey' },
  IN_PROGRESS: { label: 'In Progress', colour: 'blue' },
  IN_REVIEW: { label: 'In Review', colour: 'yellow' },
  COMPLETED: { label: 'Completed', colour: 'green' },
  OVERDUE: { label: 'Overdue', colour: 'red' },
  UNKNOWN: { label: 'Unknown', colour: 'light-grey' },
};

export type TWorkItem = {
  status: string | null | undefined;
  dueDate?: Date | string | null;
  completedDate?: Date | string | null;
};

function toTime(value: Date | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const t = value instanceof Date ? value.getTime() : new Date(value).getTime();
  return Number.isNaN(t) ? null : t;
}

function isStored(status: unknown): status is TStoredStatus {
  return typeof status === 'string' && (STORED_STATUSES as readonly string[]).includes(status);
}

/**
 * OVERDUE when the item has no completedDate and its dueDate is before now; otherwise the stored
 * status, or UNKNOWN for anything the spec does not name.
 */
export function displayStatus(item: TWorkItem, now: Date = new Date()): TDisplayStatus {
  const due = toTime(item.dueDate);
  const completed = item.completedDate ? toTime(item.completedDate) : null;
  if (completed === null && due !== null && due < now.getTime()) return 'OVERDUE';
  return isStored(item.status) ? item.status : 'UNKNOWN';
}

export function statusLabel(status: TDisplayStatus): string {
  return STATUS_DISPLAY[status].label;
}

export function statusColour(status: TDisplayStatus): TBadgeColour {
  return STATUS_DISPLAY[status].colour;
}
