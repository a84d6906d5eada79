import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { TDatabase } from '../db/client';
import { jobs } from '../db/schema';
import { createMailer } from '../mail/mailer';
import { createTestDatabase } from '../test/database';
import { backoffMs, claimJobs, enqueue } from './queue';
import { every, PermanentJobError, periodBucket, registerJob, type TJobContext } from './registry';
import { createWorker } from './worker';

let database: TDatabase;
let ctx: TJobContext;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '/nonexistent-test-data-dir',
    LOG_LEVEL: 'silent',
  });
  ctx = { db: database.db, config, mailer: createMailer(config.mail), log: silent };
});
afterAll(() => database?.close());

const jobById = async (id: string) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('configuration', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '/nonexistent-test-data-dir' } as const;
  it('runs jobs unless turned off, polling every second by default', () => {
    expect(loadConfig(base).jobs).toEqual({ enabled: true, pollMs: 1000 });
    expect(loadConfig({ ...base, JOBS_ENABLED: 'false', JOBS_POLL_MS: '250' }).jobs).toEqual({
      enabled: false,
      pollMs: 250,
    });
    expect(() => loadConfig({ ...base, JOBS_POLL_MS: '10' })).toThrow(
      'Invalid configuration: JOBS_POLL_MS: JOBS_POLL_MS must be at least 50',
    );
  });
});

describe('backoff', () => {
  it('doubles per attempt between half and all of the ceiling, and stops at the cap', () => {
    const b = { baseMs: 1000, capMs: 10_000 };
    expect(backoffMs(1, b, () => 0)).toBe(500);
    expect(backoffMs(1, b, () => 1)).toBe(1000);
    expect(backoffMs(3, b, () => 0)).toBe(2000);
    expect(backoffMs(3, b, () => 1)).toBe(4000);
    expect(backoffMs(10, b, () => 1)).toBe(10_000);
    expect(backoffMs(10, b, () => 0)).toBe(5000);
  });
});

describe('enqueue', () => {
  it('is idempotent on a dedupe key', async () => {
    const first = await enqueue(database.db, 'test.dedupe', { n: 1 }, { dedupeKey: 'dedupe-1' });
    const second = await enqueue(database.db, 'test.dedupe', { n: 2 }, { dedupeKey: 'dedupe-1' });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    const rows = await database.db.select().from(jobs).where(eq(jobs.dedupeKey, 'dedupe-1'));
    expect(rows.map((r) => r.payload)).toEqual([{ n: 1 }]);
  });

  it('rolls back with the transaction it was given', async () => {
    await database.db
      .transaction(async (tx) => {
        await enqueue(tx, 'test.rollback', {}, { dedupeKey: 'rolled-back' });
        throw new Error('abort');
      })
      .catch(() => {});
    expect(await database.db.select().from(jobs).where(eq(jobs.dedupeKey, 'rolled-back'))).toEqual([]);
  });
});

describe('two workers', () => {
  it('run each job exactly once', async () => {
    const seen: string[] = [];
    registerJob('test.once', async (job) => {
      seen.push(job.id);
      await sleep(2);
    });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const job = await enqueue(database.db, 'test.once', { i });
      if (job) ids.push(job.id);
    }
    const a = createWorker(ctx, { pollMs: 10, batchSize: 4, id: 'worker-a' });
    const b = createWorker(ctx, { pollMs: 10, batchSize: 4, id: 'worker-b' });
    // Both poll side by side until the queue is drained.
    const drain = async (w: typeof a) => {
      while ((await w.tick()) > 0) {}
    };
    await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    expect(seen.length).toBe(40);
    expect(new Set(seen).size).toBe(40);
    const rows = await database.db.select().from(jobs).where(inArray(jobs.id, ids));
    expect(rows.every((r) => r.status === 'done' && r.attempts === 1 && r.lockedBy === null)).toBe(true);
  });
});

