import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { claimJobs, completeJob, enqueue, failAbandoned, failJob, renewLease, type TJob } from './queue';
import {
  DEFAULT_LEASE_MS,
  PermanentJobError,
  periodBucket,
  periodicJobs,
  registeredJob,
  registeredKinds,
  type TJobContext,
} from './registry';

export type TWorkerOptions = {
  /** Between polls when the queue is empty. */
  pollMs: number;
  /** Jobs claimed (and run side by side) per poll. */
  batchSize?: number;
  id?: string;
  /** Only these kinds (default: every registered kind); tests run one kind's due jobs this way. */
  kinds?: readonly string[];
  /**
   * Only this firm's jobs, and no periodic ones: the demo, filling its firm beside others, runs
   * what its own changes queued and leaves everyone else's to the server.
   */
  orgId?: string;
};

export type TWorker = {
  id: string;
  /** Polls from now on, the first time after `firstAfterMs` (default at once). */
  start(firstAfterMs?: number): void;
  /** Stops polling and waits for the jobs in hand to settle. */
  stop(): Promise<void>;
  /** One poll: schedules periodic runs, claims due jobs, runs them. Answers how many ran. */
  tick(): Promise<number>;
};

const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 2000) || 'Unknown error';

export function createWorker(ctx: TJobContext, options: TWorkerOptions): TWorker {
  const id = options.id ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const batchSize = options.batchSize ?? 5;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const scheduled = new Map<string, string>();
  const mine = (kind: string) => !options.kinds || options.kinds.includes(kind);

  async function schedulePeriodic(now: Date) {
    if (options.orgId) return;
    for (const [kind, intervalMs] of periodicJobs()) {
      if (!registeredJob(kind) || !mine(kind)) continue;
      const { dedupeKey, runAt } = periodBucket(kind, intervalMs, now);
      // One insert per bucket per instance; the unique key settles the race between instances.
      if (scheduled.get(kind) === dedupeKey) continue;
      await enqueue(ctx.db, kind, {}, { dedupeKey, runAt, maxAttempts: 1 });
      scheduled.set(kind, dedupeKey);
    }
  }

  async function settleFailure(job: TJob, error: unknown) {
    const registered = registeredJob(job.kind);
    const message = errorText(error);
    const outcome = await failJob(ctx.db, job, id, message, {
      backoff: registered?.backoff ?? { baseMs: 30_000, capMs: 3_600_000 },
      permanent: error instanceof PermanentJobError,
    });
    if (outcome === 'failed') {
      ctx.log.error({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, 'job failed');
      await registered?.onFailed?.(job, message, ctx);
    } else if (outcome === 'retry') {
      ctx.log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, 'job will retry');
    }
  }

  /**
   * Renews the job's lease every third of it while the handler runs, so a long job (an export, a
   * broadcast's slice, a backup) keeps it however long it takes, and a dead instance's job lapses
   * within one lease. A renewal that finds the job no longer ours aborts the handler's signal.
   */
  function heartbeat(job: TJob, leaseMs: number) {
    const lost = new AbortController();
    let beating: Promise<void> | null = null;
    const timer = setInterval(
      () => {
        if (beating) return;
        beating = renewLease(ctx.db, job.id, id, leaseMs)
          .then((held) => {
            if (held || lost.signal.aborted) return;
            ctx.log.warn(
              { jobId: job.id, kind: job.kind },
              'job no longer held by this worker (taken over, or settled)',
            );
            lost.abort(new Error('The job was taken over by another worker'));
          })
          .catch((e) => ctx.log.warn({ jobId: job.id, err: errorText(e) }, 'job lease not renewed'))
          .finally(() => {
            beating = null;
          });
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    return {
      signal: lost.signal,
      async stop() {
        clearInterval(timer);
        await beating;
      },
    };
  }

  async function run(job: TJob) {
    const registered = registeredJob(job.kind);
    const beat = heartbeat(job, registered?.leaseMs ?? DEFAULT_LEASE_MS);
    try {
      if (!registered) throw new Error(`No handler for jobs of kind ${job.kind}`);
      await registered.handler({ ...job, signal: beat.signal }, ctx);
      await beat.stop();
      await completeJob(ctx.db, job.id, id);
    } catch (error) {
      await beat.stop();
      await settleFailure(job, error).catch((e) =>
        ctx.log.error({ jobId: job.id, err: errorText(e) }, 'could not record a job failure'),
      );
    }
  }

  async function tick(): Promise<number> {
    await schedulePeriodic(new Date());
    for (const job of await failAbandoned(ctx.db, options.kinds, options.orgId)) {
      await registeredJob(job.kind)
        ?.onFailed?.(job, 'The worker stopped before finishing its last attempt', ctx)
        .catch((e) => ctx.log.error({ jobId: job.id, err: errorText(e) }, 'job failure hook failed'));
    }
    const leases = Object.fromEntries(
      registeredKinds()
        .filter(mine)
        .map((k) => [k, registeredJob(k)?.leaseMs ?? 0]),
    );
    const claimed = await claimJobs(ctx.db, id, batchSize, leases, options.orgId);
    await Promise.all(claimed.map(run));
    return claimed.length;
  }

  /** Resolves after `ms`, or at once when stop() wakes it. */
  async function pause(ms: number) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = null;
  }

  async function poll(firstAfterMs: number) {
    if (firstAfterMs > 0) await pause(firstAfterMs);
    while (running) {
      let ran = 0;
      try {
        ran = await tick();
      } catch (error) {
        ctx.log.error({ err: errorText(error) }, 'job poll failed');
      }
      // A full batch means more may be waiting: poll again at once.
      if (ran >= batchSize || !running) continue;
      await pause(options.pollMs);
    }
  }

  return {
    id,
    tick,
    start(firstAfterMs = 0) {
      if (running) return;
      running = true;
      loop = poll(firstAfterMs);
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
  };
}
