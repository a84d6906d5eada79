import { TRPCError } from '@trpc/server';
import { eq, type SQL, sql } from 'drizzle-orm';
import { DASHBOARD_LIST_LIMIT, dashboardDays, type TDashboardDays } from '../../../domain/dashboard';
import { hasPermission } from '../../../domain/permissions';
import type { TStoredStatus } from '../../../domain/status';
import { HOUSEKEEPING_ACTIONS } from '../../../domain/system-log';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { orgs } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { onMyClientTeam } from '../clients';
import { seesFirmLog } from '../system-log';
import { dashboardCacheFor } from './cache';

// The home dashboard in a fixed number of statements whatever the firm's size: the firm's time
// zone, then (in parallel) every count in one statement, my tasks of the week, the upcoming
// deadlines and the recent activity. Each count is an index-only range (see counts below). A member's
// summary is then kept until the firm changes something it shows (cache.ts).

type TDashScope = Pick<TScope, 'orgId' | 'memberId' | 'isOwner' | 'permissions' | 'assignedClientsOnly'>;

export type TDashboardTask = {
  id: string;
  title: string;
  status: TStoredStatus;
  priority: string;
  dueDate: string;
  completedDate: Date | null;
  clientName: string | null;
  projectName: string | null;
};

export type TDashboardProject = {
  id: string;
  name: string;
  status: TStoredStatus;
  dueDate: string;
  clientId: string;
  clientName: string;
  serviceName: string | null;
};

export type TDashboardActivity = {
  id: string;
  at: Date;
  action: string;
  recordType: string;
  summary: string;
  actorName: string | null;
};

export type TDashboardSummary = TDashboardDays & {
  timeZone: string;
  /** The firm-wide numbers cover only the member's assigned clients (and their own tasks). */
  assignedClientsOnly: boolean;
  tasks: {
    myOverdue: number;
    firmOverdue: number;
    myOpen: number;
    dueToday: { rows: TDashboardTask[]; total: number };
    dueThisWeek: { rows: TDashboardTask[]; total: number };
  } | null;
  projects: {
    overdue: number;
    dueThisWeek: number;
    upcoming: { rows: TDashboardProject[]; total: number };
  } | null;
  /** 'firm' with the system-log right; otherwise the member's own doings. */
  activity: { scope: 'firm' | 'mine'; rows: TDashboardActivity[] };
};

const OPEN = sql.raw(`('SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW')`);

/** A role limited to its assigned clients counts only the work of clients it is on the team of. */
const onMyClients = (scope: TDashScope, clientId: SQL) =>
  scope.assignedClientsOnly ? sql`and ${onMyClientTeam(scope, clientId)}` : sql``;

/** The member's own open tasks: assignee rows carry their task's status (migration 0030's triggers). */
const myOpenRows = (scope: TDashScope) =>
  sql`task_assignees a where a.org_id = ${scope.orgId} and a.member_id = ${scope.memberId} and a.status in ${OPEN}`;

/** The firm's open tasks due before today, or for a restricted member those of their clients and their own. */
function firmOverdue(scope: TDashScope, today: string): SQL {
  if (!scope.assignedClientsOnly) {
    return sql`select count(*) as firm_overdue from tasks t
      where t.org_id = ${scope.orgId} and t.status in ${OPEN} and t.due_date < ${today}`;
  }
  return sql`select count(*) as firm_overdue from (
      select t.id from tasks t
        where t.org_id = ${scope.orgId} and ${onMyClientTeam(scope, sql`t.client_id`)} and t.status in ${OPEN}
          and t.due_date < ${today}
      union
      select a.task_id from ${myOpenRows(scope)} and a.due_date < ${today}
    ) x`;
}

/**
 * Every count in one statement, each an index-only range: my open tasks (the overdue among them
 * counted from the same rows) over the open part of (org_id, member_id, due_date); the firm's overdue
 * tasks over (org_id, status, due_date); open projects late or upcoming over the open projects'
 * partial index, and projects due this week (any status, as /projects lists them) over the
 * not-archived one. One count per index: OR-ed into one scan, the planner read the projects' rows.
 */
