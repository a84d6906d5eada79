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

export type TJobHandler = (job: TJob, ctx: TJobContext) => Promise<void>;

export type TJobOptions = {
  backoff?: TBackoff;
  /** How long a claim holds: a handler must finish within it or another instance runs it again. */
  leaseMs?: number;
  /** Called once when the job has failed for good (last attempt spent, or a permanent error). */
  onFailed?: (job: TJob, error: string, ctx: TJobContext) => Promise<void>;
};

export type TRegisteredJob = { handler: TJobHandler } & Required<Omit<TJobOptions, 'onFailed'>> &
  Pick<TJobOptions, 'onFailed'>;

/** Thrown by a handler when retrying cannot help (the record is gone, the input is invalid). */
export class PermanentJobError extends Error {}

export const DEFAULT_BACKOFF: TBackoff = { baseMs: 30_000, capMs: 60 * 60_000 };
export const DEFAULT_LEASE_MS = 5 * 60_000;

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
