import { addDays, todayIn } from './days';

// The home dashboard's calendar: "today" is the firm's day (orgs.timeZone), whatever the server's
// clock or the viewer's browser says, so every member of a firm sees the same overdue counts.

/** Days in "this week": today and the six days after it (a rolling week never goes empty on a Sunday). */
export const WEEK_DAYS = 7;
/** How far ahead "upcoming deadlines" look. */
export const UPCOMING_DAYS = 14;
/** Rows per list on the dashboard; the full lists are one click away. */
export const DASHBOARD_LIST_LIMIT = 10;

export type TDashboardDays = {
  today: string;
  /** The last day of this week (inclusive). */
  weekEnd: string;
  /** The last day of the upcoming-deadlines window (inclusive). */
  upcomingEnd: string;
};

export function dashboardDays(timeZone: string, at: Date = new Date()): TDashboardDays {
  const today = todayIn(timeZone, at);
  return { today, weekEnd: addDays(today, WEEK_DAYS - 1), upcomingEnd: addDays(today, UPCOMING_DAYS - 1) };
}

/**
 * An item is overdue (SPEC.md §4) when it has no completion and its due day is before the firm's
 * today: a task due today is not late until the day is over.
 */
export function isOverdueOn(item: { dueDate: string | null; completedDate: unknown }, today: string) {
  return !item.completedDate && item.dueDate !== null && item.dueDate < today;
}

// Where each number on the dashboard leads: the lists' own search params (view, status, dueFrom,
// dueTo, task as /tasks and /projects read them), so the count and the list it opens are the same
// filter. Several task statuses travel as one comma-separated value; /projects takes one status,
// so "projects due this week" counts every status, as the list it opens shows them.

export const OPEN_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW'] as const;
type TStatusFilter = (typeof OPEN_STATUSES)[number] | 'COMPLETED' | 'OVERDUE';

export type TTaskListSearch = {
  view?: 'mine' | 'team' | 'all';
  status?: readonly TStatusFilter[];
  dueFrom?: string;
  dueTo?: string;
  task?: string;
};

/** The projects list filters by one status at a time. */
export type TProjectListSearch = {
  status?: TStatusFilter;
  dueFrom?: string;
  dueTo?: string;
};

function withSearch(path: string, search: Record<string, string | readonly string[] | undefined>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : value.join(',');
    parts.push(`${key}=${encodeURIComponent(text).replace(/%2C/g, ',')}`);
  }
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

export const tasksHref = (search: TTaskListSearch) => withSearch('/tasks', search);
export const projectsHref = (search: TProjectListSearch) => withSearch('/projects', search);
export const taskHref = (taskId: string) => tasksHref({ task: taskId });

/** The filtered list behind each count of the dashboard. */
export function dashboardLinks(days: TDashboardDays) {
  const open = OPEN_STATUSES;
  return {
    myOverdue: tasksHref({ view: 'mine', status: ['OVERDUE'] }),
    firmOverdue: tasksHref({ view: 'all', status: ['OVERDUE'] }),
    myOpen: tasksHref({ view: 'mine', status: open }),
    myDueToday: tasksHref({ view: 'mine', status: open, dueFrom: days.today, dueTo: days.today }),
    myDueLaterThisWeek: tasksHref({
      view: 'mine',
      status: open,
      dueFrom: addDays(days.today, 1),
      dueTo: days.weekEnd,
    }),
    projectsOverdue: projectsHref({ status: 'OVERDUE' }),
    projectsDueThisWeek: projectsHref({ dueFrom: days.today, dueTo: days.weekEnd }),
    upcoming: projectsHref({ dueFrom: days.today, dueTo: days.upcomingEnd }),
  };
}
