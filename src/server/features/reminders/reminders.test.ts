import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clients,
  clientTeam,
  jobs,
  members,
  notifications,
  projects,
  reminderDeliveries,
  reminders,
  roles,
  systemLog,
} from '../../db/schema';
import { registerJobs } from '../../jobs/setup';
import { createWorker, type TWorker } from '../../jobs/worker';
import { createMailer } from '../../mail/mailer';
import { createTestApp, type TTestApp } from '../../test/app';
import { readable, startSmtpServer } from '../../test/smtp-server';
import { queueDueReminders, REMINDER_SEND } from './delivery';

let t: TTestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let worker: TWorker;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Practice <no-reply@practice.test>' });
  registerJobs(t.storage);
  worker = createWorker(
    { db: t.db, config: t.config, mailer: createMailer(t.config.mail), log: silent },
    { pollMs: 10 },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const soon = () => new Date(Date.now() - 1000);
const TRPC = (code: string) => expect.objectContaining({ data: expect.objectContaining({ code }) });

async function firm(name: string) {
  const f = await t.seedFirm(name);
  const api = t.client(f.owner.token);
  const [client] = await t.db
    .insert(clients)
    .values({
      orgId: f.org.id,
      code: 'C1',
      name: `${name} Client`,
      email: `client-${randomUUID()}@example.test`,
    })
    .returning();
  const [noEmail] = await t.db
    .insert(clients)
    .values({ orgId: f.org.id, code: 'C2', name: 'No Email Ltd' })
    .returning();
  if (!client || !noEmail) throw new Error('seed failed');
  return { ...f, api, client, noEmail };
}

/** Runs the queue until nothing is due; answers how many jobs ran. */
async function drain() {
  let total = 0;
  for (let n = await worker.tick(); n > 0; n = await worker.tick()) total += n;
  return total;
}

/** Makes a reminder's queued retry due now, as if its backoff had passed. */
async function fastForward(reminderId: string) {
  const rows = await t.db.select().from(jobs).where(eq(jobs.kind, REMINDER_SEND));
  const mine = rows.filter((j) => (j.payload as { reminderId: string }).reminderId === reminderId);
  for (const j of mine.filter((x) => x.status === 'queued')) {
    await t.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, j.id));
  }
  return mine;
}

const deliveriesOf = (id: string) =>
  t.db
    .select()
    .from(reminderDeliveries)
    .where(eq(reminderDeliveries.reminderId, id))
    .orderBy(reminderDeliveries.sentAt);

