import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { TPage } from '../../../domain/pagination';
import type { TReminderListQuery, TReminderStatus } from '../../../domain/reminders';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, projects, reminderDeliveries, reminders, tasks } from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { reminderVisibility, visibleReminder } from './access';

/** The latest delivery of each listed reminder, as one correlated lookup served by its index. */
const lastDelivery = sql<{
  status: 'sent' | 'failed';
  at: string;
  recipient: string;
  error: string | null;
} | null>`(
  select json_build_object('status', d.status, 'at', d.sent_at, 'recipient', d.recipient, 'error', d.error)
  from ${reminderDeliveries} d
  where d.org_id = ${reminders.orgId} and d.reminder_id = ${reminders.id}
  order by d.sent_at desc limit 1
)`;

export type TReminderRow = {
  id: string;
  type: (typeof reminders.$inferSelect)['type'];
  title: string;
  status: TReminderStatus;
  remindAt: Date;
  recurrence: (typeof reminders.$inferSelect)['recurrence'];
  channels: (typeof reminders.$inferSelect)['channels'];
  itemName: string | null;
  expiryDate: string | null;
  lastSentAt: Date | null;
  lastError: string | null;
  client: { id: string; name: string } | null;
  project: { id: string; name: string } | null;
  task: { id: string; title: string } | null;
  lastDelivery: { status: 'sent' | 'failed'; at: Date; recipient: string; error: string | null } | null;
};

export async function listReminders(
  db: TExecutor,
  scope: TScope,
  input: TReminderListQuery,
): Promise<TPage<TReminderRow>> {
  const where: (SQL | undefined)[] = [
    eq(reminders.orgId, scope.orgId),
    eq(reminders.type, input.type),
    reminderVisibility(scope),
  ];
  if (input.status) where.push(eq(reminders.status, input.status));
  if (input.clientId) where.push(eq(reminders.clientId, input.clientId));
  if (input.search) {
    const term = escapeLike(input.search);
    where.push(or(ilike(reminders.title, term), ilike(reminders.itemName, term)));
  }
  const filter = and(...where);
  const column = { remindAt: reminders.remindAt, createdAt: reminders.createdAt, title: reminders.title }[
    input.sort
  ];
  const dir = input.direction === 'asc' ? asc : desc;
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: reminders.id,
        type: reminders.type,
        title: reminders.title,
        status: reminders.status,
        remindAt: reminders.remindAt,
        recurrence: reminders.recurrence,
        channels: reminders.channels,
        itemName: reminders.itemName,
        expiryDate: reminders.expiryDate,
        lastSentAt: reminders.lastSentAt,
        lastError: reminders.lastError,
        clientId: clients.id,
        clientName: clients.name,
        projectId: projects.id,
        projectName: projects.name,
        taskId: tasks.id,
        taskTitle: tasks.title,
        lastDelivery,
      })
      .from(reminders)
      .leftJoin(clients, and(eq(clients.orgId, reminders.orgId), eq(clients.id, reminders.clientId)))
      .leftJoin(projects, and(eq(projects.orgId, reminders.orgId), eq(projects.id, reminders.projectId)))
      .leftJoin(tasks, and(eq(tasks.orgId, reminders.orgId), eq(tasks.id, reminders.taskId)))
      .where(filter)
      .orderBy(dir(column), dir(reminders.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(reminders).where(filter),
  ]);
  return {
    rows: rows.map(
      ({ clientId, clientName, projectId, projectName, taskId, taskTitle, lastDelivery: d, ...r }) => ({
        ...r,
        client: clientId && clientName ? { id: clientId, name: clientName } : null,
        project: projectId && projectName ? { id: projectId, name: projectName } : null,
        task: taskId && taskTitle ? { id: taskId, title: taskTitle } : null,
        lastDelivery: d ? { ...d, at: new Date(d.at) } : null,
      }),
    ),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

export async function listDeliveries(
  db: TExecutor,
  scope: TScope,
  input: { id: string; page: number; pageSize: number },
) {
  await visibleReminder(db, scope, input.id);
  const where = and(eq(reminderDeliveries.orgId, scope.orgId), eq(reminderDeliveries.reminderId, input.id));
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: reminderDeliveries.id,
        occurrenceAt: reminderDeliveries.occurrenceAt,
        channel: reminderDeliveries.channel,
        recipient: reminderDeliveries.recipient,
        status: reminderDeliveries.status,
        attempt: reminderDeliveries.attempt,
        error: reminderDeliveries.error,
        sentAt: reminderDeliveries.sentAt,
      })
      .from(reminderDeliveries)
      .where(where)
      .orderBy(desc(reminderDeliveries.sentAt), desc(reminderDeliveries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(reminderDeliveries).where(where),
  ]);
  return { rows, total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}