async function counts(
  db: TExecutor,
  scope: TDashScope,
  days: TDashboardDays,
  tasks: boolean,
  projects: boolean,
) {
  const parts: SQL[] = [];
  if (tasks) {
    parts.push(sql`(select count(*) filter (where a.due_date < ${days.today}) as my_overdue, count(*) as my_open
      from ${myOpenRows(scope)}) mine`);
    parts.push(sql`(${firmOverdue(scope, days.today)}) firm`);
  }
  if (projects) {
    const mine = onMyClients(scope, sql`p.client_id`);
    const live = sql`projects p where p.org_id = ${scope.orgId} and p.archived_at is null ${mine}`;
    parts.push(sql`(select count(*) as projects_overdue from ${live}
      and p.status in ${OPEN} and p.due_date < ${days.today}) late`);
    parts.push(sql`(select count(*) as projects_week from ${live}
      and p.due_date between ${days.today} and ${days.weekEnd}) week`);
    parts.push(sql`(select count(*) as projects_upcoming from ${live}
      and p.status in ${OPEN} and p.due_date between ${days.today} and ${days.upcomingEnd}) soon`);
  }
  const result = await db.execute(sql`select * from ${sql.join(parts, sql`, `)}`);
  const [row] = rowsOf<Record<string, string | number | null>>(result);
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    myOverdue: n('my_overdue'),
    myOpen: n('my_open'),
    firmOverdue: n('firm_overdue'),
    projectsOverdue: n('projects_overdue'),
    projectsWeek: n('projects_week'),
    projectsUpcoming: n('projects_upcoming'),
  };
}

type TTaskRow = {
  id: string;
  title: string;
  status: TStoredStatus;
  priority: string;
  due_date: string;
  completed_date: Date | string | null;
  client_name: string | null;
  project_name: string | null;
  today: boolean;
  total: string | number;
};

/** My open tasks due this week, at most LIMIT due today and LIMIT due later, each with its total. */
async function myWeek(db: TExecutor, scope: TDashScope, days: TDashboardDays) {
  const result = await db.execute(sql`
    select * from (
      select t.id, t.title, t.status, t.priority, to_char(a.due_date, 'YYYY-MM-DD') as due_date,
        t.completed_date, c.name as client_name, p.name as project_name,
        a.due_date = ${days.today}::date as today,
        row_number() over (partition by a.due_date = ${days.today}::date order by a.due_date, t.id) as n,
        count(*) over (partition by a.due_date = ${days.today}::date) as total
      from task_assignees a
      join tasks t on t.org_id = a.org_id and t.id = a.task_id
      left join clients c on c.org_id = t.org_id and c.id = t.client_id
      left join projects p on p.org_id = t.org_id and p.id = t.project_id
      where a.org_id = ${scope.orgId} and a.member_id = ${scope.memberId}
        and a.due_date between ${days.today} and ${days.weekEnd} and a.status in ${OPEN}
    ) x where n <= ${DASHBOARD_LIST_LIMIT} order by due_date, id`);
  const rows = rowsOf<TTaskRow>(result);
  const section = (today: boolean) => {
    const mine = rows.filter((r) => r.today === today);
    return {
      total: Number(mine[0]?.total ?? 0),
      rows: mine.map(
        (r): TDashboardTask => ({
          id: r.id,
          title: r.title,
          status: r.status,
          priority: r.priority,
          dueDate: r.due_date,
          completedDate: r.completed_date ? new Date(r.completed_date) : null,
          clientName: r.client_name,
          projectName: r.project_name,
        }),
      ),
    };
  };
  return { dueToday: section(true), dueThisWeek: section(false) };
}

type TProjectRow = {
  id: string;
  name: string;
  status: TStoredStatus;
  due_date: string;
  client_id: string;
  client_name: string;
  service_name: string | null;
};

/** Projects due in the coming days across the clients I may see, soonest first (the total is counted with the rest). */
async function upcoming(db: TExecutor, scope: TDashScope, days: TDashboardDays) {
  const mine = onMyClients(scope, sql`p.client_id`);
  const result = await db.execute(sql`
    select p.id, p.name, p.status, to_char(p.due_date, 'YYYY-MM-DD') as due_date, p.client_id,
      c.name as client_name, s.name as service_name
    from projects p
    join clients c on c.org_id = p.org_id and c.id = p.client_id
    left join services s on s.org_id = p.org_id and s.id = p.service_id
    where p.org_id = ${scope.orgId} and p.status in ${OPEN} and p.archived_at is null
      and p.due_date between ${days.today} and ${days.upcomingEnd} ${mine}
    order by p.due_date, p.id
    limit ${DASHBOARD_LIST_LIMIT}`);
  return rowsOf<TProjectRow>(result).map(
    (r): TDashboardProject => ({
      id: r.id,
      name: r.name,
      status: r.status,
      dueDate: r.due_date,
      clientId: r.client_id,
      clientName: r.client_name,
      serviceName: r.service_name,
    }),
  );
}