describe('client reminders by SMTP', () => {
  it('sends a due reminder to the client over SMTP and shows it sent with its history', async () => {
    const f = await firm('Sendco');
    const before = smtp.received.length;
    const created = await f.api.reminders.create.mutate({
      type: 'client',
      title: 'Documents pending for the March return',
      message: 'Please upload your bank statements for March.',
      clientId: f.client.id,
      remindAt: soon(),
      channels: ['email'],
    });
    await drain();
    const mail = smtp.received.slice(before);
    expect(mail.map((m) => m.to)).toEqual([[f.client.email]]);
    expect(mail[0]?.data).toContain('Subject: Documents pending for the March return');
    expect(readable(mail[0])).toContain('Please upload your bank statements for March.');
    const got = await f.api.reminders.get.query({ id: created.id });
    expect(got.status).toBe('sent');
    expect(got.lastSentAt).toBeInstanceOf(Date);
    const history = await f.api.reminders.deliveries.query({ id: created.id });
    expect(history.rows.map((d) => [d.channel, d.recipient, d.status, d.attempt])).toEqual([
      ['email', f.client.email, 'sent', 1],
    ]);
    const list = await f.api.reminders.list.query({ type: 'client' });
    expect(list.rows.map((r) => [r.title, r.status, r.client?.name, r.lastDelivery?.status])).toEqual([
      ['Documents pending for the March return', 'sent', 'Sendco Client', 'sent'],
    ]);
    const log = await t.db.select().from(systemLog).where(eq(systemLog.recordId, created.id));
    expect(log.map((l) => l.action).sort()).toEqual(['reminder.create', 'reminder.sent']);
    // Sent once: nothing more goes out on later polls.
    await drain();
    expect(smtp.received.length).toBe(before + 1);
  });

  it('retries a refused delivery with backoff, then delivers it', async () => {
    const f = await firm('Refused once');
    const before = smtp.received.length;
    smtp.refuseNext(1);
    const created = await f.api.reminders.create.mutate({
      type: 'client',
      title: 'Advance tax due',
      clientId: f.client.id,
      remindAt: soon(),
      channels: ['email'],
    });
    await drain();
    expect(smtp.received.length).toBe(before);
    let got = await f.api.reminders.get.query({ id: created.id });
    expect(got.status).toBe('scheduled');
    expect(got.lastError).toMatch(/550/);
    const [job] = await fastForward(created.id).then(async (js) => js);
    expect(job?.attempts).toBe(1);
    expect(job?.status).toBe('queued');
    // The retry was put off by the backoff (at least half of 30 s), not run again at once.
    expect(job?.runAt.getTime()).toBeGreaterThan(Date.now() + 10_000);
    await drain();
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([[f.client.email]]);
    got = await f.api.reminders.get.query({ id: created.id });
    expect(got.status).toBe('sent');
    expect(got.lastError).toBeNull();
    const history = await deliveriesOf(created.id);
    expect(history.map((d) => [d.status, d.attempt])).toEqual([
      ['failed', 1],
      ['sent', 2],
    ]);
    expect(history[0]?.error).toMatch(/550/);
  });

  it('shows a reminder failed with the error after the last attempt, tells its creator, and sends on "send now"', async () => {
    const f = await firm('Refused always');
    smtp.refuseNext(1000);
    const created = await f.api.reminders.create.mutate({
      type: 'client',
      title: 'GST return data',
      clientId: f.client.id,
      remindAt: soon(),
      channels: ['email'],
    });
    for (let i = 0; i < 5; i++) {
      await drain();
      await fastForward(created.id);
    }
    await drain();
    smtp.refuseNext(0);
    const got = await f.api.reminders.get.query({ id: created.id });
    expect(got.status).toBe('failed');
    expect(got.lastError).toMatch(/550/);
    const history = await deliveriesOf(created.id);
    expect(history.map((d) => [d.status, d.attempt])).toEqual([1, 2, 3, 4, 5].map((n) => ['failed', n]));
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.orgId, f.org.id), eq(notifications.memberId, f.owner.id)));
    expect(told.map((n) => n.title)).toEqual(['Reminder not sent: GST return data']);

    const before = smtp.received.length;
    await f.api.reminders.sendNow.mutate({ id: created.id });
    await drain();
    expect(smtp.received.length).toBe(before + 1);
    expect((await f.api.reminders.get.query({ id: created.id })).status).toBe('sent');
    const actions = (await t.db.select().from(systemLog).where(eq(systemLog.recordId, created.id))).map(
      (l) => l.action,
    );
    expect(actions).toEqual(
      expect.arrayContaining(['reminder.create', 'reminder.failed', 'reminder.send_now', 'reminder.sent']),
    );
  });
});

