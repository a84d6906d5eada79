import { and, eq, sql } from 'drizzle-orm';
import type { TAudience, TBroadcastMode } from '../../../domain/broadcasts';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { broadcasts } from '../../db/schema';
import { enqueue } from '../../jobs/queue';
import { registerJob, type TJobContext, type TRunningJob } from '../../jobs/registry';
import { queueChunk } from './audience';
import { queuePump } from './pump';

// Queueing a broadcast's deliveries, a chunk of clients (by id) per short transaction, so that on
// PGlite (one thread, one session) no statement holds every other request of the firm for long.
// The first chunk is queued with the broadcast; the rest by a job that moves the broadcast's
// `queued_through` cursor in the same transaction as each chunk. A restarted or second job
// resumes at the cursor (the row is locked while a chunk runs), and the unique (broadcast,
// recipient) key makes a repeated chunk a no-op. The pump may send the first chunks while the rest
// queue: it claims only queued rows, and does not complete a broadcast still `queueing`.

export const BROADCAST_QUEUE = 'broadcasts.queue';

/** Clients per chunk: about 75 ms each on PGlite, 290 ms at worst under load (bench/broadcasts.ts). Tests set it small. */
export const queueing = { chunk: 400 };

type TQueueScope = Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>;
type TQueued = { id: string; audience: TAudience; mode: TBroadcastMode; sendAt: Date };

/**
 * One chunk after `after`, in the caller's transaction. When the chunk was the last, the broadcast
 * stops `queueing` and its pump is queued; otherwise the cursor moves on. Answers whether more remain.
 */
export async function queueNext(tx: TExecutor, scope: TQueueScope, b: TQueued, after: string | null) {
  const chunk = await queueChunk(tx, scope, b, after, queueing.chunk);
  const more = chunk.clients >= queueing.chunk && chunk.last !== null;
  await tx
    .update(broadcasts)
    .set({
      recipientCount: sql`${broadcasts.recipientCount} + ${chunk.added}`,
      queueing: more,
      queuedThrough: more ? chunk.last : null,
    })
    .where(and(eq(broadcasts.orgId, scope.orgId), eq(broadcasts.id, b.id)));
  return { more, added: chunk.added };
}

export function queueRest(tx: TExecutor, scope: TQueueScope, broadcastId: string) {
  return enqueue(
    tx,
    BROADCAST_QUEUE,
    { broadcastId, memberId: scope.memberId, assignedClientsOnly: scope.assignedClientsOnly },
    { orgId: scope.orgId, maxAttempts: 10 },
  );
}

/** The job: chunk after chunk, each its own transaction, until the audience is queued or cancelled. */
export async function queueBroadcast(job: TRunningJob, ctx: TJobContext) {
  const orgId = job.orgId;
  const p = (job.payload ?? {}) as { broadcastId?: string; memberId?: string; assignedClientsOnly?: boolean };
  if (!orgId || !p.broadcastId || !p.memberId) return;
  const scope = { orgId, memberId: p.memberId, assignedClientsOnly: !!p.assignedClientsOnly };
  for (;;) {
    const more = await ctx.db.transaction(async (tx) => {
      const [b] = await tx
        .select({
          id: broadcasts.id,
          audience: broadcasts.audience,
          mode: broadcasts.mode,
          sendAt: broadcasts.sendAt,
          status: broadcasts.status,
          queueing: broadcasts.queueing,
          queuedThrough: broadcasts.queuedThrough,
        })
        .from(broadcasts)
        .where(and(eq(broadcasts.orgId, orgId), eq(broadcasts.id, p.broadcastId as string)))
        .for('update');
      if (!b?.queueing) return false;
      // Cancelled while queueing: what is queued stays (the pump sends none of it), the rest never is.
      if (b.status === 'cancelled') {
        await tx
          .update(broadcasts)
          .set({ queueing: false, queuedThrough: null })
          .where(and(eq(broadcasts.orgId, orgId), eq(broadcasts.id, b.id)));
        return false;
      }
      const r = await queueNext(tx, scope, b, b.queuedThrough);
      if (!r.more) await queuePump(tx, orgId, b.sendAt);
      return r.more;
    });
    if (!more) return;
    // Taken over by another worker (this one stalled past its lease): it goes on from the cursor.
    job.signal?.throwIfAborted();
    // Let the requests waiting on the database in between.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export function registerQueueingJob() {
  registerJob(BROADCAST_QUEUE, queueBroadcast, { backoff: { baseMs: 5_000, capMs: 60_000 } });
}
