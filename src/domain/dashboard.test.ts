import { describe, expect, it } from 'vitest';
import { dashboardDays, dashboardLinks, isOverdueOn, taskHref } from './dashboard';

describe("the dashboard's days", () => {
  it('counts a rolling week and a 14-day window across month and year ends', () => {
    expect(dashboardDays('UTC', new Date('2026-12-28T12:00:00Z'))).toEqual({
      today: '2026-12-28',
      weekEnd: '2027-01-03',
      upcomingEnd: '2027-01-10',
    });
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
