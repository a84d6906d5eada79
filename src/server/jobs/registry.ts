import type { TConfig } from '../config';
import type { TDb } from '../db/client';
import type { TMailer } from '../mail/mailer';
import type { TBackoff, TJob } from './queue';

export type TJobLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/** What a handler gets besides its job: the instance's database, configuration and mailer. */
export type TJobContext = { db: TDb; config: TConfig; mailer: TMailer; log: TJobLog };

/**
 * The job as its handler gets it. `signal` aborts when the worker finds its lease taken over (it
 * could not renew it in time, another instance runs the job now): a long handler stops at its next
 * step rather than finishing work that is no longer its own.
 */
export type TRunningJob = TJob & { signal?: AbortSignal };

export type TJobHandler = (job: TRunningJob, ctx: TJobContext) => Promise<void>;

export type TJobOptions = {
  backoff?: TBackoff;
  /**
   * How long a claim holds without news from its worker. The worker renews it (a heartbeat every
   * third of it) for as long as the handler runs, so it bounds how soon another instance takes over
   * the job of one that died, not how long a job may take.
   */
  leaseMs?: number;
  /** Called once when the job has failed for good (last attempt spent, or a permanent error). */
  onFailed?: (job: TJob, error: string, ctx: TJobContext) => Promise<void>;
};

export type TRegisteredJob = { handler: TJobHandler } & Required<Omit<TJobOptions, 'onFailed'>> &
  Pick<TJobOptions, 'onFailed'>;

/** Thrown by a handler when retrying cannot help (the record is gone, the input is invalid). */
export class PermanentJobError extends Error {}

export const DEFAULT_BACKOFF: TBackoff = { baseMs: 30_000, capMs: 60 * 60_000 };
/** Short, because the heartbeat holds it: a dead instance's job runs again within about this. */
export const DEFAULT_LEASE_MS = 30_000;

const handlers = new Map<string, TRegisteredJob>();
const periodic = new Map<string, number>();

/** Declares how jobs of a kind run. Registering a kind twice replaces it (tests re-register). */
export function registerJob(kind: string, handler: TJobHandler, options: TJobOptions = {}): void {
  handlers.set(kind, {
    handler,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    onFailed: options.onFailed,
  });
}

/**
 * Runs a registered kind every `intervalMs`. Each worker enqueues the current time bucket's run
 * with the dedupe key `every:<kind>:<bucket>`, so however many instances run, the bucket runs once.
 */
export function every(kind: string, intervalMs: number): void {
  if (!Number.isInteger(intervalMs) || intervalMs < 1000) {
    throw new Error(`every(${kind}): the interval must be a whole number of milliseconds, at least 1000`);
  }
  periodic.set(kind, intervalMs);
}

export const registeredJob = (kind: string) => handlers.get(kind);
export const registeredKinds = () => [...handlers.keys()];
export const periodicJobs = () => [...periodic.entries()];

/** The dedupe key and start of the bucket `now` falls in. */
export function periodBucket(kind: string, intervalMs: number, now: Date) {
  const bucket = Math.floor(now.getTime() / intervalMs);
  return { dedupeKey: `every:${kind}:${bucket}`, runAt: new Date(bucket * intervalMs) };
}
