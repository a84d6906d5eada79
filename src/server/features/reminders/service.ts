import { TRPCError } from '@trpc/server';
import { and, eq, inArray } from 'drizzle-orm';
import { expiryRemindAt } from '../../../domain/reminder-schedule';
import type { TReminderInput } from '../../../domain/reminders';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { members, orgs, projects, reminderMembers, reminders, tasks } from '../../db/schema';
import { visibleClient } from '../clients';
import { audit, diff } from '../system-log';
import { visibleReminder } from './access';
import { clientRecipients, queueManualSend, queueSend } from './delivery';
import { membersOf } from './detail';

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
