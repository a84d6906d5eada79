import { eq, sql } from 'drizzle-orm';
import { DASHBOARD_LIST_LIMIT, UPCOMING_DAYS } from '../../../domain/dashboard';
import { addDays, todayIn } from '../../../domain/days';
import { hasPermission } from '../../../domain/permissions';
import type { TStoredStatus } from '../../../domain/status';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { orgs } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { approvedLeaveStarting } from '../leave';

export type TAwayTask = {
  id: string;
  title: string;
  status: TStoredStatus;
  dueDate: string;
  clientName: string | null;
};
export type TAwayLeave = {
  id: string;
  typeName: string;
  startDate: string;
  endDate: string;
  tasks: TAwayTask[];
};

type TRow = {
  id: string;
  title: string;
  status: TStoredStatus;
  due_date: string;
  client_name: string | null;
};

/**
 * The member's approved leave starting in the coming days, each with their open tasks due during it:
 * two statements whatever the number of leaves or tasks. Null when there is no such leave (or the
 * member may not see tasks), so the home page shows nothing.
 */
export async function dueWhileAway(
  db: TExecutor,
  scope: Pick<TScope, 'orgId' | 'memberId' | 'isOwner' | 'permissions'>,
  now: Date = new Date(),
): Promise<TAwayLeave[] | null> {
  if (!hasPermission(scope, 'tasks.view')) return null;
  const [org] = await db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, scope.orgId));
  if (!org) return null;
  const today = todayIn(org.timeZone, now);
  const leave = await approvedLeaveStarting(
    db,
    scope.orgId,
    scope.memberId,
    today,
    addDays(today, UPCOMING_DAYS - 1),
  );
  if (leave.length === 0) return null;
  const during = sql.join(
    leave.map((l) => sql`a.due_date between ${l.startDate} and ${l.endDate}`),
    sql` or `,
  );
  const result = await db.execute(sql`
    select t.id, t.title, t.status, to_char(a.due_date, 'YYYY-MM-DD') as due_date, c.name as client_name
    from task_assignees a
    join tasks t on t.org_id = a.org_id and t.id = a.task_id
    left join clients c on c.org_id = t.org_id and c.id = t.client_id
    where a.org_id = ${scope.orgId} and a.member_id = ${scope.memberId}
      and t.status in ('SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW') and (${during})
    order by a.due_date, t.title, t.id
    limit ${DASHBOARD_LIST_LIMIT * 5}`);
  const tasks = rowsOf<TRow>(result).map(
    (r): TAwayTask => ({
      id: r.id,
      title: r.title,
      status: r.status,
      dueDate: r.due_date,
      clientName: r.client_name,
    }),
  );
  return leave.map((l) => ({
    id: l.id,
    typeName: l.typeName,
    startDate: l.startDate,
    endDate: l.endDate,
    tasks: tasks.filter((t) => t.dueDate >= l.startDate && t.dueDate <= l.endDate),
  }));
}