describe('team and expiry reminders', () => {
  it('reaches chosen members in the app and by email, and schedules the next occurrence', async () => {
    const f = await firm('Team');
    const before = smtp.received.length;
    const remindAt = soon();
    const created = await f.api.reminders.create.mutate({
      type: 'team',
      title: 'Weekly review of pending returns',
      message: 'Check the overdue list.',
      remindAt,
      recurrence: 'weekly',
      channels: ['email', 'in_app'],
      memberIds: [f.staff.id],
    });
    await drain();
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([[f.staff.email]]);
    expect(readable(smtp.received.at(-1))).toContain(`/reminders/team?open=${created.id}`);
    const inApp = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.orgId, f.org.id), eq(notifications.memberId, f.staff.id)));
    expect(inApp.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['reminder.due', 'Weekly review of pending returns', `/reminders/team?open=${created.id}`],
    ]);
    const got = await f.api.reminders.get.query({ id: created.id });
    expect(got.status).toBe('scheduled');
    expect(got.remindAt.getTime()).toBe(remindAt.getTime() + 7 * 86_400_000);
    expect(got.members.map((m) => m.id)).toEqual([f.staff.id]);
    const next = (await t.db.select().from(jobs).where(eq(jobs.kind, REMINDER_SEND))).filter(
      (j) => (j.payload as { reminderId: string }).reminderId === created.id && j.status === 'queued',
    );
    expect(next.map((j) => j.runAt.getTime())).toEqual([got.remindAt.getTime()]);
  });

  it('derives an expiry reminder’s time and reaches the client and the responsible member', async () => {
    const f = await firm('Expiry');
    const made = await f.api.reminders.create.mutate({
      type: 'expiry',
      title: 'Digital signature certificate expires',
      clientId: f.client.id,
      itemName: 'DSC of the director',
      expiryDate: '2030-04-10',
      daysBefore: 15,
      channels: ['email', 'in_app'],
      memberIds: [f.staff.id],
    });
    const got = await f.api.reminders.get.query({ id: made.id });
    expect(got.remindAt.toISOString()).toBe('2030-03-26T09:00:00.000Z');
    expect(got.expiryDate).toBe('2030-04-10');
    // Move it to now as if the day had come, then let the queue send it.
    await t.db.update(reminders).set({ remindAt: soon(), anchorAt: soon() }).where(eq(reminders.id, made.id));
    const before = smtp.received.length;
    // Nothing was queued for the moved time: the periodic scan finds it and queues it once.
    await queueDueReminders(t.db);
    await queueDueReminders(t.db);
    await drain();
    const to = smtp.received
      .slice(before)
      .flatMap((m) => m.to)
      .sort();
    expect(to).toEqual([f.client.email, f.staff.email].sort());
    expect(readable(smtp.received.at(-1))).toMatch(/DSC of the director expires on 10 Apr 2030\./);
    expect((await f.api.reminders.get.query({ id: made.id })).status).toBe('sent');
  });

  it('sends nothing for a cancelled reminder or for the old time of an edited one', async () => {
    const f = await firm('Cancel');
    const before = smtp.received.length;
    const a = await f.api.reminders.create.mutate({
      type: 'client',
      title: 'Cancelled one',
      clientId: f.client.id,
      remindAt: soon(),
      channels: ['email'],
    });
    await f.api.reminders.cancel.mutate({ id: a.id });
    const b = await f.api.reminders.create.mutate({
      type: 'client',
      title: 'Moved one',
      clientId: f.client.id,
      remindAt: soon(),
      channels: ['email'],
    });
    const later = new Date(Date.now() + 86_400_000);
    await f.api.reminders.update.mutate({
      id: b.id,
      data: {
        type: 'client',
        title: 'Moved one',
        clientId: f.client.id,
        remindAt: later,
        channels: ['email'],
      },
    });
    await drain();
    expect(smtp.received.length).toBe(before);
    expect((await f.api.reminders.get.query({ id: a.id })).status).toBe('cancelled');
    const moved = await f.api.reminders.get.query({ id: b.id });
    expect([moved.status, moved.remindAt.getTime()]).toEqual(['scheduled', later.getTime()]);
    const log = await t.db.select().from(systemLog).where(eq(systemLog.orgId, f.org.id));
    expect(log.map((l) => l.action).sort()).toEqual([
      'reminder.cancel',
      'reminder.create',
      'reminder.create',
      'reminder.update',
    ]);
    await expect(f.api.reminders.sendNow.mutate({ id: a.id })).rejects.toEqual(TRPC('BAD_REQUEST'));
  });
});

describe('validation', () => {
  it('answers BAD_REQUEST with a clear message and changes nothing', async () => {
    const f = await firm('Valid');
    const count = async () =>
      (await t.db.select().from(reminders).where(eq(reminders.orgId, f.org.id))).length;
    await expect(
      f.api.reminders.create.mutate({ type: 'client', title: '', remindAt: soon(), channels: ['email'] }),
    ).rejects.toThrow(/Enter a title/);
    await expect(
      f.api.reminders.create.mutate({ type: 'team', title: 'x', remindAt: soon(), channels: ['email'] }),
    ).rejects.toThrow(/Choose at least one member/);
    await expect(
      f.api.reminders.create.mutate({
        type: 'client',
        title: 'x',
        clientId: f.noEmail.id,
        remindAt: soon(),
        channels: ['email'],
      }),
    ).rejects.toThrow(/No Email Ltd has no email address/);
    const [project] = await t.db
      .insert(projects)
      .values({ orgId: f.org.id, clientId: f.noEmail.id, name: 'Other client’s project' })
      .returning();
    await expect(
      f.api.reminders.create.mutate({
        type: 'client',
        title: 'x',
        clientId: f.client.id,
        projectId: project?.id,
        remindAt: soon(),
        channels: ['email'],
      }),
    ).rejects.toThrow(/That project belongs to another client/);
    await expect(f.api.reminders.list.query({ type: 'bogus' as 'client' })).rejects.toEqual(
      TRPC('BAD_REQUEST'),
    );
    expect(await count()).toBe(0);
  });
});