describe('lease', () => {
  it('runs a job again when the worker that claimed it died', async () => {
    let runs = 0;
    registerJob(
      'test.lease',
      async () => {
        runs++;
      },
      { leaseMs: 150 },
    );
    const job = await enqueue(database.db, 'test.lease', {});
    if (!job) throw new Error('not enqueued');
    // A worker claims it and dies before running it.
    const claimed = await claimJobs(database.db, 'dead-worker', 10, { 'test.lease': 150 });
    expect(claimed.map((j) => j.id)).toContain(job.id);
    const other = createWorker(ctx, { pollMs: 10, id: 'survivor' });
    await other.tick();
    expect(runs).toBe(0);
    expect((await jobById(job.id))?.lockedBy).toBe('dead-worker');
    await sleep(250);
    await other.tick();
    expect(runs).toBe(1);
    const row = await jobById(job.id);
    expect(row?.status).toBe('done');
    expect(row?.attempts).toBe(2);
  });

  it('fails a job whose worker died on its last attempt', async () => {
    let failedWith: string | null = null;
    registerJob('test.lease-last', async () => {}, {
      leaseMs: 100,
      onFailed: async (_job, error) => {
        failedWith = error;
      },
    });
    const job = await enqueue(database.db, 'test.lease-last', {}, { maxAttempts: 1 });
    if (!job) throw new Error('not enqueued');
    await claimJobs(database.db, 'dead-worker', 10, { 'test.lease-last': 100 });
    await sleep(200);
    await createWorker(ctx, { pollMs: 10 }).tick();
    const row = await jobById(job.id);
    expect(row?.status).toBe('failed');
    expect(row?.lastError).toMatch(/stopped before finishing/);
    expect(failedWith).toMatch(/stopped before finishing/);
  });
});

describe('retry', () => {
  it('retries with growing backoff, then fails for good with the error', async () => {
    const failures: string[] = [];
    let runs = 0;
    registerJob(
      'test.flaky',
      async () => {
        runs++;
        throw new Error(`refused #${runs}`);
      },
      { backoff: { baseMs: 300, capMs: 1000 }, onFailed: async (_j, e) => void failures.push(e) },
    );
    const job = await enqueue(database.db, 'test.flaky', {}, { maxAttempts: 3 });
    if (!job) throw new Error('not enqueued');
    const w = createWorker(ctx, { pollMs: 10 });
    await w.tick();
    let row = await jobById(job.id);
    expect(row?.status).toBe('queued');
    expect(row?.attempts).toBe(1);
    expect(row?.lastError).toBe('refused #1');
    // Not due again before its backoff (at least half of 300 ms).
    expect(row?.runAt.getTime()).toBeGreaterThan(Date.now() + 50);
    await w.tick();
    expect(runs).toBe(1);
    for (let i = 0; i < 150 && runs < 3; i++) {
      await sleep(20);
      await w.tick();
    }
    row = await jobById(job.id);
    expect(runs).toBe(3);
    expect(row?.status).toBe('failed');
    expect(row?.attempts).toBe(3);
    expect(row?.lastError).toBe('refused #3');
    expect(failures).toEqual(['refused #3']);
    await sleep(100);
    await w.tick();
    expect(runs).toBe(3);
  });

  it('does not retry a permanent error', async () => {
    let runs = 0;
    registerJob('test.permanent', async () => {
      runs++;
      throw new PermanentJobError('the record is gone');
    });
    const job = await enqueue(database.db, 'test.permanent', {}, { maxAttempts: 5 });
    if (!job) throw new Error('not enqueued');
    await createWorker(ctx, { pollMs: 10 }).tick();
    const row = await jobById(job.id);
    expect(runs).toBe(1);
    expect(row?.status).toBe('failed');
    expect(row?.lastError).toBe('the record is gone');
  });
});

describe('every', () => {
  it('schedules one run per time bucket however many workers poll', async () => {
    let runs = 0;
    registerJob('test.periodic', async () => {
      runs++;
    });
    every('test.periodic', 3_600_000);
    const workers = [createWorker(ctx, { pollMs: 10 }), createWorker(ctx, { pollMs: 10 })];
    await Promise.all(workers.map((w) => w.tick()));
    await Promise.all(workers.map((w) => w.tick()));
    const { dedupeKey } = periodBucket('test.periodic', 3_600_000, new Date());
    const rows = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.periodic'));
    expect(rows.map((r) => r.dedupeKey)).toEqual([dedupeKey]);
    expect(runs).toBe(1);
  });

  it('refuses an interval under a second', () => {
    expect(() => every('test.fast', 10)).toThrow(/at least 1000/);
  });
});

describe('worker loop', () => {
  it('starts, runs what is queued, and stops after finishing the job in hand', async () => {
    let finished = 0;
    registerJob('test.loop', async () => {
      await sleep(50);
      finished++;
    });
    const w = createWorker(ctx, { pollMs: 20 });
    w.start();
    await enqueue(database.db, 'test.loop', {});
    for (let i = 0; i < 100 && finished === 0; i++) await sleep(10);
    await enqueue(database.db, 'test.loop', {});
    await sleep(40);
    await w.stop();
    expect(finished).toBe(2);
  });
});
