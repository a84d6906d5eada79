import { sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { clientsWhere, num, reportContext } from './scope';

/**
 * The /reports cards' figures, this month so far, over the clients the caller may see. One query.
 * Open projects are named by the list of open statuses, the predicate of projects_open_due_idx (with
 * `<> 'COMPLETED'` the planner cannot use it and reads every project).
 */
export async function reportHeadlines(db: TExecutor, scope: TScope) {
  const ctx = await reportContext(db, scope, {});
  const o = scope.orgId;
  const monthStart = `${ctx.today.slice(0, 7)}-01`;
  const visible = scope.assignedClientsOnly
    ? sql`and x.client_id in (select c.id from clients c where ${clientsWhere(scope, {})})`
    : sql``;
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select
        (select count(distinct x.client_id) from tasks x where x.org_id = ${o} and x.status <> 'COMPLETED'
          and x.due_date < ${ctx.today}::date and x.client_id is not null ${visible})::int as clients_behind,
        (select count(*) from projects x where x.org_id = ${o} and x.archived_at is null
          and x.status in ('SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW')
          and x.due_date < ${ctx.today}::date ${visible})::int as projects_overdue,
        (select count(*) from projects x where x.org_id = ${o} and x.archived_at is null
          and x.due_date between ${monthStart} and ${ctx.today} ${visible})::int as projects_due,
        (select count(*) from projects x where x.org_id = ${o} and x.archived_at is null and x.status = 'COMPLETED'
          and x.due_date between ${monthStart} and ${ctx.today} ${visible})::int as projects_done,
        (select coalesce(sum(x.minutes), 0) from timesheet_entries x where x.org_id = ${o}
          and x.date between ${monthStart} and ${ctx.today} ${visible})::int as minutes`),
  );
  return {
    today: ctx.today,
    monthStart,
    clientsBehind: num(row?.clients_behind),
    projectsOverdue: num(row?.projects_overdue),
    projectsDue: num(row?.projects_due),
    projectsDone: num(row?.projects_done),
    minutes: num(row?.minutes),
  };
}
