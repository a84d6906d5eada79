import { describe, expect, it } from 'vitest';
import { addDay, dashboardDays, dashboardLinks, dayIn, isOverdueOn, taskHref } from './dashboard';

describe("the firm's today", () => {
  it('turns over at midnight in the firm time zone, not in UTC', () => {
    // Asia/Kolkata is UTC+05:30: 18:29:59Z is 23:59:59 on the 21st, 18:30:00Z is midnight of the 22nd.
    expect(dayIn('Asia/Kolkata', new Date('2026-11-21T18:29:59Z'))).toBe('2026-11-21');
    expect(dayIn('Asia/Kolkata', new Date('2026-11-21T18:30:00Z'))).toBe('2026-11-22');
    expect(dayIn('America/Los_Angeles', new Date('2026-11-22T07:59:59Z'))).toBe('2026-11-21');
    expect(dayIn('UTC', new Date('2026-11-22T00:00:00Z'))).toBe('2026-11-22');
  });

  it('counts a rolling week and a 14-day window across month and year ends', () => {
    expect(dashboardDays('UTC', new Date('2026-12-28T12:00:00Z'))).toEqual({
      today: '2026-12-28',
      weekEnd: '2027-01-03',
      upcomingEnd: '2027-01-10',
    });
    expect(addDay('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDay('2027-02-28', 1)).toBe('2027-03-01');
  });
});

describe('overdue on a day', () => {
  it('is overdue only after the due day, and never once completed', () => {
    expect(isOverdueOn({ dueDate: '2026-11-21', completedDate: null }, '2026-11-22')).toBe(true);
    expect(isOverdueOn({ dueDate: '2026-11-22', completedDate: null }, '2026-11-22')).toBe(false);
    expect(isOverdueOn({ dueDate: '2026-11-21', completedDate: new Date() }, '2026-11-22')).toBe(false);
    expect(isOverdueOn({ dueDate: null, completedDate: null }, '2026-11-22')).toBe(false);
  });
});

describe('dashboard links', () => {
  it('lead to the filtered lists', () => {
    const links = dashboardLinks(dashboardDays('UTC', new Date('2026-11-22T09:00:00Z')));
    expect(links.myOverdue).toBe('/tasks?view=mine&status=OVERDUE');
    expect(links.firmOverdue).toBe('/tasks?view=all&status=OVERDUE');
    expect(links.myOpen).toBe('/tasks?view=mine&status=SCHEDULED,IN_PROGRESS,IN_REVIEW');
    expect(links.projectsOverdue).toBe('/projects?status=OVERDUE');
    expect(links.projectsDueThisWeek).toBe('/projects?dueFrom=2026-11-22&dueTo=2026-11-28');
    expect(links.upcoming).toBe('/projects?dueFrom=2026-11-22&dueTo=2026-12-05');
    expect(links.myDueLaterThisWeek).toBe(
      '/tasks?view=mine&status=SCHEDULED,IN_PROGRESS,IN_REVIEW&dueFrom=2026-11-23&dueTo=2026-11-28',
    );
    expect(taskHref('abc')).toBe('/tasks?task=abc');
  });
});
