import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, systemLog } from '../db/schema';
import { registerMailJobs } from '../jobs/setup';
import { createWorker, type TWorker } from '../jobs/worker';
import { createTestApp, type TTestApp } from '../test/app';
import { readable, startSmtpServer } from '../test/smtp-server';
import { enqueueMail, MAIL_SEND, MAIL_SEND_ATTEMPTS } from '.';

// The mail job over a real SMTP server: sent once, retried with backoff, failed for good after the
// last attempt (in the firm's system log), never sent twice once it has been.

let t: TTestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let worker: TWorker;
const logged: { msg: string; obj: object }[] = [];
const log = {
  info() {},
  warn() {},
  error(obj: object, msg: string) {
    logged.push({ obj, msg });
  },
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Practice <no-reply@practice.test>' });
  registerMailJobs();
  // The app's one mailer, as app.ts hands it to the worker.
  worker = createWorker(
    { db: t.db, config: t.config, mailer: t.mailer, log },
    { pollMs: 10, kinds: [MAIL_SEND] },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const jobOf = async (id: string) => (await t.db.select().from(jobs).where(eq(jobs.id, id)))[0];
const receivedBy = (to: string) => smtp.received.filter((m) => m.to.includes(to));

/** Runs the due mail jobs until none is left. */
async function drain() {
  let total = 0;
  for (let n = await worker.tick(); n > 0; n = await worker.tick()) total += n;
  return total;
}

/** Makes a job's queued retry due now, as if its backoff had passed. */
const fastForward = (id: string) =>
  t.db
    .update(jobs)
    .set({ runAt: new Date(Date.now() - 1000) })
    .where(eq(jobs.id, id));

async function queue(to: string, orgId: string | null = null) {
  return t.db.transaction((tx) =>
    enqueueMail(
      tx,
      {
        to,
        subject: 'Your invitation',
        text: 'Open https://practice.test/auth/invite/SECRET-KEY to join.\n',
        notes: { link: 'https://practice.test/auth/invite/SECRET-KEY' },
      },
      { orgId },
    ),
  );
}

describe('the mail job', () => {
  it('sends a queued mail once, marks it done and forgets its text', async () => {
    const job = await queue('once@example.test');
    expect(await jobOf(job.id)).toMatchObject({ kind: MAIL_SEND, status: 'queued', maxAttempts: 5 });
    expect(await drain()).toBe(1);
    expect(receivedBy('once@example.test')).toHaveLength(1);
    expect(readable(receivedBy('once@example.test')[0])).toContain('auth/invite/SECRET-KEY');
    const done = await jobOf(job.id);
    expect(done).toMatchObject({ status: 'done', attempts: 1, lockedBy: null });
    // The key in the link does not stay in the jobs table.
    expect(done?.payload).toEqual({
      to: 'once@example.test',
      subject: 'Your invitation',
      sentAt: expect.any(String),
    });
    expect(JSON.stringify(done?.payload)).not.toContain('SECRET-KEY');

    // Brought back for an unrelated reason (an operator requeues it, a lost completion): the job
    // knows it has sent and does not send again.
    await t.db
      .update(jobs)
      .set({ status: 'queued', runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, job.id));
    expect(await drain()).toBe(1);
    expect(receivedBy('once@example.test')).toHaveLength(1);
    expect((await jobOf(job.id))?.status).toBe('done');
  });

  it('is queued with the change or not at all', async () => {
    await t.db
      .transaction(async (tx) => {
        await enqueueMail(tx, { to: 'rolled-back@example.test', subject: 'No', text: 'No\n' });
        throw new Error('the change failed');
      })
      .catch(() => {});
    expect(await drain()).toBe(0);
    expect(receivedBy('rolled-back@example.test')).toEqual([]);
  });

  it('retries a refused send with backoff, and sends it once when the server takes it', async () => {
    const job = await queue('flaky@example.test');
    smtp.refuseNext(1);
    const before = Date.now();
    expect(await drain()).toBe(1);
    const retry = await jobOf(job.id);
    expect(retry).toMatchObject({ status: 'queued', attempts: 1 });
    expect(retry?.lastError).toMatch(/Mailbox unavailable|recipients were rejected/);
    // The first retry waits between 15 and 30 seconds.
    expect(retry?.runAt.getTime()).toBeGreaterThanOrEqual(before + 15_000 - 1000);
    expect(retry?.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 30_000);
    expect(await drain()).toBe(0);

    await fastForward(job.id);
    expect(await drain()).toBe(1);
    expect(receivedBy('flaky@example.test')).toHaveLength(1);
    expect(await jobOf(job.id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('after the last attempt it is failed, logged and in the firm’s system log, without its text', async () => {
    const firm = await t.seedFirm('Mail Failures');
    const job = await queue('refused@example.test', firm.org.id);
    smtp.refuseNext(MAIL_SEND_ATTEMPTS);
    for (let attempt = 1; attempt <= MAIL_SEND_ATTEMPTS; attempt++) {
      await fastForward(job.id);
      expect(await drain()).toBe(1);
      expect((await jobOf(job.id))?.attempts).toBe(attempt);
    }
    const failed = await jobOf(job.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAIL_SEND_ATTEMPTS });
    expect(failed?.lastError).toMatch(/Mailbox unavailable|recipients were rejected/);
    expect(failed?.payload).toEqual({ to: 'refused@example.test', subject: 'Your invitation' });
    expect(receivedBy('refused@example.test')).toEqual([]);
    // Nothing more is tried.
    await fastForward(job.id);
    expect(await drain()).toBe(0);

    const rows = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'mail.failed')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorKind: 'system', recordType: 'mail' });
    expect(rows[0]?.summary).toMatch(
      /^Could not send “Your invitation” to refused@example\.test after 5 attempts: .*(Mailbox unavailable|recipients were rejected)/,
    );
    expect(logged.find((l) => l.msg === 'mail not sent')?.obj).toMatchObject({
      jobId: job.id,
      to: 'refused@example.test',
      attempts: MAIL_SEND_ATTEMPTS,
    });
  });

  it('a malformed job fails at once', async () => {
    const [job] = await t.db
      .insert(jobs)
      .values({ kind: MAIL_SEND, payload: { nothing: true }, maxAttempts: MAIL_SEND_ATTEMPTS })
      .returning();
    if (!job) throw new Error('job not queued');
    expect(await drain()).toBe(1);
    expect(await jobOf(job.id)).toMatchObject({ status: 'failed', attempts: 1 });
  });
});
