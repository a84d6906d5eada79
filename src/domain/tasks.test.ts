import { describe, expect, it } from 'vitest';
import { todayIn } from './days';
import {
  checklistBlocksCompletion,
  completedDateFor,
  isOverdue,
  taskDisplayStatus,
  taskSettingsOf,
  ZTaskInput,
  ZTaskListInput,
} from './tasks';

describe("OVERDUE at its boundary in the firm's time zone", () => {
  // 2026-03-31 18:29:59 UTC is 23:59:59 in Kolkata (UTC+5:30); one second later it is 1 April there.
  const justBefore = new Date('2026-03-31T18:29:59Z');
  const justAfter = new Date('2026-03-31T18:30:00Z');

  it("today is the firm's calendar day, not the server's", () => {
    expect(todayIn('Asia/Kolkata', justBefore)).toBe('2026-03-31');
    expect(todayIn('Asia/Kolkata', justAfter)).toBe('2026-04-01');
    expect(todayIn('UTC', justAfter)).toBe('2026-03-31');
    expect(todayIn('America/Los_Angeles', new Date('2026-04-01T06:59:59Z'))).toBe('2026-03-31');
  });

  it("a task due on the 31st turns overdue at the firm's midnight, not before", () => {
    const task = { status: 'IN_PROGRESS', dueDate: '2026-03-31', completedDate: null };
    expect(isOverdue(task, todayIn('Asia/Kolkata', justBefore))).toBe(false);
    expect(isOverdue(task, todayIn('Asia/Kolkata', justAfter))).toBe(true);
    expect(taskDisplayStatus(task, todayIn('Asia/Kolkata', justBefore))).toBe('IN_PROGRESS');
    expect(taskDisplayStatus(task, todayIn('Asia/Kolkata', justAfter))).toBe('OVERDUE');
    // The same instant in UTC is still the 31st.
    expect(taskDisplayStatus(task, todayIn('UTC', justAfter))).toBe('IN_PROGRESS');
  });

  it('a completed task, or one without a due date, is never overdue', () => {
    const today = '2026-06-01';
    expect(isOverdue({ dueDate: '2026-01-01', completedDate: new Date() }, today)).toBe(false);
    expect(isOverdue({ dueDate: null, completedDate: null }, today)).toBe(false);
    expect(
      taskDisplayStatus({ status: 'COMPLETED', dueDate: '2026-01-01', completedDate: new Date() }, today),
    ).toBe('COMPLETED');
    expect(taskDisplayStatus({ status: 'ODD', dueDate: null, completedDate: null }, today)).toBe('UNKNOWN');
  });
});

describe('the checklist rule', () => {
  const on = taskSettingsOf({ requireChecklistToComplete: true });
  const off = taskSettingsOf({});

  it('reads the firm setting; anything but true is off', () => {
    expect(on.requireChecklistToComplete).toBe(true);
    expect(off.requireChecklistToComplete).toBe(false);
    expect(taskSettingsOf({ requireChecklistToComplete: 'yes' }).requireChecklistToComplete).toBe(false);
    expect(taskSettingsOf(null).requireChecklistToComplete).toBe(false);
  });

  it('blocks completion with open items only when the firm asks for it', () => {
    const items = [{ done: true }, { done: false }, { done: false }];
    expect(checklistBlocksCompletion(items, off)).toBeNull();
    expect(checklistBlocksCompletion(items, on)).toBe(
      'Finish the checklist before completing this task: 2 of 3 items are still open',
    );
    expect(checklistBlocksCompletion([{ done: false }], on)).toBe(
      'Finish the checklist before completing this task: 1 of 1 item is still open',
    );
    expect(checklistBlocksCompletion([{ done: true }], on)).toBeNull();
    expect(checklistBlocksCompletion([], on)).toBeNull();
  });
});

describe('completedDate follows the status', () => {
  const now = new Date('2026-05-05T10:00:00Z');
  const earlier = new Date('2026-05-01T10:00:00Z');
  it('is set on reaching COMPLETED, kept while there, cleared on leaving', () => {
    expect(completedDateFor({ status: 'IN_REVIEW', completedDate: null }, 'COMPLETED', now)).toBe(now);
    expect(completedDateFor({ status: 'COMPLETED', completedDate: earlier }, 'COMPLETED', now)).toBe(earlier);
    expect(completedDateFor({ status: 'COMPLETED', completedDate: earlier }, 'IN_PROGRESS', now)).toBeNull();
  });
});

describe('schemas', () => {
  it('checks dates, tags and the due range', () => {
    expect(ZTaskInput.safeParse({ title: 'x', dueDate: '2028-02-29' }).success).toBe(true);
    expect(ZTaskInput.safeParse({ title: 'x', dueDate: '2027-02-29' }).error?.issues[0]?.message).toBe(
      'This date does not exist',
    );
    expect(ZTaskInput.parse({ title: ' File GSTR-3B ', tags: ['GST', 'gst '] })).toMatchObject({
      title: 'File GSTR-3B',
      tags: ['gst'],
      status: 'SCHEDULED',
      priority: 'medium',
    });
    expect(ZTaskInput.safeParse({ title: 'x', tags: ['a/b'] }).success).toBe(false);
    expect(
      ZTaskListInput.safeParse({ dueFrom: '2026-05-02', dueTo: '2026-05-01' }).error?.issues[0]?.message,
    ).toBe('The "due from" date must be on or before the "due to" date');
    expect(ZTaskListInput.parse({}).sort).toEqual({ field: 'dueDate', dir: 'asc' });
  });
});
