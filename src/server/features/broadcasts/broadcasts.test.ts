import { randomBytes, randomUUID } from 'node:crypto';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { and, eq, inArray, sql } from 'drizzle-orm';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  broadcastDeliveries,
  broadcastSettings,
  broadcastSuppressions,
  clients,
  jobs,
  projects,
  services,
  systemLog,
  tasks,
} from '../../db/schema';
import { registerJobs } from '../../jobs/setup';
import { createWorker, type TWorker } from '../../jobs/worker';
import { enqueueMail, MAIL_SEND } from '../../mail';
import { createMailer } from '../../mail/mailer';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedPortalUser } from '../../test/portal';
import { readable, startSmtpServer, type TReceivedMail } from '../../test/smtp-server';
import { tampered } from '../../test/tamper';
import type { AppRouter } from '../../trpc/router';
import { BROADCAST_PUMP, queuePump, STOPPED_WHILE_SENDING } from './pump';
import { BROADCAST_QUEUE, queueBroadcast, queueing } from './queueing';

// Real mail: nodemailer (the product's mailer) to a real SMTP server in this process, and what
// arrives read back: headers, placeholders, one message per recipient, a 451 retried, no duplicate
// after a restart, unsubscribe through the link the message carries.

let t: TTestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let worker: TWorker;
const silent = { info() {}, warn() {}, error() {} };
const TRPC = (code: string) => expect.objectContaining({ data: expect.objectContaining({ code }) });

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Practice <no-reply@practice.test>',
    VAULT_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  });
  registerJobs(t.storage);
  worker = createWorker(
    { db: t.db, config: t.config, mailer: createMailer(t.config.mail), log: silent },
    { pollMs: 10, kinds: [BROADCAST_QUEUE, BROADCAST_PUMP, MAIL_SEND] },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Runs the pumps (and queued mail) that are due until none is. */
async function drain() {
  for (let i = 0; i < 50; i++) if ((await worker.tick()) === 0) return;
}
const to = (email: string) => (m: TReceivedMail) => m.to.includes(email);
/** A header's value, unfolded (long ones go over several lines). */
const header = (m: TReceivedMail, name: string) =>
  m.data
    .split(/\r?\n\r?\n/)[0]
    ?.replace(/\r?\n[ \t]+/g, ' ')
    .match(new RegExp(`^${name}: (.*)$`, 'mi'))?.[1]
    ?.trim() ?? null;

async function firm(name: string) {
  const f = await t.seedFirm(name);
  const api = t.client(f.owner.token);
  await api.broadcasts.updateSettings.mutate({ ratePerSecond: 100, dailyCap: 1000 });
  const tag = `t-${randomUUID().slice(0, 6)}`;
  const mk = (code: string, email: string | null, extra: Partial<typeof clients.$inferInsert> = {}) =>
    t.db
      .insert(clients)
      .values({ orgId: f.org.id, code, name: `${name} ${code}`, email, tags: [tag], ...extra })
      .returning()
      .then((r) => r[0] as typeof clients.$inferSelect);
  const u = randomUUID().slice(0, 8);
  const a = await mk('A', `a-${u}@example.test`);
  const b = await mk('B', `b-${u}@example.test`);
  const noEmail = await mk('C', null);
  const gone = await mk('D', `d-${u}@example.test`);
  await t.db
    .insert(broadcastSuppressions)
    .values({ orgId: f.org.id, email: gone.email as string, reason: 'unsubscribed' });
  const portal = await seedPortalUser(t, { orgId: f.org.id, clientIds: [a.id], name: 'Priya Contact' });
  const [svc] = await t.db
    .insert(services)
    .values({ orgId: f.org.id, name: 'GST returns', code: `G${u}` })
    .returning();
  await t.db.insert(projects).values({
    orgId: f.org.id,
    clientId: a.id,
    serviceId: svc?.id,
    name: 'GST Q3',
    periodKey: '2026-Q3',
    dueDate: '2026-12-20',
  });
  await t.db
    .insert(tasks)
    .values({ orgId: f.org.id, clientId: a.id, title: 'Upload bank statements', forClient: true });
  return { ...f, api, tag, a, b, noEmail, gone, portal };
}

const BODY =
  '<p>Dear {{contact_name|client}},</p><p>{{client_name}} ({{client_code}}): {{service}} for {{period}} is due {{due_date|soon}}.</p>' +
  '<p>Still needed:</p>{{pending_items|nothing pending}}<p><a href="{{portal_link}}">Open your portal</a></p><script>alert(1)</script>';

describe('broadcasts', () => {
  let f: Awaited<ReturnType<typeof firm>>;
  beforeAll(async () => {
    f = await firm('Alpha');
  });

  it('refuses an unknown placeholder, sanitises the body, and previews for a client', async () => {
    await expect(
      f.api.broadcastTemplates.create.mutate({
        name: 'Bad',
        subject: 'Hi {{nickname}}',
        bodyHtml: '<p>x</p>',
      }),
    ).rejects.toMatchObject(TRPC('BAD_REQUEST'));
    const tpl = await f.api.broadcastTemplates.create.mutate({
      name: 'Season',
      subject: '{{firm_name}}: {{client_name}}, documents for {{fiscal_year}}',
      bodyHtml: BODY,
    });
    expect(tpl.bodyHtml).not.toContain('<script');
    const preview = await f.api.broadcastTemplates.preview.query({ ...tpl, clientId: f.a.id });
    expect(preview.subject).toMatch(/^Alpha: Alpha A, documents for \d{4}$/);
    expect(preview.html).toContain('Dear Priya Contact');
    expect(preview.html).toContain('GST returns for 2026-Q3');
    expect(preview.html).toContain('<li>Upload bank statements</li>');
    expect(preview.text).toContain('Upload bank statements');
    const other = await f.api.broadcastTemplates.preview.query({ ...tpl, clientId: f.b.id });
    expect(other.html).toContain('Dear client');
    expect(other.html).toContain('due soon');
    expect(other.html).toContain('nothing pending');
    const rows = await t.db.select().from(systemLog).where(eq(systemLog.recordId, tpl.id));
    expect(rows.map((r) => r.action)).toContain('broadcastTemplate.created');
  });

  it('counts the audience and says who is left out and why', async () => {
    const audience = { tags: [f.tag] };
    const perClient = await f.api.broadcasts.audience.query({ audience, mode: 'client' });
    expect(perClient.recipients).toBe(2);
    expect(perClient.excluded).toEqual({ no_email: 1, unsubscribed: 1, bounced: 0 });
    expect(perClient.sample.find((s) => s.clientId === f.a.id)?.cc).toEqual([f.portal.user.email]);
    expect(perClient.left.map((l) => l.reason).sort()).toEqual(['no_email', 'unsubscribed']);
    const perPerson = await f.api.broadcasts.audience.query({ audience, mode: 'person' });
    expect(perPerson.recipients).toBe(3);
    const withPortal = await f.api.broadcasts.audience.query({
      audience: { ...audience, portalAccess: 'with' },
    });
    expect(withPortal.recipients).toBe(1);
  });

  it('sends one message per recipient with the unsubscribe headers, placeholders filled, and a 451 retried', async () => {
    const before = smtp.received.length;
    smtp.deferNext(1, f.b.email);
    const created = await f.api.broadcasts.create.mutate({
      subject: 'Hello {{client_name}}',
      bodyHtml: BODY,
      audience: { tags: [f.tag] },
      mode: 'client',
    });
    expect(created.recipients).toBe(2);
    await drain();
    const deferred = await t.db
      .select()
      .from(broadcastDeliveries)
      .where(and(eq(broadcastDeliveries.broadcastId, created.id), eq(broadcastDeliveries.state, 'queued')));
    // The throttled one is back in the queue with the server's answer, not failed.
    expect(deferred).toHaveLength(1);
    expect(deferred[0]?.error).toMatch(/451/);
    // Its time comes (the backoff, shortened), and the firm's pump, queued for then, runs.
    await t.db
      .update(broadcastDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(broadcastDeliveries.broadcastId, created.id));
    await t.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(and(eq(jobs.kind, BROADCAST_PUMP), eq(jobs.status, 'queued')));
    await drain();
    const mails = smtp.received.slice(before);
    expect(mails).toHaveLength(2);
    const toA = mails.find(to(f.a.email as string));
    expect(toA?.to.sort()).toEqual([f.a.email, f.portal.user.email].sort());
    expect(header(toA as TReceivedMail, 'Subject')).toBe('Hello Alpha A');
    expect(header(toA as TReceivedMail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(header(toA as TReceivedMail, 'List-Unsubscribe')).toMatch(
      /^<http:\/\/127\.0\.0\.1\/api\/broadcasts\/unsubscribe\/.+>$/,
    );
    expect(readable(toA)).toContain('Upload bank statements');
    expect(readable(toA)).toContain(`/clientportal/${f.a.id}`);
    const detail = await f.api.broadcasts.get.query({ id: created.id });
    expect(detail.status).toBe('completed');
    expect(detail.counts).toEqual({ sent: 2 });
    const log = await t.db.select().from(systemLog).where(eq(systemLog.recordId, created.id));
    expect(log.map((r) => r.action).sort()).toEqual(['broadcast.completed', 'broadcast.created']);
    // The client's page lists it.
    const received = await f.api.broadcasts.forClient.query({ clientId: f.a.id, page: 1, pageSize: 10 });
    expect(received.rows[0]).toMatchObject({ broadcastId: created.id, state: 'sent' });
  });

  it('never sends twice: two workers at once, and a worker that died after the server accepted', async () => {
    const before = smtp.received.length;
    const created = await f.api.broadcasts.create.mutate({
      subject: 'Twice?',
      bodyHtml: '<p>Once.</p>',
      audience: { tags: [f.tag] },
      mode: 'person',
    });
    expect(created.recipients).toBe(3);
    // A worker claimed one and died after the SMTP server accepted it: its claim has run out.
    const [crashed] = await t.db
      .execute(sql`select id from broadcast_deliveries where broadcast_id = ${created.id} limit 1`)
      .then((r) => (r as unknown as { rows: { id: string }[] }).rows);
    await t.db
      .update(broadcastDeliveries)
      .set({
        state: 'sending',
        claimedBy: 'pump:dead',
        claimedUntil: new Date(Date.now() - 1000),
        handedAt: new Date(Date.now() - 60_000),
        attempts: 1,
      })
      .where(eq(broadcastDeliveries.id, crashed?.id as string));
    const second = createWorker(
      { db: t.db, config: t.config, mailer: createMailer(t.config.mail), log: silent },
      { pollMs: 10, kinds: [BROADCAST_PUMP] },
    );
    await Promise.all([drain(), second.tick(), second.tick()]);
    await drain();
    const mails = smtp.received.slice(before);
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.to[0])).size).toBe(2);
    const [row] = await t.db
      .select()
      .from(broadcastDeliveries)
      .where(eq(broadcastDeliveries.id, crashed?.id as string));
    expect(row).toMatchObject({ state: 'failed', error: STOPPED_WHILE_SENDING });
    // "Retry the failed ones" is a person's decision, and then it goes once.
    expect(await f.api.broadcasts.retryFailed.mutate({ id: created.id })).toEqual({ retried: 1 });
    await drain();
    expect(smtp.received.slice(before)).toHaveLength(3);
  });

  it('sends what a dead pump claimed but never handed to the server, at once; what it handed may have arrived', async () => {
    const before = smtp.received.length;
    const created = await f.api.broadcasts.create.mutate({
      subject: 'Claimed, not handed',
      bodyHtml: '<p>Once.</p>',
      audience: { tags: [f.tag] },
      mode: 'person',
    });
    expect(created.recipients).toBe(3);
    const ids = (
      await t.db
        .select({ id: broadcastDeliveries.id })
        .from(broadcastDeliveries)
        .where(eq(broadcastDeliveries.broadcastId, created.id))
        .orderBy(broadcastDeliveries.id)
    ).map((r) => r.id);
    // A pump claimed the whole batch, handed the first message to the server, and its instance
    // died: its claims still run for minutes, its hold on the firm has lapsed.
    const claim = {
      state: 'sending' as const,
      claimedBy: 'pump:dead',
      claimedUntil: new Date(Date.now() + 5 * 60_000),
      attempts: 1,
    };
    await t.db
      .update(broadcastDeliveries)
      .set({ ...claim, handedAt: new Date() })
      .where(eq(broadcastDeliveries.id, ids[0] as string));
    await t.db
      .update(broadcastDeliveries)
      .set(claim)
      .where(inArray(broadcastDeliveries.id, ids.slice(1)));
    await t.db
      .update(broadcastSettings)
      .set({ pumpBy: 'pump:dead', pumpUntil: new Date(Date.now() - 1000) })
      .where(eq(broadcastSettings.orgId, f.org.id));
    await drain();
    // The two never handed over are sent now, by the next pump, once each, as a first attempt.
    const mails = smtp.received.slice(before);
    expect(mails).toHaveLength(2);
    const rows = await t.db
      .select()
      .from(broadcastDeliveries)
      .where(eq(broadcastDeliveries.broadcastId, created.id))
      .orderBy(broadcastDeliveries.id);
    expect(rows.map((r) => r.state)).toEqual(['sending', 'sent', 'sent']);
    expect(rows.slice(1).map((r) => [r.attempts, r.error])).toEqual([
      [1, null],
      [1, null],
    ]);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(
      rows
        .slice(1)
        .map((r) => r.email)
        .sort(),
    );
    // The one handed over is left alone while its claim runs; then it is failed as "may have
    // arrived", never sent again by itself.
    await t.db
      .update(broadcastDeliveries)
      .set({ claimedUntil: new Date(Date.now() - 1000) })
      .where(eq(broadcastDeliveries.id, ids[0] as string));
    // The scan's part: a sending broadcast with no live pump gets one.
    await queuePump(t.db, f.org.id);
    await drain();
    const [handed] = await t.db
      .select()
      .from(broadcastDeliveries)
      .where(eq(broadcastDeliveries.id, ids[0] as string));
    expect(handed).toMatchObject({ state: 'failed', error: STOPPED_WHILE_SENDING });
    expect(smtp.received.slice(before)).toHaveLength(2);
  });

  it('unsubscribes with one click (RFC 8058) from broadcasts only', async () => {
    const before = smtp.received.length;
    const created = await f.api.broadcasts.create.mutate({
      subject: 'News',
      bodyHtml: '<p>News.</p>',
      audience: { tags: [f.tag], portalAccess: 'without' },
    });
    await drain();
    const mail = smtp.received.slice(before).find(to(f.b.email as string)) as TReceivedMail;
    const link = header(mail, 'List-Unsubscribe')?.slice(1, -1) as string;
    const url = link.replace('http://127.0.0.1', t.url);
    // Opening the link (a mail scanner does) changes nothing; a forged token is refused.
    expect((await fetch(url)).status).toBe(200);
    // The token is the delivery id, a dot, and its MAC: the MAC changed.
    const dot = url.lastIndexOf('.') + 1;
    const forged = `${url.slice(0, dot)}${tampered(url.slice(dot))}`;
    expect((await fetch(forged, { method: 'POST' })).status).toBe(404);
    expect(await f.api.broadcasts.audience.query({ audience: { tags: [f.tag] } })).toMatchObject({
      recipients: 2,
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    const after = await f.api.broadcasts.audience.query({ audience: { tags: [f.tag] } });
    expect(after.recipients).toBe(1);
    expect(after.excluded.unsubscribed).toBe(2);
    const delivery = await f.api.broadcasts.deliveries.query({ id: created.id, page: 1, pageSize: 10 });
    expect(delivery.rows[0]?.state).toBe('unsubscribed');
    // Other mail (a sign-in code, an invitation, a reminder all go this way) still reaches them.
    const mark = smtp.received.length;
    await t.db.transaction((tx) =>
      enqueueMail(tx, { to: f.b.email as string, subject: 'Your code', text: '123456' }),
    );
    await drain();
    expect(smtp.received.slice(mark).filter(to(f.b.email as string))).toHaveLength(1);
  });

  it('bounces suppress, and above 5 % failures it pauses itself; pause, resume, cancel are logged', async () => {
    const g = await firm('Beta');
    const extra = Array.from({ length: 20 }, (_, i) => ({
      orgId: g.org.id,
      code: `X${i}`,
      name: `Beta X${i}`,
      email: `x${i}-${randomUUID().slice(0, 6)}@example.test`,
      tags: [g.tag],
    }));
    await t.db.insert(clients).values(extra);
    smtp.refuseNext(3, (address) => /^x\d+-/.test(address));
    const created = await g.api.broadcasts.create.mutate({
      subject: 'Big',
      bodyHtml: '<p>Big.</p>',
      audience: { tags: [g.tag] },
    });
    expect(created.recipients).toBe(22);
    await drain();
    const detail = await g.api.broadcasts.get.query({ id: created.id });
    expect(detail.status).toBe('paused');
    expect(detail.pauseReason).toMatch(/Paused itself: 3 of \d+/);
    expect(detail.counts.bounced).toBe(3);
    const suppressed = await t.db
      .select()
      .from(broadcastSuppressions)
      .where(eq(broadcastSuppressions.orgId, g.org.id));
    expect(suppressed.filter((s) => s.reason === 'bounced')).toHaveLength(3);
    await expect(g.api.broadcasts.pause.mutate({ id: created.id })).rejects.toMatchObject(TRPC('CONFLICT'));
    await g.api.broadcasts.resume.mutate({ id: created.id });
    await g.api.broadcasts.pause.mutate({ id: created.id });
    await g.api.broadcasts.cancel.mutate({ id: created.id });
    const log = await t.db.select().from(systemLog).where(eq(systemLog.recordId, created.id));
    expect(log.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'broadcast.created',
        'broadcast.paused',
        'broadcast.resumed',
        'broadcast.cancelled',
      ]),
    );
  });

  it('queues a large audience a chunk at a time: each recipient once, even when the job runs twice at once', async () => {
    const g = await firm('Delta');
    const u = randomUUID().slice(0, 6);
    await t.db.insert(clients).values(
      Array.from({ length: 23 }, (_, i) => ({
        orgId: g.org.id,
        code: `Q${i}`,
        name: `Delta Q${i}`,
        // Two clients share an address: per person it is one recipient, whichever chunk has it.
        email: `q${i === 7 ? 3 : i}-${u}@example.test`,
        tags: [g.tag],
      })),
    );
    const chunk = queueing.chunk;
    queueing.chunk = 4;
    try {
      for (const mode of ['client', 'person'] as const) {
        const audience = { tags: [g.tag] };
        const expected = (await g.api.broadcasts.audience.query({ audience, mode })).recipients;
        const created = await g.api.broadcasts.create.mutate({
          subject: `Many ${mode}`,
          bodyHtml: '<p>Many.</p>',
          audience,
          mode,
          // Per person it sends now: the pump must not call it complete before the queueing ends.
          sendAt: mode === 'client' ? new Date(Date.now() + 60 * 60_000) : undefined,
        });
        expect(created.queueing).toBe(true);
        expect(created.recipients).toBeLessThan(expected);
        const listed = (await g.api.broadcasts.list.query({ page: 1, pageSize: 1 })).rows[0];
        expect(listed).toMatchObject({ id: created.id, queueing: true });
        const [job] = await t.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, BROADCAST_QUEUE), sql`${jobs.payload}->>'broadcastId' = ${created.id}`));
        const ctx = { db: t.db, config: t.config, mailer: createMailer(t.config.mail), log: silent };
        // A second worker (or a restarted one) runs the same job at the same time.
        await Promise.all([queueBroadcast(job as never, ctx), queueBroadcast(job as never, ctx)]);
        await queueBroadcast(job as never, ctx);
        const detail = await g.api.broadcasts.get.query({ id: created.id });
        expect(detail).toMatchObject({
          queueing: false,
          recipients: expected,
          status: mode === 'client' ? 'scheduled' : 'sending',
        });
        const keys = await t.db
          .select({ key: broadcastDeliveries.recipientKey })
          .from(broadcastDeliveries)
          .where(eq(broadcastDeliveries.broadcastId, created.id));
        expect(keys).toHaveLength(expected);
        expect(new Set(keys.map((k) => k.key)).size).toBe(expected);
        if (mode === 'client') await g.api.broadcasts.cancel.mutate({ id: created.id });
        else {
          const before = smtp.received.length;
          await drain();
          const sent = smtp.received.slice(before);
          expect(sent).toHaveLength(expected);
          expect(new Set(sent.map((m) => m.to[0])).size).toBe(expected);
          expect((await g.api.broadcasts.get.query({ id: created.id })).status).toBe('completed');
        }
      }
      // Cancelled while queueing: the rest is never queued and nothing is sent.
      const before = smtp.received.length;
      const cancelled = await g.api.broadcasts.create.mutate({
        subject: 'Stop',
        bodyHtml: '<p>Stop.</p>',
        audience: { tags: [g.tag] },
      });
      expect(cancelled.queueing).toBe(true);
      await g.api.broadcasts.cancel.mutate({ id: cancelled.id });
      await drain();
      const after = await g.api.broadcasts.get.query({ id: cancelled.id });
      expect(after).toMatchObject({ status: 'cancelled', queueing: false, recipients: cancelled.recipients });
      expect(smtp.received.length).toBe(before);
    } finally {
      queueing.chunk = chunk;
    }
  });

  it('sends at its time, not before', async () => {
    const before = smtp.received.length;
    const created = await f.api.broadcasts.create.mutate({
      subject: 'Later',
      bodyHtml: '<p>Later.</p>',
      audience: { tags: [f.tag] },
      sendAt: new Date(Date.now() + 60 * 60_000),
    });
    expect(created.status).toBe('scheduled');
    await drain();
    expect(smtp.received.length).toBe(before);
    await f.api.broadcasts.cancel.mutate({ id: created.id });
  });

  it('has a name for its lists: the one typed, else its template’s, else the subject without placeholders', async () => {
    const tpl = await f.api.broadcastTemplates.create.mutate({
      name: 'Year-end letter',
      subject: '{{client_name}}: year-end',
      bodyHtml: '<p>Hello</p>',
    });
    const later = new Date(Date.now() + 60 * 60_000);
    const base = { bodyHtml: '<p>x</p>', audience: { tags: [f.tag] }, sendAt: later };
    const typed = await f.api.broadcasts.create.mutate({
      ...base,
      name: 'December GST push',
      subject: '{{client_name}}: GST',
    });
    const fromTemplate = await f.api.broadcasts.create.mutate({
      ...base,
      templateId: tpl.id,
      subject: tpl.subject,
    });
    const fromSubject = await f.api.broadcasts.create.mutate({
      ...base,
      subject: '{{client_name}}: documents for 2026',
    });
    const list = await f.api.broadcasts.list.query({ pageSize: 50 });
    const nameOf = (id: string) => list.rows.find((r) => r.id === id)?.name;
    expect(nameOf(typed.id)).toBe('December GST push');
    expect(nameOf(fromTemplate.id)).toBe('Year-end letter');
    expect(nameOf(fromSubject.id)).toBe('documents for 2026');
    expect((await f.api.broadcasts.list.query({ search: 'GST push' })).rows.map((r) => r.id)).toEqual([
      typed.id,
    ]);
    // The system log names it, and writes the time on the firm's clock, not in ISO.
    const [logged] = await t.db
      .select({ summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.recordId, typed.id), eq(systemLog.action, 'broadcast.created')));
    expect(logged?.summary).toContain('“December GST push”');
    expect(logged?.summary).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    for (const b of [typed, fromTemplate, fromSubject]) await f.api.broadcasts.cancel.mutate({ id: b.id });
  });

  it('previews a message of any length (sent in a POST body), and says what is wrong in a person’s words', async () => {
    const posting = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${t.url}/api/trpc`,
          transformer: superjson,
          methodOverride: 'POST',
          headers: () => ({ authorization: `Bearer ${f.owner.token}` }),
        }),
      ],
    });
    // Past about 8,500 characters the address alone was refused (HTTP 431).
    const bodyHtml = `<p>${'Please send the bank statements for every account. '.repeat(400)}</p>`;
    expect(bodyHtml.length).toBeGreaterThan(20_000);
    const preview = await posting.broadcasts.preview.query({
      subject: 'Hi {{client_name}}',
      bodyHtml,
      clientId: f.a.id,
    });
    expect(preview.subject).toBe('Hi Alpha A');
    const refused = await posting.broadcasts.preview
      .query({ subject: 'Hi', bodyHtml: '<p>{{nickname}}</p>', clientId: f.a.id })
      .catch((e: Error) => e.message);
    expect(refused).toBe('The message uses a placeholder that does not exist: {{nickname}}');
  });

  it('is server-enforced: the new right, other firms, bad input', async () => {
    const staff = t.client(f.staff.token);
    await expect(
      staff.broadcasts.create.mutate({ subject: 'x', bodyHtml: '<p>x</p>', audience: {} }),
    ).rejects.toMatchObject(TRPC('FORBIDDEN'));
    const other = await t.seedFirm('Gamma');
    const api = t.client(other.owner.token);
    const [mine] = (await f.api.broadcasts.list.query({ page: 1, pageSize: 1 })).rows;
    await expect(api.broadcasts.get.query({ id: mine?.id as string })).rejects.toMatchObject(
      TRPC('NOT_FOUND'),
    );
    await expect(api.broadcasts.cancel.mutate({ id: mine?.id as string })).rejects.toMatchObject(
      TRPC('NOT_FOUND'),
    );
    await expect(
      api.broadcasts.preview.query({ subject: 'x', bodyHtml: '<p>x</p>', clientId: f.a.id }),
    ).rejects.toMatchObject(TRPC('NOT_FOUND'));
    await expect(
      api.broadcasts.forClient.query({ clientId: f.a.id, page: 1, pageSize: 10 }),
    ).rejects.toMatchObject(TRPC('NOT_FOUND'));
    await expect(
      f.api.broadcasts.create.mutate({ subject: 'x\u0000', bodyHtml: '<p>x</p>', audience: {} }),
    ).rejects.toMatchObject(TRPC('BAD_REQUEST'));
    await expect(
      f.api.broadcasts.updateSettings.mutate({ ratePerSecond: 1e9, dailyCap: 1 }),
    ).rejects.toMatchObject(TRPC('BAD_REQUEST'));
    await expect(
      f.api.broadcasts.create.mutate({
        subject: 'x',
        bodyHtml: '<p>x</p>',
        audience: { tags: ['no-such-tag'] },
      }),
    ).rejects.toMatchObject(TRPC('BAD_REQUEST'));
  });
});
