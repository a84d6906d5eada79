import { TRPCError } from '@trpc/server';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  NOTIFICATION_KINDS,
  type TNotificationListQuery,
  type TNotificationPreference,
  type TNotify,
  ZNotify,
} from '../../../domain/notifications';
import type { TPage } from '../../../domain/pagination';
import { actorOf, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { members, notificationPreferences, notifications } from '../../db/schema';
import { enqueueNotificationMail } from '../../mail';
import { audit } from '../system-log';

type TScope = { orgId: string; memberId: string };

export type TNotified = { notificationIds: string[]; mailed: number };

/**
 * The service other features call, inside their mutation's transaction:
 *
 *   await db.transaction(async (tx) => {
 *     …the change and its audit row…
 *     await notify(tx, { orgId, memberIds, kind: 'task.assigned', title, link: `/tasks?open=${id}` });
 *   });
 *
 * The in-app rows and the mail both commit (or roll back) with the change: each mail is a job
 * enqueued in the same transaction (src/server/mail), which the queue's worker sends after the
 * commit, retrying with backoff; a failed send never fails the change. `email: false` keeps to the
 * app alone (reminders mail their members through their own channel).
 *
 * Only active members of the org are notified; ids of another firm or of disabled members are
 * skipped. A member with no preference row for the kind gets both (absent = on).
 */
export async function notify(
  tx: TExecutor,
  input: TNotify,
  options: { email?: boolean } = {},
): Promise<TNotified> {
  const n = ZNotify.parse(input);
  const ids = [...new Set(n.memberIds)];
  if (ids.length === 0) return { notificationIds: [], mailed: 0 };
  const recipients = await tx
    .select({
      memberId: members.id,
      email: members.email,
      inApp: sql<boolean>`coalesce(${notificationPreferences.inApp}, true)`,
      byEmail: sql<boolean>`coalesce(${notificationPreferences.email}, true)`,
    })
    .from(members)
    .leftJoin(
      notificationPreferences,
      and(
        eq(notificationPreferences.orgId, members.orgId),
        eq(notificationPreferences.memberId, members.id),
        eq(notificationPreferences.kind, n.kind),
      ),
    )
    .where(and(eq(members.orgId, n.orgId), inArray(members.id, ids), eq(members.status, 'active')));

  const inApp = recipients.filter((r) => r.inApp);
  const created = inApp.length
    ? await tx
        .insert(notifications)
        .values(
          inApp.map((r) => ({
            orgId: n.orgId,
            memberId: r.memberId,
            kind: n.kind,
            title: n.title,
            body: n.body ?? null,
            link: n.link ?? null,
          })),
        )
        .returning({ id: notifications.id })
    : [];
  const byEmail = options.email === false ? [] : recipients.filter((r) => r.byEmail);
  await enqueueNotificationMail(
    tx,
    byEmail.map((r) => ({ to: r.email, title: n.title, body: n.body ?? null, link: n.link ?? null })),
    { orgId: n.orgId },
  );
  return { notificationIds: created.map((c) => c.id), mailed: byEmail.length };
}

const own = (scope: TScope) =>
  and(eq(notifications.orgId, scope.orgId), eq(notifications.memberId, scope.memberId));

export type TNotificationRow = {
  id: string;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  readAt: Date | null;
  createdAt: Date;
};

export async function listNotifications(
  db: TExecutor,
  scope: TScope,
  input: TNotificationListQuery,
): Promise<TPage<TNotificationRow>> {
  const filter = input.unreadOnly ? and(own(scope), isNull(notifications.readAt)) : own(scope);
  const order = input.unreadFirst
    ? [sql`(${notifications.readAt} is null) desc`, desc(notifications.createdAt), desc(notifications.id)]
    : [desc(notifications.createdAt), desc(notifications.id)];
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: notifications.id,
        kind: notifications.kind,
        title: notifications.title,
        body: notifications.body,
        link: notifications.link,
        readAt: notifications.readAt,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      .where(filter)
      .orderBy(...order)
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(notifications).where(filter),
  ]);
  return { rows, total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}

export async function unreadCount(db: TExecutor, scope: TScope): Promise<{ count: number }> {
  const [row] = await db
    .select({ count: count() })
    .from(notifications)
    .where(and(own(scope), isNull(notifications.readAt)));
  return { count: row?.count ?? 0 };
}

/**
 * Marks the caller's own notifications read. An id that is not theirs (another member's, another
 * firm's, or none at all) answers NOT_FOUND and nothing changes.
 */
export async function markRead(db: TDb, scope: TScope, ids: string[], meta: TRequestMeta) {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const mine = await tx
      .select({ id: notifications.id, readAt: notifications.readAt })
      .from(notifications)
      .where(and(own(scope), inArray(notifications.id, unique)));
    if (mine.length !== unique.length)
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Notification not found' });
    const unread = mine.filter((m) => !m.readAt).map((m) => m.id);
    if (unread.length) {
      await tx
        .update(notifications)
        .set({ readAt: new Date() })
        .where(and(own(scope), inArray(notifications.id, unread)));
      await audit(tx, actorOf(scope, meta), {
        action: 'notification.read',
        recordType: 'notification',
        recordId: unread.length === 1 ? unread[0] : null,
        summary:
          unread.length === 1 ? 'Marked a notification read' : `Marked ${unread.length} notifications read`,
      });
    }
    return { updated: unread.length };
  });
}

export async function markAllRead(db: TDb, scope: TScope, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(own(scope), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    if (updated.length) {
      await audit(tx, actorOf(scope, meta), {
        action: 'notification.read_all',
        recordType: 'notification',
        summary: `Marked all ${updated.length} unread notifications read`,
      });
    }
    return { updated: updated.length };
  });
}

/** Every kind, with the member's choice or the default (both on). */
export async function getPreferences(db: TExecutor, scope: TScope): Promise<TNotificationPreference[]> {
  const rows = await db
    .select({
      kind: notificationPreferences.kind,
      inApp: notificationPreferences.inApp,
      email: notificationPreferences.email,
    })
    .from(notificationPreferences)
    .where(
      and(
        eq(notificationPreferences.orgId, scope.orgId),
        eq(notificationPreferences.memberId, scope.memberId),
      ),
    );
  return NOTIFICATION_KINDS.map((kind) => {
    const row = rows.find((r) => r.kind === kind);
    return { kind, inApp: row?.inApp ?? true, email: row?.email ?? true };
  });
}

export async function setPreference(
  db: TDb,
  scope: TScope,
  input: TNotificationPreference,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = (await getPreferences(tx, scope)).find((p) => p.kind === input.kind);
    await tx
      .insert(notificationPreferences)
      .values({ orgId: scope.orgId, memberId: scope.memberId, ...input })
      .onConflictDoUpdate({
        target: [
          notificationPreferences.orgId,
          notificationPreferences.memberId,
          notificationPreferences.kind,
        ],
        set: { inApp: input.inApp, email: input.email, updatedAt: new Date() },
      });
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (before?.inApp !== input.inApp) changes.inApp = { from: before?.inApp, to: input.inApp };
    if (before?.email !== input.email) changes.email = { from: before?.email, to: input.email };
    if (Object.keys(changes).length) {
      await audit(tx, actorOf(scope, meta), {
        action: 'notification_preference.update',
        recordType: 'member',
        recordId: scope.memberId,
        summary: `Changed notification preferences for ${input.kind}`,
        changes,
      });
    }
    return getPreferences(tx, scope);
  });
}
