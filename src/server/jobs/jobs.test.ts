import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import type { TDatabase } from '../db/client';
import { jobs, orgs } from '../db/schema';
import { createMailer } from '../mail/mailer';
import { createTestDatabase } from '../test/database';
import { backoffMs, claimJobs, enqueue } from './queue';
import {
  every,
  PermanentJobError,
  periodBucket,
  registeredJob,
  registerJob,
  type TJobContext,
} from './registry';
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
/** Lets other work (the other worker's claims) run between a job's start and end, without a timer. */
const yieldToOthers = () => new Promise((r) => setImmediate(r));
const until = (condition: () => Promise<boolean> | boolean) =>
  vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error('not yet');
    },
    { timeout: 10_000, interval: 10 },
  );

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
      await yieldToOthers();
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

describe('a firm’s worker', () => {
  it('runs that firm’s jobs only', async () => {
    const ran: string[] = [];
    registerJob('test.firm', async (job) => {
      ran.push(job.id);
    });
    const [mine, theirs] = await database.db
      .insert(orgs)
      .values([{ name: 'Mine' }, { name: 'Theirs' }])
      .returning({ id: orgs.id });
    if (!mine || !theirs) throw new Error('firms not created');
    const own = await enqueue(database.db, 'test.firm', {}, { orgId: mine.id });
    const other = await enqueue(database.db, 'test.firm', {}, { orgId: theirs.id });
    const worker = createWorker(ctx, { pollMs: 10, kinds: ['test.firm'], orgId: mine.id });
    while ((await worker.tick()) > 0) {}
    expect(ran).toEqual([own?.id]);
    expect((await jobById(other?.id ?? ''))?.status).toBe('queued');
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
      { leaseMs: 60_000 },
    );
    const job = await enqueue(database.db, 'test.lease', {});
    if (!job) throw new Error('not enqueued');
    // A worker claims it and dies before running it.
    const claimedAt = Date.now();
    const claimed = await claimJobs(database.db, 'dead-worker', 10, { 'test.lease': 60_000 });
    expect(claimed.map((j) => j.id)).toContain(job.id);
    const other = createWorker(ctx, { pollMs: 10, id: 'survivor' });
    await other.tick();
    expect(runs).toBe(0);
    const held = await jobById(job.id);
    expect(held?.lockedBy).toBe('dead-worker');
    expect(held?.lockedUntil?.getTime()).toBeGreaterThanOrEqual(claimedAt + 59_000);
    // As if the minute had passed (a lease of a minute holds however slow the machine is).
    await database.db
      .update(jobs)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, job.id));
    await other.tick();
    expect(runs).toBe(1);
    const row = await jobById(job.id);
    expect(row?.status).toBe('done');
    expect(row?.attempts).toBe(2);
  });

  it('is short by default, so a dead instance’s job runs again within a minute', () => {
    registerJob('test.default-lease', async () => {});
    expect(registeredJob('test.default-lease')?.leaseMs).toBeLessThanOrEqual(30_000);
  });

  it('is renewed while the handler runs: a job running longer than its lease is not run twice', async () => {
    const leaseMs = 1500;
    let runs = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let signal: AbortSignal | undefined;
    registerJob(
      'test.heartbeat',
      async (job) => {
        runs++;
        signal = job.signal;
        await gate;
      },
      { leaseMs },
    );
    const job = await enqueue(database.db, 'test.heartbeat', {});
    if (!job) throw new Error('not enqueued');
    const holder = createWorker(ctx, { pollMs: 10, kinds: ['test.heartbeat'], id: 'holder' });
    const other = createWorker(ctx, { pollMs: 10, kinds: ['test.heartbeat'], id: 'other' });
    const claimedAt = Date.now();
    const holding = holder.tick();
    await until(() => runs === 1);
    // Well past the first lease, the other worker keeps polling and finds nothing to take.
    await until(async () => {
      await other.tick();
      const row = await jobById(job.id);
      return (
        Date.now() > claimedAt + 2 * leaseMs && (row?.lockedUntil?.getTime() ?? 0) > claimedAt + 2 * leaseMs
      );
    });
    await other.tick();
    expect(runs).toBe(1);
    expect(signal?.aborted).toBe(false);
    release();
    expect(await holding).toBe(1);
    const row = await jobById(job.id);
    expect(row).toMatchObject({ status: 'done', attempts: 1, lockedBy: null });
  });

  it('runs a dead worker’s job again once its lease lapses, without anyone moving the clock', async () => {
    let ranBy: string | null = null;
    registerJob(
      'test.prompt',
      async () => {
        ranBy = 'survivor';
      },
      { leaseMs: 500 },
    );
    const job = await enqueue(database.db, 'test.prompt', {});
    if (!job) throw new Error('not enqueued');
    // Claimed by a worker that dies at once: nothing renews its lease.
    await claimJobs(database.db, 'dead-worker', 10, { 'test.prompt': 500 });
    const survivor = createWorker(ctx, { pollMs: 20, kinds: ['test.prompt'], id: 'survivor' });
    survivor.start();
    try {
      await until(async () => (await jobById(job.id))?.status === 'done');
    } finally {
      await survivor.stop();
    }
    expect(ranBy).toBe('survivor');
    expect((await jobById(job.id))?.attempts).toBe(2);
  });

  it('tells a handler whose job was taken over, through its signal', async () => {
    let signal: AbortSignal | undefined;
    registerJob(
      'test.taken',
      async (job) => {
        signal = job.signal;
        await new Promise<void>((resolve) => job.signal?.addEventListener('abort', () => resolve()));
      },
      { leaseMs: 300 },
    );
    const job = await enqueue(database.db, 'test.taken', {});
    if (!job) throw new Error('not enqueued');
    const holder = createWorker(ctx, { pollMs: 10, kinds: ['test.taken'], id: 'slow-holder' });
    const holding = holder.tick();
    await until(() => signal !== undefined);
    // Another worker took it over (as after a stall longer than the lease).
    await database.db.update(jobs).set({ lockedBy: 'usurper' }).where(eq(jobs.id, job.id));
    await until(() => signal?.aborted === true);
    await holding;
    // The holder settles nothing of a job that is no longer its own.
    expect(await jobById(job.id)).toMatchObject({ status: 'running', lockedBy: 'usurper' });
    // The usurper's part, so no later worker here picks the job up again.
    await database.db.update(jobs).set({ status: 'done', lockedBy: null }).where(eq(jobs.id, job.id));
  });

  it('fails a job whose worker died on its last attempt', async () => {
    let failedWith: string | null = null;
    registerJob('test.lease-last', async () => {}, {
      leaseMs: 60_000,
      onFailed: async (_job, error) => {
        failedWith = error;
      },
    });
    const job = await enqueue(database.db, 'test.lease-last', {}, { maxAttempts: 1 });
    if (!job) throw new Error('not enqueued');
    await claimJobs(database.db, 'dead-worker', 10, { 'test.lease-last': 60_000 });
    const other = createWorker(ctx, { pollMs: 10 });
    // Within the lease it is still the dead worker's.
    await other.tick();
    expect((await jobById(job.id))?.status).toBe('running');
    expect(failedWith).toBeNull();
    // As if the minute had passed.
    await database.db
      .update(jobs)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, job.id));
    await other.tick();
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
    // A backoff of a minute: "not due before its backoff" holds however slow the machine is, and
    // the test moves each retry's time forward itself rather than sleeping through it.
    registerJob(
      'test.flaky',
      async () => {
        runs++;
        throw new Error(`refused #${runs}`);
      },
      { backoff: { baseMs: 60_000, capMs: 3_600_000 }, onFailed: async (_j, e) => void failures.push(e) },
    );
    const job = await enqueue(database.db, 'test.flaky', {}, { maxAttempts: 3 });
    if (!job) throw new Error('not enqueued');
    const w = createWorker(ctx, { pollMs: 10 });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const before = Date.now();
      await w.tick();
      expect(runs).toBe(attempt);
      const row = await jobById(job.id);
      expect(row?.attempts).toBe(attempt);
      expect(row?.lastError).toBe(`refused #${attempt}`);
      if (attempt === 3) break;
      expect(row?.status).toBe('queued');
      delays.push((row?.runAt.getTime() ?? 0) - before);
      // Not due again before its backoff.
      await w.tick();
      expect(runs).toBe(attempt);
      // As if the backoff had passed.
      await database.db
        .update(jobs)
        .set({ runAt: new Date(Date.now() - 1000) })
        .where(eq(jobs.id, job.id));
    }
    // Half to all of 1 minute, then of 2 minutes (a second either side for the clocks).
    expect(delays[0]).toBeGreaterThanOrEqual(29_000);
    expect(delays[0]).toBeLessThanOrEqual(61_000);
    expect(delays[1]).toBeGreaterThanOrEqual(59_000);
    expect(delays[1]).toBeLessThanOrEqual(121_000);
    const row = await jobById(job.id);
    expect(row?.status).toBe('failed');
    expect(failures).toEqual(['refused #3']);
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
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The second job stays in hand until the test lets it finish.
    registerJob('test.loop', async (job) => {
      if ((job.payload as { n: number }).n === 2) await gate;
      finished++;
    });
    const w = createWorker(ctx, { pollMs: 20 });
    w.start();
    await enqueue(database.db, 'test.loop', { n: 1 });
    await until(() => finished === 1);
    const second = await enqueue(database.db, 'test.loop', { n: 2 });
    if (!second) throw new Error('not enqueued');
    await until(async () => (await jobById(second.id))?.status === 'running');
    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    // Whatever a stop that did not wait would settle on has had its turn by the time a query
    // answers; the job is still in hand, and the stop still waiting.
    expect((await jobById(second.id))?.status).toBe('running');
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(2);
    expect((await jobById(second.id))?.status).toBe('done');
  });

  it('waits the given time before its first poll, and a stop meanwhile runs nothing', async () => {
    let ran = 0;
    registerJob('test.later', async () => {
      ran++;
    });
    const queued = await enqueue(database.db, 'test.later', {});
    if (!queued) throw new Error('not enqueued');
    const waiting = createWorker(ctx, { pollMs: 20, kinds: ['test.later'] });
    waiting.start(60_000);
    await waiting.stop();
    expect(ran).toBe(0);
    expect((await jobById(queued.id))?.status).toBe('queued');

    const soon = createWorker(ctx, { pollMs: 20, kinds: ['test.later'] });
    soon.start(30);
    await until(() => ran === 1);
    await soon.stop();
    expect((await jobById(queued.id))?.status).toBe('done');
  });
});
