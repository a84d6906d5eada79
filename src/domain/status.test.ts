import { describe, expect, it } from 'vitest';
import { displayStatus, STATUS_DISPLAY, statusColour, statusLabel } from './status';

const now = new Date('2026-11-22T12:00:00Z');

describe('displayStatus', () => {
  it('is OVERDUE when there is no completedDate and the due date is before now', () => {
    expect(displayStatus({ status: 'IN_PROGRESS', dueDate: '2026-11-22T11:59:59Z' }, now)).toBe('OVERDUE');
    expect(
      displayStatus({ status: 'COMPLETED', dueDate: new Date('2026-01-01'), completedDate: null }, now),
    ).toBe('OVERDUE');
  });

  it('shows the stored status when due now or later, or when completed', () => {
    expect(displayStatus({ status: 'IN_PROGRESS', dueDate: '2026-11-22T12:00:00Z' }, now)).toBe(
      'IN_PROGRESS',
    );
    expect(displayStatus({ status: 'SCHEDULED', dueDate: '2026-12-01' }, now)).toBe('SCHEDULED');
    expect(
      displayStatus(
        { status: 'COMPLETED', dueDate: '2026-01-01', completedDate: '2026-01-05T00:00:00Z' },
        now,
      ),
    ).toBe('COMPLETED');
    expect(displayStatus({ status: 'IN_REVIEW', dueDate: null }, now)).toBe('IN_REVIEW');
  });

  it('treats an invalid due date as no due date and an unknown status as Unknown', () => {
    expect(displayStatus({ status: 'IN_REVIEW', dueDate: 'not a date' }, now)).toBe('IN_REVIEW');
    expect(displayStatus({ status: 'ARCHIVED', dueDate: '2027-01-01' }, now)).toBe('UNKNOWN');
    expect(displayStatus({ status: null }, now)).toBe('UNKNOWN');
  });
});

describe('labels and badge colours', () => {
  it('match SPEC.md §4', () => {
    expect(
      Object.fromEntries(Object.entries(STATUS_DISPLAY).map(([k, v]) => [k, [v.label, v.colour]])),
    ).toEqual({
      SCHEDULED: ['Scheduled', 'grey'],
      IN_PROGRESS: ['In Progress', 'blue'],
      IN_REVIEW: ['In Review', 'yellow'],
      COMPLETED: ['Completed', 'green'],
      OVERDUE: ['Overdue', 'red'],
      UNKNOWN: ['Unknown', 'light-grey'],
    });
    expect(statusLabel('OVERDUE')).toBe('Overdue');
    expect(statusColour('UNKNOWN')).toBe('light-grey');
  });
});
