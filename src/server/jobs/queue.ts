import { and, eq, sql } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { jobs } from '../db/schema';
import { rowsOf } from '../db/sql';

export type TJob = {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  orgId: string | null;
  runAt: Date;
};

export type TEnqueueOptions = {
  /** Not before this instant (default: now). */
  runAt?: Date;
  /** A second enqueue with the same key is a no-op, whichever instance makes it. */
  dedupeKey?: string;
  orgId?: string | null;
  maxAttempts?: number;
};

/**
 * Adds a job. Pass the mutation's transaction to make the job commit (or roll back) with the change.
 * Returns null when a job with the same dedupe key already exists.
 */
export async function enqueue(
  db: TExecutor,
  kind: string,
  payload: unknown,
  options: TEnqueueOptions = {},
): Promise<{ id: string } | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      kind,
      payload: payload ?? {},
      runAt: options.runAt ?? new Date(),
      dedupeKey: options.dedupeKey ?? null,
      orgId: options.orgId ?? null,
      ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return row ?? null;
}

type TJobRow = {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  org_id: string | null;
  run_at: Date | string;
};

const toJob = (r: TJobRow): TJob => ({
  id: r.id,
  kind: r.kind,
  payload: r.payload,
  attempts: Number(r.attempts),
  maxAttempts: Number(r.max_attempts),
  orgId: r.org_id,
  runAt: new Date(r.run_at),
});

/** The rows of a raw query on either driver (node-postgres answers an object, PGlite too, with `rows`). */
/**
 * Claims up to `limit` due jobs for one worker: queued ones whose time has come, and running ones
 * whose lease ran out (their worker died) with attempts left. SKIP LOCKED lets several instances
 * claim at once without waiting on each other or taking the same row. The attempt is counted here,
 * so a job that kills its worker still uses up its attempts.
 */
export async function claimJobs(
  db: TExecutor,
  workerId: string,
  limit: number,
  /** The lease of each kind this worker runs, in milliseconds. */
  leases: Record<string, number>,
  /** Only this firm's jobs. */
  orgId?: string,
): Promise<TJob[]> {
  const kinds = Object.keys(leases);
  if (kinds.length === 0) return [];
  const kindList = sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const firm = orgId ? sql`and org_id = ${orgId}` : sql``;
  const result = await db.execute(sql`
    update ${jobs} set
      status = 'running',
      locked_by = ${workerId},
      locked_until = now() + ((${JSON.stringify(leases)}::jsonb ->> kind)::integer * interval '1 millisecond'),
      attempts = attempts + 1,
      updated_at = now()
    where id in (
      select id from ${jobs}
      where kind in (${kindList}) ${firm}
        and ((status = 'queued' and run_at <= now())
          or (status = 'running' and locked_until < now() and attempts < max_attempts))
      order by run_at, id
      limit ${limit}
      for update skip locked
    )
    returning id, kind, payload, attempts, max_attempts, org_id, run_at`);
  return rowsOf<TJobRow>(result).map(toJob);
}

/** Running jobs whose lease ran out on their last attempt: failed, with the reason. */
export async function failAbandoned(
  db: TExecutor,
  kinds?: readonly string[],
  orgId?: string,
): Promise<TJob[]> {
  if (kinds?.length === 0) return [];
  const only = sql`${
    kinds
      ? sql`and kind in (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})`
      : sql``
  } ${orgId ? sql`and org_id = ${orgId}` : sql``}`;
  const result = await db.execute(sql`
    update ${jobs} set
      status = 'failed',
      locked_by = null,
      locked_until = null,
      last_error = coalesce(last_error || E'\n', '') || 'The worker stopped before finishing its last attempt',
      updated_at = now()
    where id in (
      select id from ${jobs}
      where status = 'running' and locked_until < now() and attempts >= max_attempts ${only}
      limit 100
      for update skip locked
    )
    returning id, kind, payload, attempts, max_attempts, org_id, run_at`);
  return rowsOf<TJobRow>(result).map(toJob);
}

/** Only the worker that holds the job may settle it: one whose lease was taken over changes nothing. */
const heldBy = (jobId: string, workerId: string) =>
  and(eq(jobs.id, jobId), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running'));

/**
 * The heartbeat: extends the lease of a job this worker still holds. Answers false when it does not
 * (its lease ran out and another worker claimed it, or it was settled).
 */
export async function renewLease(
  db: TExecutor,
  jobId: string,
  workerId: string,
  leaseMs: number,
): Promise<boolean> {
  const renewed = await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
    .where(heldBy(jobId, workerId))
    .returning({ id: jobs.id });
  return renewed.length > 0;
}

export async function completeJob(db: TExecutor, jobId: string, workerId: string): Promise<boolean> {
  const done = await db
    .update(jobs)
    .set({ status: 'done', lockedBy: null, lockedUntil: null, updatedAt: new Date() })
    .where(heldBy(jobId, workerId))
    .returning({ id: jobs.id });
  return done.length > 0;
}

export type TBackoff = { baseMs: number; capMs: number };

/**
 * Exponential backoff with jitter: the n-th retry waits between half and all of base·2^(n-1),
 * capped, so many jobs failing together (an SMTP outage) do not come back in one burst.
 */
export function backoffMs(attempt: number, backoff: TBackoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Records a failed attempt: back to the queue after the backoff, or failed for good when the
 * attempts are spent (or the error is permanent). Answers whether it failed for good.
 */
export async function failJob(
  db: TExecutor,
  job: TJob,
  workerId: string,
  error: string,
  options: { backoff: TBackoff; permanent?: boolean },
): Promise<'retry' | 'failed' | 'lost'> {
  const final = options.permanent || job.attempts >= job.maxAttempts;
  const updated = await db
    .update(jobs)
    .set(
      final
        ? { status: 'failed', lockedBy: null, lockedUntil: null, lastError: error, updatedAt: new Date() }
        : {
            status: 'queued',
            lockedBy: null,
            lockedUntil: null,
            lastError: error,
            runAt: new Date(Date.now() + backoffMs(job.attempts, options.backoff)),
            updatedAt: new Date(),
          },
    )
    .where(heldBy(job.id, workerId))
    .returning({ id: jobs.id });
  if (updated.length === 0) return 'lost';
  return final ? 'failed' : 'retry';
}

/** Settled jobs older than the horizon: the queue keeps a week of history, not all of it. */
export async function purgeSettled(db: TExecutor, olderThan: Date): Promise<number> {
  const result = await db.execute(sql`
    delete from ${jobs} where status in ('done', 'failed') and updated_at < ${olderThan.toISOString()}::timestamptz`);
  const count = (result as { rowCount?: number; affectedRows?: number }).rowCount;
  return count ?? (result as { affectedRows?: number }).affectedRows ?? 0;
}