describe('permissions', () => {
  it('needs the reminders rights, and a limited member sees only their clients’ reminders', async () => {
    const f = await firm('Rights');
    const staff = t.client(f.staff.token);
    // The seeded test staff role has no reminders right at all.
    await expect(staff.reminders.list.query({ type: 'client' })).rejects.toEqual(TRPC('FORBIDDEN'));
    const [other] = await t.db
      .insert(clients)
      .values({ orgId: f.org.id, code: 'C3', name: 'Unassigned Co', email: 'u@example.test' })
      .returning();
    if (!other) throw new Error('seed failed');
    const mine = await f.api.reminders.create.mutate({
      type: 'client',
      title: 'Assigned one',
      clientId: f.client.id,
      remindAt: new Date(Date.now() + 3_600_000),
      channels: ['email'],
    });
    const theirs = await f.api.reminders.create.mutate({
      type: 'client',
      title: 'Unassigned one',
      clientId: other.id,
      remindAt: new Date(Date.now() + 3_600_000),
      channels: ['email'],
    });
    await t.db
      .update(roles)
      .set({ permissions: ['reminders.view', 'clients.view'], assignedClientsOnly: true })
      .where(eq(roles.id, f.roles.staff.id));
    await t.db.insert(clientTeam).values({ orgId: f.org.id, clientId: f.client.id, memberId: f.staff.id });
    const list = await staff.reminders.list.query({ type: 'client' });
    expect(list.rows.map((r) => r.title)).toEqual(['Assigned one']);
    expect((await staff.reminders.get.query({ id: mine.id })).title).toBe('Assigned one');
    await expect(staff.reminders.get.query({ id: theirs.id })).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(staff.reminders.deliveries.query({ id: theirs.id })).rejects.toEqual(TRPC('NOT_FOUND'));
    // Viewing is not creating, editing or cancelling.
    await expect(
      staff.reminders.create.mutate({
        type: 'client',
        title: 'x',
        clientId: f.client.id,
        remindAt: soon(),
        channels: ['email'],
      }),
    ).rejects.toEqual(TRPC('FORBIDDEN'));
    await expect(staff.reminders.sendNow.mutate({ id: mine.id })).rejects.toEqual(TRPC('FORBIDDEN'));
    await expect(staff.reminders.cancel.mutate({ id: mine.id })).rejects.toEqual(TRPC('FORBIDDEN'));
    // With the rights, still only assigned clients.
    await t.db
      .update(roles)
      .set({ permissions: ['reminders.view', 'reminders.create', 'reminders.edit', 'clients.view'] })
      .where(eq(roles.id, f.roles.staff.id));
    await expect(
      staff.reminders.create.mutate({
        type: 'client',
        title: 'x',
        clientId: other.id,
        remindAt: soon(),
        channels: ['email'],
      }),
    ).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(staff.reminders.sendNow.mutate({ id: theirs.id })).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(staff.reminders.linkOptions.query({ clientId: other.id })).rejects.toEqual(
      TRPC('NOT_FOUND'),
    );
    expect((await staff.reminders.clientOptions.query({})).map((c) => c.name)).toEqual(['Rights Client']);
  });
});

describe('cross-org', () => {
  it('answers NOT_FOUND for another firm’s reminders, clients and members', async () => {
    const a = await firm('Firm A');
    const b = await firm('Firm B');
    const ra = await a.api.reminders.create.mutate({
      type: 'client',
      title: 'A only',
      clientId: a.client.id,
      remindAt: new Date(Date.now() + 3_600_000),
      channels: ['email'],
    });
    await expect(b.api.reminders.get.query({ id: ra.id })).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(b.api.reminders.deliveries.query({ id: ra.id })).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(b.api.reminders.cancel.mutate({ id: ra.id })).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(b.api.reminders.sendNow.mutate({ id: ra.id })).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(
      b.api.reminders.update.mutate({
        id: ra.id,
        data: {
          type: 'client',
          title: 'hijack',
          clientId: b.client.id,
          remindAt: soon(),
          channels: ['email'],
        },
      }),
    ).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(
      b.api.reminders.create.mutate({
        type: 'client',
        title: 'x',
        clientId: a.client.id,
        remindAt: soon(),
        channels: ['email'],
      }),
    ).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(
      b.api.reminders.create.mutate({
        type: 'team',
        title: 'x',
        remindAt: soon(),
        channels: ['in_app'],
        memberIds: [a.staff.id],
      }),
    ).rejects.toEqual(TRPC('NOT_FOUND'));
    expect((await b.api.reminders.list.query({ type: 'client' })).rows).toEqual([]);
    expect((await a.api.reminders.get.query({ id: ra.id })).title).toBe('A only');
    const [row] = await t.db.select().from(members).where(eq(members.id, a.staff.id));
    expect(row?.orgId).toBe(a.org.id);
  });
});
