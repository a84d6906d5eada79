import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, jsonb, updatedAt } from './columns';
import { orgs } from './org';

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type TJobStatus = (typeof JOB_STATUSES)[number];

/**
 * The background job queue, shared by every server instance. A worker claims rows with
 * FOR UPDATE SKIP LOCKED and holds them for a lease (`lockedUntil`): a worker that dies mid-job
 * lets the lease run out and another instance picks the job up again. `dedupeKey` makes an enqueue
 * idempotent (one periodic run per time bucket, one send per reminder occurrence).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    dedupeKey: text('dedupe_key').unique('jobs_dedupe_key_key'),
    orgId: uuid('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('jobs_status_run_at_idx').on(t.status, t.runAt),
    // Finding expired leases without scanning the queued backlog.
    index('jobs_running_lease_idx').on(t.lockedUntil).where(sql`status = 'running'`),
    index('jobs_org_idx').on(t.orgId),
  ],
);
