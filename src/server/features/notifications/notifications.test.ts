import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '../../../domain/notifications';
import { jobs, members, notifications, systemLog } from '../../db/schema';
import { MAIL_SEND } from '../../mail';
import { createTestApp, type TTestApp } from '../../test/app';
import { membersForSeededRoles } from '../../test/role-members';
import { notify } from './service';

let t: TTestApp;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notifications-test-'));
beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir, PUBLIC_URL: 'https://practice.example' });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Who the firm's queued (not yet sent) notification mail is for. */
async function queuedTo(orgId: string) {
  const rows = await t.db
    .select({ payload: jobs.payload, status: jobs.status })
    .from(jobs)
    .where(and(eq(jobs.kind, MAIL_SEND), eq(jobs.orgId, orgId)));
  return rows
    .filter((r) => r.status === 'queued')
    .map((r) => (r.payload as { notification: { to: string } }).notification.to)
    .sort();
}

const task = {
  kind: 'task.assigned',
  title: 'GST return for Acme assigned to you',
  link: '/tasks?open=1',
} as const;

describe('notify()', () => {
  it('writes in-app rows and queues mail for everyone by default, in the same transaction', async () => {
    const firm = await t.seedFirm();
    const notified = await t.db.transaction((tx) =>
      notify(tx, {
        orgId: firm.org.id,
        memberIds: [firm.owner.id, firm.staff.id],
        ...task,
        body: 'Due Friday',
      }),
    );
    expect(notified.notificationIds).toHaveLength(2);
    expect(notified.mailed).toBe(2);
    expect(await queuedTo(firm.org.id)).toEqual([firm.owner.email, firm.staff.email].sort());

    // The worker sends them, the link made absolute with PUBLIC_URL.
    const sent = (await t.outbox()).filter((m) => [firm.owner.email, firm.staff.email].includes(m.to));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({
      subject: task.title,
      text: expect.stringContaining('Open it: https://practice.example/tasks?open=1'),
      notes: { link: 'https://practice.example/tasks?open=1' },
    });
    expect(sent[0]?.text).toContain('Due Friday');
    expect(await queuedTo(firm.org.id)).toEqual([]);
    expect(await t.client(firm.staff.token).notifications.unreadCount.query()).toEqual({ count: 1 });
  });

  it('respects preferences: in-app off → no row; email off → no mail; absent → both', async () => {
    const firm = await t.seedFirm();
    const owner = t.client(firm.owner.token);
    const staff = t.client(firm.staff.token);
    await owner.notifications.preferences.set.mutate({ kind: 'task.assigned', inApp: false, email: true });
    await staff.notifications.preferences.set.mutate({ kind: 'task.assigned', inApp: true, email: false });

    const notified = await notify(t.db, {
      orgId: firm.org.id,
      memberIds: [firm.owner.id, firm.staff.id],
      ...task,
    });
    expect(notified.mailed).toBe(1);
    expect(await queuedTo(firm.org.id)).toEqual([firm.owner.email]);
    const rows = await t.db
      .select({ memberId: notifications.memberId })
      .from(notifications)
      .where(eq(notifications.orgId, firm.org.id));
    expect(rows).toEqual([{ memberId: firm.staff.id }]);

    // Another kind still uses the defaults.
    const other = await notify(t.db, {
      orgId: firm.org.id,
      memberIds: [firm.owner.id],
      kind: 'leave.decided',
      title: 'Leave approved',
    });
    expect(other.notificationIds).toHaveLength(1);
    expect(other.mailed).toBe(1);

    const prefs = await owner.notifications.preferences.get.query();
    expect(prefs.find((p) => p.kind === 'task.assigned')).toEqual({
      kind: 'task.assigned',
      inApp: false,
      email: true,
    });
    expect(prefs.find((p) => p.kind === 'reminder.due')).toEqual({
      kind: 'reminder.due',
      inApp: true,
      email: true,
    });
    const log = await t.db
      .select({ action: systemLog.action, changes: systemLog.changes })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.actorMemberId, firm.owner.id)));
    expect(log).toEqual([
      { action: 'notification_preference.update', changes: { inApp: { from: true, to: false } } },
    ]);
  });

  it('skips members of another firm, disabled members and unknown ids', async () => {
    const a = await t.seedFirm('A');
    const b = await t.seedFirm('B');
    await t.db.update(members).set({ status: 'disabled' }).where(eq(members.id, a.staff.id));
    const notified = await notify(t.db, {
      orgId: a.org.id,
      memberIds: [a.owner.id, a.staff.id, b.owner.id, randomUUID()],
      ...task,
    });
    expect(notified.notificationIds).toHaveLength(1);
    expect(await queuedTo(a.org.id)).toEqual([a.owner.email]);
    expect(await t.client(b.owner.token).notifications.unreadCount.query()).toEqual({ count: 0 });
  });

  it('refuses a link out of the app and rolls back with the transaction', async () => {
    const firm = await t.seedFirm();
    await expect(
      notify(t.db, { orgId: firm.org.id, memberIds: [firm.owner.id], ...task, link: 'https://evil.example' }),
    ).rejects.toThrow(/path in the app/);
    await expect(
      notify(t.db, { orgId: firm.org.id, memberIds: [firm.owner.id], ...task, link: '//evil.example' }),
    ).rejects.toThrow(/path in the app/);
    await t.db
      .transaction(async (tx) => {
        await notify(tx, { orgId: firm.org.id, memberIds: [firm.owner.id], ...task });
        throw new Error('the change failed');
      })
      .catch(() => {});
    expect(await t.client(firm.owner.token).notifications.unreadCount.query()).toEqual({ count: 0 });
    expect(await queuedTo(firm.org.id)).toEqual([]);
  });

  it('keeps to the app when asked to (reminders mail through their own channel)', async () => {
    const firm = await t.seedFirm();
    const notified = await notify(
      t.db,
      { orgId: firm.org.id, memberIds: [firm.owner.id], ...task },
      { email: false },
    );
    expect(notified).toMatchObject({ mailed: 0, notificationIds: [expect.any(String)] });
    expect(await queuedTo(firm.org.id)).toEqual([]);
  });
});

