import { TRPCError } from '@trpc/server';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { TPage } from '../../../domain/pagination';
import {
  expiryRemindAt,
  type TReminderInput,
  type TReminderListQuery,
  type TReminderStatus,
} from '../../../domain/reminders';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  members,
  orgs,
  projects,
  reminderDeliveries,
  reminderMembers,
  reminders,
  tasks,
} from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { clientVisibility, visibleClient } from '../clients';
import { audit, diff } from '../system-log';
import { clientRecipients, queueManualSend, queueSend } from './delivery';

/**
 * A member limited to assigned clients sees the reminders of those clients, and the reminders tied
 * to no client that they wrote or are part of.
 */
function visibility(scope: TScope): SQL | undefined {
  const onTeam = clientVisibility(scope, reminders.clientId);
  if (!onTeam) return undefined;
  return sql`(
    (${reminders.clientId} is not null and ${onTeam})
    or (${reminders.clientId} is null and (${reminders.createdBy} = ${scope.memberId} or exists (select 1 from ${reminderMembers} where ${reminderMembers.orgId} = ${reminders.orgId} and ${reminderMembers.reminderId} = ${reminders.id} and ${reminderMembers.memberId} = ${scope.memberId})))
  )`;
}

export async function visibleReminder(db: TExecutor, scope: TScope, id: string, lock = false) {
  const query = db
    .select()
    .from(reminders)
    .where(and(eq(reminders.orgId, scope.orgId), eq(reminders.id, id), visibility(scope)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Reminder not found' });
  return row;
}

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
    visibility(scope),
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

async function membersOf(db: TExecutor, orgId: string, reminderId: string) {
  return db
    .select({ id: members.id, name: memberName, email: members.email })
    .from(reminderMembers)
    .innerJoin(
      members,
      and(eq(members.orgId, reminderMembers.orgId), eq(members.id, reminderMembers.memberId)),
    )
    .where(and(eq(reminderMembers.orgId, orgId), eq(reminderMembers.reminderId, reminderId)))
    .orderBy(asc(members.firstName), asc(members.lastName));
}

export async function getReminder(db: TExecutor, scope: TScope, id: string) {
  const r = await visibleReminder(db, scope, id);
  const [people, [client], [project], [task]] = await Promise.all([
    membersOf(db, scope.orgId, id),
    r.clientId
      ? db
          .select({ id: clients.id, name: clients.name, email: clients.email })
          .from(clients)
          .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, r.clientId)))
      : Promise.resolve([]),
    r.projectId
      ? db
          .select({ id: projects.id, name: projects.name })
          .from(projects)
          .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, r.projectId)))
      : Promise.resolve([]),
    r.taskId
      ? db
          .select({ id: tasks.id, title: tasks.title })
          .from(tasks)
          .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, r.taskId)))
      : Promise.resolve([]),
  ]);
  return {
    ...r,
    members: people,
    client: client ?? null,
    project: project ?? null,
    task: task ?? null,
  };
}
export type TReminderDetail = Awaited<ReturnType<typeof getReminder>>;

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

