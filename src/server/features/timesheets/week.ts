import { and, asc, eq, gte, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { addDays, weekDays } from '../../../domain/days';
import { isLocked, type TEntryStatus, type TWeekStatus } from '../../../domain/timesheets';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, projects, services, tasks, timesheetEntries } from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { clientVisibility, visibleClient } from '../clients';
import { expectedMinutes, firmClock, weekStatus } from './rules';

export type TWeekEntry = {
  id: string;
  date: string;
  minutes: number;
  clientId: string | null;
  clientName: string | null;
  projectId: string | null;
  projectName: string | null;
  taskId: string | null;
  taskTitle: string | null;
  serviceId: string | null;
  serviceName: string | null;
  billable: boolean;
  note: string;
  status: TEntryStatus;
};

/** The row of the grid an entry belongs to: its client, project, task and service. */
export const rowKeyOf = (e: Pick<TWeekEntry, 'clientId' | 'projectId' | 'taskId' | 'serviceId'>) =>
  [e.clientId, e.projectId, e.taskId, e.serviceId].map((v) => v ?? '').join('|');

/** One member's entries from..to, with the names the grid shows. */
export async function entriesOf(tx: TExecutor, orgId: string, memberId: string, from: string, to: string) {
  return tx
    .select({
      id: timesheetEntries.id,
      date: timesheetEntries.date,
      minutes: timesheetEntries.minutes,
      clientId: timesheetEntries.clientId,
      clientName: clients.name,
      projectId: timesheetEntries.projectId,
      projectName: projects.name,
      taskId: timesheetEntries.taskId,
      taskTitle: tasks.title,
      serviceId: timesheetEntries.serviceId,
      serviceName: services.name,
      billable: timesheetEntries.billable,
      note: timesheetEntries.note,
      status: timesheetEntries.status,
    })
    .from(timesheetEntries)
    .leftJoin(
      clients,
      and(eq(clients.orgId, timesheetEntries.orgId), eq(clients.id, timesheetEntries.clientId)),
    )
    .leftJoin(
      projects,
      and(eq(projects.orgId, timesheetEntries.orgId), eq(projects.id, timesheetEntries.projectId)),
    )
    .leftJoin(tasks, and(eq(tasks.orgId, timesheetEntries.orgId), eq(tasks.id, timesheetEntries.taskId)))
    .leftJoin(
      services,
      and(eq(services.orgId, timesheetEntries.orgId), eq(services.id, timesheetEntries.serviceId)),
    )
    .where(
      and(
        eq(timesheetEntries.orgId, orgId),
        eq(timesheetEntries.memberId, memberId),
        gte(timesheetEntries.date, from),
        lte(timesheetEntries.date, to),
      ),
    )
    .orderBy(asc(timesheetEntries.date), asc(timesheetEntries.id));
}

/** The caller's week: entries, the state of the week, what was expected each day, locked days. */
export async function myWeek(db: TExecutor, scope: TScope, weekStart: string) {
  const days = weekDays(weekStart);
  const last = addDays(weekStart, 6);
  const [entries, week, clock, expected] = await Promise.all([
    entriesOf(db, scope.orgId, scope.memberId, weekStart, last),
    weekStatus(db, scope.orgId, scope.memberId, weekStart),
    firmClock(db, scope.orgId),
    expectedMinutes(db, scope.orgId, [scope.memberId], weekStart, last),
  ]);
  const mine = expected.get(scope.memberId);
  return {
    weekStart,
    days: days.map((date) => ({
      date,
      expected: mine?.get(date) ?? 0,
      locked: isLocked(date, clock, clock.today),
    })),
    status: week.status as TWeekStatus,
    comment: week.comment,
    today: clock.today,
    entries,
  };
}

/** Pickers for a grid row: clients the caller may see; a client's projects and open tasks; services. */
export async function rowOptions(
  db: TExecutor,
  scope: TScope,
  input: { search?: string; clientId?: string | null },
) {
  const where: (SQL | undefined)[] = [eq(clients.orgId, scope.orgId), isNull(clients.archivedAt)];
  where.push(clientVisibility(scope));
  if (input.search) where.push(sql`${clients.searchText} ilike ${escapeLike(input.search.toLowerCase())}`);
  const clientRows = db
    .select({ id: clients.id, name: clients.name })
    .from(clients)
    .where(and(...where))
    .orderBy(asc(clients.name))
    .limit(30);
  const serviceRows = db
    .select({ id: services.id, name: services.name })
    .from(services)
    .where(and(eq(services.orgId, scope.orgId), isNull(services.archivedAt)))
    .orderBy(asc(services.name))
    .limit(200);
  if (!input.clientId) {
    const [c, s] = await Promise.all([clientRows, serviceRows]);
    return { clients: c, services: s, projects: [], tasks: [] };
  }
  await visibleClient(db, scope, input.clientId);
  const [c, s, p, t] = await Promise.all([
    clientRows,
    serviceRows,
    db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(
        and(
          eq(projects.orgId, scope.orgId),
          eq(projects.clientId, input.clientId),
          isNull(projects.archivedAt),
        ),
      )
      .orderBy(asc(projects.name))
      .limit(100),
    db
      .select({ id: tasks.id, title: tasks.title, projectId: tasks.projectId })
      .from(tasks)
      .where(
        and(eq(tasks.orgId, scope.orgId), eq(tasks.clientId, input.clientId), isNull(tasks.completedDate)),
      )
      .orderBy(asc(tasks.title))
      .limit(200),
  ]);
  return { clients: c, services: s, projects: p, tasks: t };
}