describe('notifications router', () => {
  it('lists newest first or unread first, paginated, and marks read', async () => {
    const firm = await t.seedFirm();
    const api = t.client(firm.owner.token);
    const ids: string[] = [];
    for (const title of ['first', 'second', 'third']) {
      const n = await notify(t.db, { orgId: firm.org.id, memberIds: [firm.owner.id], ...task, title });
      ids.push(...n.notificationIds);
    }
    expect(await api.notifications.unreadCount.query()).toEqual({ count: 3 });
    const page1 = await api.notifications.list.query({ pageSize: 2 });
    expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page1.rows.map((r) => r.title)).toEqual(['third', 'second']);
    expect((await api.notifications.list.query({ pageSize: 2, page: 2 })).rows.map((r) => r.title)).toEqual([
      'first',
    ]);

    await api.notifications.markRead.mutate({ ids: [ids[2] as string] });
    expect(await api.notifications.unreadCount.query()).toEqual({ count: 2 });
    const unreadFirst = await api.notifications.list.query({ unreadFirst: true });
    expect(unreadFirst.rows.map((r) => [r.title, r.readAt !== null])).toEqual([
      ['second', false],
      ['first', false],
      ['third', true],
    ]);
    expect((await api.notifications.list.query({ unreadOnly: true })).total).toBe(2);
    // Marking an already-read one again is harmless and logs nothing new.
    expect(await api.notifications.markRead.mutate({ ids: [ids[2] as string] })).toEqual({ updated: 0 });

    expect(await api.notifications.markAllRead.mutate()).toEqual({ updated: 2 });
    expect(await api.notifications.unreadCount.query()).toEqual({ count: 0 });
    const log = await api.systemLog.list.query({ recordType: 'notification' });
    expect(log.rows.map((r) => r.action).sort()).toEqual(['notification.read', 'notification.read_all']);
  });

  it('touches only the caller’s own rows: another member’s notification is NOT_FOUND', async () => {
    const firm = await t.seedFirm();
    const other = await t.seedFirm('Other');
    const ownerN = await notify(t.db, { orgId: firm.org.id, memberIds: [firm.owner.id], ...task });
    const otherN = await notify(t.db, { orgId: other.org.id, memberIds: [other.owner.id], ...task });
    const staff = t.client(firm.staff.token);

    expect((await staff.notifications.list.query({})).total).toBe(0);
    expect(await staff.notifications.unreadCount.query()).toEqual({ count: 0 });
    for (const id of [ownerN.notificationIds[0], otherN.notificationIds[0], randomUUID()]) {
      await expect(staff.notifications.markRead.mutate({ ids: [id as string] })).rejects.toMatchObject({
        data: { code: 'NOT_FOUND' },
      });
    }
    // Mixed with one of their own: still NOT_FOUND, and their own stays unread.
    const mine = await notify(t.db, { orgId: firm.org.id, memberIds: [firm.staff.id], ...task });
    await expect(
      staff.notifications.markRead.mutate({
        ids: [mine.notificationIds[0] as string, ownerN.notificationIds[0] as string],
      }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    expect(await staff.notifications.unreadCount.query()).toEqual({ count: 1 });
    // markAllRead by the staff member leaves the owner's unread.
    await staff.notifications.markAllRead.mutate();
    expect(await t.client(firm.owner.token).notifications.unreadCount.query()).toEqual({ count: 1 });
    expect(await t.client(other.owner.token).notifications.unreadCount.query()).toEqual({ count: 1 });
  });

  it('refuses bad input with the field named', async () => {
    const firm = await t.seedFirm();
    const api = t.client(firm.owner.token);
    await expect(api.notifications.markRead.mutate({ ids: ['nope'] })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('Not a notification id'),
    });
    await expect(
      // @ts-expect-error: a kind that does not exist
      api.notifications.preferences.set.mutate({ kind: 'pizza.arrived', inApp: true, email: true }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });

  it('lets every seeded role use every procedure (a member’s own notifications)', async () => {
    const firm = await t.seedFirm();
    for (const person of await membersForSeededRoles(t, firm)) {
      const api = t.client(person.token);
      const n = await notify(t.db, { orgId: firm.org.id, memberIds: [person.id], ...task });
      await expect(api.notifications.list.query({})).resolves.toMatchObject({ total: 1 });
      await expect(api.notifications.unreadCount.query()).resolves.toEqual({ count: 1 });
      await expect(api.notifications.markRead.mutate({ ids: n.notificationIds })).resolves.toEqual({
        updated: 1,
      });
      await expect(api.notifications.markAllRead.mutate()).resolves.toEqual({ updated: 0 });
      await expect(api.notifications.preferences.get.query()).resolves.toHaveLength(
        NOTIFICATION_KINDS.length,
      );
      await expect(
        api.notifications.preferences.set.mutate({ kind: 'reminder.due', inApp: true, email: false }),
      ).resolves.toHaveLength(NOTIFICATION_KINDS.length);
    }
    await expect(t.client().notifications.unreadCount.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });
});