/** Checks every linked id against the firm (and the member's clients) and works out the send time. */
async function resolveInput(tx: TExecutor, scope: TScope, input: TReminderInput) {
  if (input.clientId) {
    await visibleClient(tx, scope, input.clientId);
    if (input.channels.includes('email') && input.type !== 'team') {
      const { name, emails } = await clientRecipients(tx, scope.orgId, input.clientId);
      if (emails.length === 0) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: `${name} has no email address: add one to the client first`,
        });
      }
    }
  }
  if (input.projectId) {
    const [project] = await tx
      .select({ clientId: projects.clientId })
      .from(projects)
      .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, input.projectId)))
      .limit(1);
    if (!project) throw new TRPCError({ code: 'NOT_FOUND', message: 'Project not found' });
    if (input.clientId && project.clientId !== input.clientId) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'That project belongs to another client' });
    }
  }
  if (input.taskId) {
    const [task] = await tx
      .select({ clientId: tasks.clientId, projectId: tasks.projectId })
      .from(tasks)
      .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, input.taskId)))
      .limit(1);
    if (!task) throw new TRPCError({ code: 'NOT_FOUND', message: 'Task not found' });
    if (input.clientId && task.clientId && task.clientId !== input.clientId) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'That task belongs to another client' });
    }
    if (input.projectId && task.projectId !== input.projectId) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'That task is not in the chosen project' });
    }
  }
  if (input.memberIds.length) {
    const found = await tx
      .select({ id: members.id })
      .from(members)
      .where(
        and(
          eq(members.orgId, scope.orgId),
          inArray(members.id, input.memberIds),
          eq(members.status, 'active'),
        ),
      );
    if (found.length !== input.memberIds.length) {
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found (or deactivated)' });
    }
  }
  const [org] = await tx.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, scope.orgId));
  const remindAt =
    input.type === 'expiry'
      ? expiryRemindAt(input.expiryDate as string, input.daysBefore as number, org?.timeZone ?? 'UTC')
      : (input.remindAt as Date);
  const isExpiry = input.type === 'expiry';
  return {
    type: input.type,
    title: input.title,
    message: input.message,
    clientId: input.clientId,
    projectId: input.projectId,
    taskId: input.taskId,
    remindAt,
    anchorAt: remindAt,
    recurrence: input.recurrence,
    channels: input.type === 'client' ? (['email'] as const).slice() : input.channels,
    itemName: isExpiry ? input.itemName : null,
    expiryDate: isExpiry ? input.expiryDate : null,
    daysBefore: isExpiry ? input.daysBefore : null,
  };
}

async function setMembers(tx: TExecutor, orgId: string, reminderId: string, memberIds: string[]) {
  await tx
    .delete(reminderMembers)
    .where(and(eq(reminderMembers.orgId, orgId), eq(reminderMembers.reminderId, reminderId)));
  if (memberIds.length) {
    await tx.insert(reminderMembers).values(memberIds.map((memberId) => ({ orgId, reminderId, memberId })));
  }
}

export async function createReminder(db: TDb, scope: TScope, input: TReminderInput, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const values = await resolveInput(tx, scope, input);
    const now = new Date();
    const [created] = await tx
      .insert(reminders)
      .values({ ...values, orgId: scope.orgId, createdBy: scope.memberId, createdAt: now, updatedAt: now })
      .returning({
        id: reminders.id,
        remindAt: reminders.remindAt,
        title: reminders.title,
        type: reminders.type,
      });
    if (!created) throw new Error('reminder not created');
    await setMembers(tx, scope.orgId, created.id, input.type === 'client' ? [] : input.memberIds);
    await queueSend(tx, { id: created.id, orgId: scope.orgId, remindAt: created.remindAt });
    await audit(tx, actorOf(scope, meta), {
      action: 'reminder.create',
      recordType: 'reminder',
      recordId: created.id,
      summary: `Created the ${created.type} reminder “${created.title}” for ${created.remindAt.toISOString()}`,
    });
    return created;
  });
}

/** An edit reschedules: the reminder is scheduled again from its new time, whatever it was. */
export async function updateReminder(
  db: TDb,
  scope: TScope,
  id: string,
  input: TReminderInput,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await visibleReminder(tx, scope, id, true);
    if (before.status === 'cancelled') {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'This reminder is cancelled: create a new one' });
    }
    if (input.type !== before.type) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'A reminder keeps its type: create a new one' });
    }
    const values = await resolveInput(tx, scope, input);
    const beforeMembers = (await membersOf(tx, scope.orgId, id)).map((m) => m.id).sort();
    const nextMembers = input.type === 'client' ? [] : [...input.memberIds].sort();
    const changes = diff(
      { ...before, memberIds: beforeMembers } as unknown as Record<string, unknown>,
      { ...values, memberIds: nextMembers } as Record<string, unknown>,
    );
    const timeChanged = before.remindAt.getTime() !== values.remindAt.getTime();
    // A sent or failed reminder comes back to life only when its time moves (or it repeats).
    const status =
      before.status === 'scheduled' || timeChanged || values.recurrence !== 'none'
        ? 'scheduled'
        : before.status;
    if (!changes && status === before.status) return { id, changed: false };
    const [updated] = await tx
      .update(reminders)
      .set({
        ...values,
        status,
        lastError: status === 'scheduled' ? null : before.lastError,
        updatedAt: new Date(),
      })
      .where(and(eq(reminders.orgId, scope.orgId), eq(reminders.id, id)))
      .returning({ remindAt: reminders.remindAt });
    await setMembers(tx, scope.orgId, id, nextMembers);
    if (status === 'scheduled' && updated)
      await queueSend(tx, { id, orgId: scope.orgId, remindAt: updated.remindAt });
    await audit(tx, actorOf(scope, meta), {
      action: 'reminder.update',
      recordType: 'reminder',
      recordId: id,
      summary: `Updated the reminder “${input.title}”${changes ? `: ${Object.keys(changes).join(', ')}` : ''}`,
      changes,
    });
    return { id, changed: true };
  });
}