type TActivityRow = {
  id: string;
  at: Date | string;
  action: string;
  record_type: string;
  summary: string;
  actor_name: string | null;
};

/**
 * The firm's latest system-log entries for a member who may read the log; anyone else sees their
 * own. The product's own housekeeping is not activity. The order is the (org_id, [actor,] at DESC)
 * indexes' (NULLS FIRST, as a plain DESC), so it reads about 10 rows.
 */
async function activity(db: TExecutor, scope: TDashScope, firm: boolean) {
  const whose = firm ? sql`` : sql`and l.actor_member_id = ${scope.memberId}`;
  const housekeeping = sql.join(
    HOUSEKEEPING_ACTIONS.map((a) => sql`${a}`),
    sql`, `,
  );
  const order = firm ? sql`l.at desc, l.id desc` : sql`l.at desc`;
  const result = await db.execute(sql`
    select l.id, l.at, l.action, l.record_type, l.summary,
      nullif(trim(m.first_name || ' ' || m.last_name), '') as actor_name
    from system_log l
    left join members m on m.org_id = l.org_id and m.id = l.actor_member_id
    where l.org_id = ${scope.orgId} ${whose} and l.action not in (${housekeeping})
    order by ${order}
    limit ${DASHBOARD_LIST_LIMIT}`);
  return rowsOf<TActivityRow>(result).map(
    (r): TDashboardActivity => ({
      id: r.id,
      at: new Date(r.at),
      action: r.action,
      recordType: r.record_type,
      summary: r.summary,
      actorName: r.actor_name,
    }),
  );
}

export async function dashboardSummary(
  db: TExecutor,
  scope: TDashScope,
  now: Date = new Date(),
): Promise<TDashboardSummary> {
  const cache = dashboardCacheFor<TDashboardSummary>(db);
  // Taken before any statement: a change committed from here on keeps this summary out of the cache.
  const ticket = cache?.ticket(scope.orgId);
  const [org] = await db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, scope.orgId));
  if (!org) throw new TRPCError({ code: 'NOT_FOUND', message: 'This firm no longer exists' });
  const days = dashboardDays(org.timeZone, now);
  const seeTasks = hasPermission(scope, 'tasks.view');
  const seeProjects = hasPermission(scope, 'projects.view');
  const firmLog = hasPermission(scope, 'systemLog.view') && seesFirmLog(scope);
  // Everything the summary depends on besides the firm's data.
  const key = [
    scope.orgId,
    scope.memberId,
    scope.assignedClientsOnly,
    seeTasks,
    seeProjects,
    firmLog,
    org.timeZone,
    days.today,
  ].join('|');
  const cached = cache?.get(key, scope.orgId);
  if (cached) return cached;
  const [n, week, soon, log] = await Promise.all([
    seeTasks || seeProjects ? counts(db, scope, days, seeTasks, seeProjects) : null,
    seeTasks ? myWeek(db, scope, days) : null,
    seeProjects ? upcoming(db, scope, days) : null,
    activity(db, scope, firmLog),
  ]);
  const summary: TDashboardSummary = {
    ...days,
    timeZone: org.timeZone,
    assignedClientsOnly: scope.assignedClientsOnly,
    tasks:
      seeTasks && n && week
        ? { myOverdue: n.myOverdue, firmOverdue: n.firmOverdue, myOpen: n.myOpen, ...week }
        : null,
    projects:
      seeProjects && n && soon
        ? {
            overdue: n.projectsOverdue,
            dueThisWeek: n.projectsWeek,
            upcoming: { rows: soon, total: n.projectsUpcoming },
          }
        : null,
    activity: { scope: firmLog ? 'firm' : 'mine', rows: log },
  };
  if (cache && ticket) cache.put(key, ticket, summary);
  return summary;
}