export async function cancelReminder(db: TDb, scope: TScope, id: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const r = await visibleReminder(tx, scope, id, true);
    if (r.status === 'cancelled') return { id, status: r.status };
    await tx
      .update(reminders)
      .set({ status: 'cancelled', updatedAt: new Date() })
      .where(and(eq(reminders.orgId, scope.orgId), eq(reminders.id, id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'reminder.cancel',
      recordType: 'reminder',
      recordId: id,
      summary: `Cancelled the reminder “${r.title}”`,
      changes: { status: { from: r.status, to: 'cancelled' } },
    });
    return { id, status: 'cancelled' as const };
  });
}

/**
 * Queues a send now. A one-off reminder is then sent (not again at its time); a repeating one gets
 * an extra send and keeps its schedule. A failed reminder is how it is retried by hand.
 */
export async function sendNow(db: TDb, scope: TScope, id: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const r = await visibleReminder(tx, scope, id, true);
    if (r.status === 'cancelled') {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'This reminder is cancelled: create a new one' });
    }
    const now = new Date();
    if (r.status === 'failed') {
      await tx
        .update(reminders)
        .set({ status: 'scheduled', lastError: null, updatedAt: now })
        .where(and(eq(reminders.orgId, scope.orgId), eq(reminders.id, id)));
    }
    await queueManualSend(tx, { id, orgId: scope.orgId }, now);
    await audit(tx, actorOf(scope, meta), {
      action: 'reminder.send_now',
      recordType: 'reminder',
      recordId: id,
      summary: `Asked to send the reminder “${r.title}” now`,
    });
    return { id, queuedAt: now };
  });
}

/** Pickers for the form: clients the member may see, their projects and tasks, active members. */
export async function clientOptions(db: TExecutor, scope: TScope, search?: string) {
  const where: (SQL | undefined)[] = [eq(clients.orgId, scope.orgId), isNull(clients.archivedAt)];
  where.push(clientVisibility(scope));
  if (search) where.push(sql`${clients.searchText} ilike ${escapeLike(search.toLowerCase())}`);
  return db
    .select({ id: clients.id, name: clients.name, code: clients.code, email: clients.email })
    .from(clients)
    .where(and(...where))
    .orderBy(asc(clients.name))
    .limit(20);
}

export async function linkOptions(db: TExecutor, scope: TScope, clientId: string) {
  await visibleClient(db, scope, clientId);
  const [ps, ts] = await Promise.all([
    db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(
        and(eq(projects.orgId, scope.orgId), eq(projects.clientId, clientId), isNull(projects.archivedAt)),
      )
      .orderBy(desc(projects.dueDate))
      .limit(50),
    db
      .select({ id: tasks.id, title: tasks.title, projectId: tasks.projectId })
      .from(tasks)
      .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.clientId, clientId)))
      .orderBy(desc(tasks.dueDate))
      .limit(100),
  ]);
  return { projects: ps, tasks: ts };
}

export async function memberOptions(db: TExecutor, scope: TScope) {
  return db
    .select({ id: members.id, name: memberName, email: members.email })
    .from(members)
    .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
    .orderBy(asc(members.firstName), asc(members.lastName))
    .limit(500);
}
