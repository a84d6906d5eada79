import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { AUTO_PAUSE_FAILURE_RATE, AUTO_PAUSE_MIN_TRIED } from '../../../domain/broadcasts';
import type { TDb } from '../../db/client';
import { broadcastDeliveries, broadcastSettings, broadcastSuppressions, broadcasts } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { enqueue, type TJob } from '../../jobs/queue';
import { every, registerJob, type TJobContext } from '../../jobs/registry';
import { audit } from '../system-log';
import { firmOf, fiscalYearLabel, valuesFor } from './context';
import { broadcastMessage, renderFor, type TRecipientValues } from './render';
import { unsubscribeUrl } from './unsubscribe';

// Sending. One "pump" per firm at a time sends the firm's broadcasts at the firm's pace: it holds a
// lease on the firm's broadcast_settings row, so a second worker (or a second queued pump) leaves.
// Each recipient is a delivery row, claimed (state `sending`, claimed_by, claimed_until) with
// FOR UPDATE SKIP LOCKED before its message goes out, so no two workers can take the same one.
//
// Claimed is not handed. A batch is claimed at once but sent at the firm's pace, so most of a
// claimed batch has not met the SMTP server yet. Right before its SMTP conversation a delivery is
// marked handed (handed_at, in a statement that also checks the claim is still this pump's). When a
// pump dies, the next one (the firm's lease says it is the only one) puts the deliveries its
// predecessors claimed but never handed straight back in the queue: they are sent, not lost.
//
// The crash window. The delivery is marked `sent` in the statement right after the SMTP server
// accepts the message. If the process dies (or loses the database) between handing it over and
// that statement, the delivery stays `sending` until its claim runs out; it is then marked
// `failed` with "the worker stopped while sending", never sent again by itself: the message may
// have arrived, and a duplicate to a client is the harm this feature promises not to do. "Retry the
// failed ones" is then a person's decision. Each message carries a Message-ID made from the
// delivery id, so if it does go twice the copies are recognisably one message.
//
// Temporary answers (4xx, a dropped connection, a timeout) put the delivery back in the queue with
// backoff; they are never final until MAX_TEMPORARY_ATTEMPTS. A 5xx refusal of the recipient is a
// hard bounce (suppressed for future broadcasts); any other 5xx is a failure with the server's answer.

export const BROADCAST_PUMP = 'broadcasts.pump';
export const BROADCAST_SCAN = 'broadcasts.scan';
/** One pump job sends for at most this long, then queues the next, so the worker runs other jobs too. */
const SLICE_MS = 10_000;
/**
 * The firm's pump lease, renewed every third of it while the pump runs. With the scan's interval it
 * bounds how long a broadcast stands still after its instance died.
 */
const PUMP_LEASE_MS = 20_000;
const SCAN_EVERY_MS = 20_000;
/** Longer than the SMTP transport's timeouts (mail/mailer.ts): a claim outlives a slow send. */
const CLAIM_MS = 5 * 60_000;
/** Messages in their SMTP conversation at once, per firm. */
const MAX_IN_FLIGHT = 5;
export const TEMPORARY_BACKOFF = { baseMs: 30_000, capMs: 30 * 60_000 };
export const MAX_TEMPORARY_ATTEMPTS = 8;
export const STOPPED_WHILE_SENDING =
  'The worker stopped while sending this message; it may have arrived, so it is not sent again unless you retry it';

export function queuePump(db: TDb | Parameters<typeof enqueue>[0], orgId: string, runAt = new Date()) {
  return enqueue(db, BROADCAST_PUMP, {}, { orgId, runAt, maxAttempts: 3 });
}

type TOutcome = { kind: 'sent' } | { kind: 'temporary' | 'failed' | 'bounced'; answer: string };

/** What the SMTP server's answer means for the delivery (nodemailer puts it on the error). */
export function classify(error: unknown): TOutcome {
  const e = (error ?? {}) as {
    responseCode?: number;
    response?: string;
    command?: string;
    code?: string;
    message?: string;
  };
  const answer = String(e.response || e.message || error || 'Unknown error').slice(0, 1000);
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  if (code === null || (code >= 400 && code < 500)) return { kind: 'temporary', answer };
  if (code >= 500 && (e.command === 'RCPT TO' || e.code === 'EENVELOPE')) return { kind: 'bounced', answer };
  return { kind: 'failed', answer };
}

function backoff(attempt: number) {
  const ceiling = Math.min(TEMPORARY_BACKOFF.capMs, TEMPORARY_BACKOFF.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

type TClaimed = {
  id: string;
  broadcast_id: string;
  client_id: string | null;
  email: string;
  contact_name: string | null;
  cc: string[] | null;
  attempts: number;
};

async function claim(db: TDb, orgId: string, broadcastId: string, me: string, n: number) {
  return rowsOf<TClaimed>(
    // The batch first (a CTE, so the update joins its few ids by primary key rather than hashing
    // the whole broadcast's deliveries, which a planner without statistics would do).
    await db.execute(sql`
      with batch as (
        select id from broadcast_deliveries
        where org_id = ${orgId} and broadcast_id = ${broadcastId} and state = 'queued' and next_attempt_at <= now()
        order by id limit ${n}
        for update skip locked)
      update broadcast_deliveries d set state = 'sending', claimed_by = ${me}, handed_at = null,
        claimed_until = now() + ${`${CLAIM_MS} milliseconds`}::interval, attempts = d.attempts + 1, updated_at = now()
      from batch where d.id = batch.id
      returning d.id, d.broadcast_id, d.client_id, d.email, d.contact_name, d.cc, d.attempts`),
  );
}

/** Scheduled broadcasts whose time has come start sending. */
async function startDue(db: TDb, orgId: string) {
  await db.transaction(async (tx) => {
    const started = await tx
      .update(broadcasts)
      .set({ status: 'sending' })
      .where(
        and(
          eq(broadcasts.orgId, orgId),
          eq(broadcasts.status, 'scheduled'),
          lt(broadcasts.sendAt, new Date()),
        ),
      )
      .returning({ id: broadcasts.id, subject: broadcasts.subject, recipients: broadcasts.recipientCount });
    for (const b of started) {
      await audit(
        tx,
        { kind: 'system', orgId },
        {
          action: 'broadcast.started',
          recordType: 'broadcast',
          recordId: b.id,
          summary: `Started sending the scheduled broadcast “${b.subject}” to ${b.recipients} recipients`,
        },
      );
    }
  });
}

/**
 * What earlier pumps left `sending` (see the top). Called by the pump that has just taken the firm's
 * lease, before it claims anything, so every claim is a dead (or superseded) pump's: what it never
 * handed to the server goes back in the queue at once, its attempt not counted (a superseded pump
 * still running finds its claim gone when it comes to hand it over, and skips it). What it did hand
 * over is failed once its claim runs out, never sent again by itself.
 */
async function releaseStale(db: TDb, orgId: string) {
  const stale = and(eq(broadcastDeliveries.orgId, orgId), eq(broadcastDeliveries.state, 'sending'));
  await db
    .update(broadcastDeliveries)
    .set({
      state: 'queued',
      claimedBy: null,
      claimedUntil: null,
      attempts: sql`greatest(${broadcastDeliveries.attempts} - 1, 0)`,
      nextAttemptAt: new Date(),
    })
    .where(and(stale, isNull(broadcastDeliveries.handedAt)));
  await db
    .update(broadcastDeliveries)
    .set({ state: 'failed', error: STOPPED_WHILE_SENDING, claimedBy: null, claimedUntil: null })
    .where(
      and(stale, isNotNull(broadcastDeliveries.handedAt), lt(broadcastDeliveries.claimedUntil, new Date())),
    );
}

/**
 * Marks the delivery handed to the server, if its claim is still this pump's: one that a newer pump
 * took back (this pump lost the firm's lease while stalled) is left to it. The claim then runs from
 * here, as long as the SMTP conversation may take.
 */
async function handOver(db: TDb, deliveryId: string, me: string) {
  const [row] = await db
    .update(broadcastDeliveries)
    .set({ handedAt: sql`now()`, claimedUntil: sql`now() + ${`${CLAIM_MS} milliseconds`}::interval` })
    .where(
      and(
        eq(broadcastDeliveries.id, deliveryId),
        eq(broadcastDeliveries.claimedBy, me),
        eq(broadcastDeliveries.state, 'sending'),
      ),
    )
    .returning({ id: broadcastDeliveries.id });
  return Boolean(row);
}

export async function stateCounts(db: TDb, orgId: string, broadcastId: string) {
  const rows = await db
    .select({ state: broadcastDeliveries.state, n: sql<number>`count(*)::int` })
    .from(broadcastDeliveries)
    .where(and(eq(broadcastDeliveries.orgId, orgId), eq(broadcastDeliveries.broadcastId, broadcastId)))
    .groupBy(broadcastDeliveries.state);
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)])) as Partial<Record<string, number>>;
}

/** Above 5 % failures (counted once enough were tried, or on the whole of a small one) it pauses itself. */
async function pauseIfFailing(db: TDb, orgId: string, broadcastId: string) {
  const c = await stateCounts(db, orgId, broadcastId);
  const failed = (c.failed ?? 0) + (c.bounced ?? 0);
  const tried = failed + (c.sent ?? 0) + (c.unsubscribed ?? 0);
  const total = tried + (c.queued ?? 0) + (c.sending ?? 0);
  const over = tried >= Math.min(AUTO_PAUSE_MIN_TRIED, total) && failed > AUTO_PAUSE_FAILURE_RATE * tried;
  if (!over) return;
  const reason = `Paused itself: ${failed} of ${tried} deliveries tried failed (more than ${AUTO_PAUSE_FAILURE_RATE * 100} %)`;
  await db.transaction(async (tx) => {
    const [b] = await tx
      .update(broadcasts)
      .set({ status: 'paused', pauseReason: reason })
      .where(
        and(eq(broadcasts.orgId, orgId), eq(broadcasts.id, broadcastId), eq(broadcasts.status, 'sending')),
      )
      .returning({ subject: broadcasts.subject });
    if (b) {
      await audit(
        tx,
        { kind: 'system', orgId },
        {
          action: 'broadcast.paused',
          recordType: 'broadcast',
          recordId: broadcastId,
          summary: `The broadcast “${b.subject}” ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
        },
      );
    }
  });
}

/** A sending broadcast with nothing left queued or in flight, and nothing left to queue, is complete. */
async function completeIfDone(db: TDb, orgId: string, broadcastId: string) {
  const c = await stateCounts(db, orgId, broadcastId);
  if ((c.queued ?? 0) + (c.sending ?? 0) > 0) return;
  await db.transaction(async (tx) => {
    const [b] = await tx
      .update(broadcasts)
      .set({ status: 'completed', completedAt: new Date() })
      .where(
        and(
          eq(broadcasts.orgId, orgId),
          eq(broadcasts.id, broadcastId),
          eq(broadcasts.status, 'sending'),
          eq(broadcasts.queueing, false),
        ),
      )
      .returning({ subject: broadcasts.subject });
    if (b) {
      await audit(
        tx,
        { kind: 'system', orgId },
        {
          action: 'broadcast.completed',
          recordType: 'broadcast',
          recordId: broadcastId,
          summary: `Finished sending “${b.subject}”: ${c.sent ?? 0} sent, ${(c.failed ?? 0) + (c.bounced ?? 0)} failed or bounced`,
        },
      );
    }
  });
}

/** When there is next something to do: a retry's time, or a scheduled broadcast's. */
async function nextDue(db: TDb, orgId: string): Promise<Date | null> {
  const [row] = rowsOf<{ at: string | Date | null }>(
    await db.execute(sql`select least(
        (select min(d.next_attempt_at) from broadcast_deliveries d
          join broadcasts b on b.org_id = d.org_id and b.id = d.broadcast_id
          where d.org_id = ${orgId} and d.state = 'queued' and b.status = 'sending'),
        (select min(send_at) from broadcasts where org_id = ${orgId} and status = 'scheduled')) as at`),
  );
  return row?.at ? new Date(row.at) : null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

async function deliver(
  ctx: TJobContext,
  orgId: string,
  me: string,
  d: TClaimed,
  content: { subject: string; bodyHtml: string },
  values: TRecipientValues,
  suppressed: Map<string, string>,
) {
  const held = and(eq(broadcastDeliveries.id, d.id), eq(broadcastDeliveries.claimedBy, me));
  const release = { claimedBy: null, claimedUntil: null };
  const reason = suppressed.get(d.email.toLowerCase());
  if (reason) {
    await ctx.db
      .update(broadcastDeliveries)
      .set({
        ...release,
        state: reason === 'bounced' ? 'bounced' : 'unsubscribed',
        error:
          reason === 'bounced'
            ? 'Not sent: the address bounced before'
            : 'Not sent: the recipient unsubscribed',
      })
      .where(held);
    return 'suppressed';
  }
  const url = await unsubscribeUrl(ctx.config, ctx.db, d.id);
  const rendered = renderFor(
    content,
    { ...values, contact_name: d.contact_name ?? values.contact_name ?? null },
    url,
  );
  if (!(await handOver(ctx.db, d.id, me))) return 'taken';
  let outcome: TOutcome = { kind: 'sent' };
  let partial: string | null = null;
  try {
    const result = await ctx.mailer.send(
      broadcastMessage(
        rendered,
        { email: d.email, cc: d.cc ?? [], deliveryId: d.id, unsubscribeUrl: url },
        ctx.config.publicUrl,
      ),
    );
    // Taken for some addresses (a copy) and refused for others: it went out, so it is sent (a retry
    // would send the copies twice), and the refusal is kept to read.
    if (result?.rejected.length)
      partial = `Not accepted for ${result.rejected.join(', ')}: ${result.answer}`.slice(0, 1000);
  } catch (error) {
    outcome = classify(error);
  }
  if (outcome.kind === 'sent') {
    // The statement right after the server's acceptance: the crash window is this one statement.
    await ctx.db
      .update(broadcastDeliveries)
      .set({ ...release, state: 'sent', sentAt: new Date(), error: partial })
      .where(held);
    return 'sent';
  }
  if (outcome.kind === 'temporary') {
    const last = d.attempts >= MAX_TEMPORARY_ATTEMPTS;
    await ctx.db
      .update(broadcastDeliveries)
      .set(
        last
          ? { ...release, state: 'failed', error: `Gave up after ${d.attempts} attempts: ${outcome.answer}` }
          : {
              ...release,
              state: 'queued',
              error: outcome.answer,
              nextAttemptAt: new Date(Date.now() + backoff(d.attempts)),
            },
      )
      .where(held);
    return;
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(broadcastDeliveries)
      .set({ ...release, state: outcome.kind === 'bounced' ? 'bounced' : 'failed', error: outcome.answer })
      .where(held);
    if (outcome.kind === 'bounced') {
      await tx
        .insert(broadcastSuppressions)
        .values({
          orgId,
          email: d.email.toLowerCase(),
          reason: 'bounced',
          detail: outcome.answer.slice(0, 500),
        })
        .onConflictDoNothing();
    }
  });
  return outcome.kind;
}

/** Sends for up to a slice; answers when the firm's pump should run next (null: nothing pending). */
async function sendSlice(
  ctx: TJobContext,
  orgId: string,
  me: string,
  pace: { ratePerSecond: number; dailyCap: number },
) {
  const started = Date.now();
  const interval = 1000 / pace.ratePerSecond;
  const firm = await firmOf(ctx.db, orgId);
  const base: TRecipientValues = {
    firm_name: firm.name,
    fiscal_year: fiscalYearLabel(firm.fiscalYearStartMonth, firm.timeZone),
    pending: [],
  };
  let sent = 0;
  // The day's room, counted once a slice and spent as it sends (one count, not one per batch).
  const [day] = rowsOf<{ n: number | string }>(
    await ctx.db.execute(sql`select count(*) as n from broadcast_deliveries
      where org_id = ${orgId} and sent_at > now() - interval '24 hours'`),
  );
  let room = pace.dailyCap - Number(day?.n ?? 0);
  while (Date.now() - started < SLICE_MS) {
    if (room <= 0) return new Date(Date.now() + 10 * 60_000);
    const active = await ctx.db
      .select({ id: broadcasts.id, subject: broadcasts.subject, bodyHtml: broadcasts.bodyHtml })
      .from(broadcasts)
      .where(and(eq(broadcasts.orgId, orgId), eq(broadcasts.status, 'sending')))
      .orderBy(asc(broadcasts.sendAt), asc(broadcasts.id));
    let claimed: TClaimed[] = [];
    let current: (typeof active)[number] | undefined;
    for (const b of active) {
      claimed = await claim(ctx.db, orgId, b.id, me, Math.min(pace.ratePerSecond, room, 100));
      if (claimed.length) {
        current = b;
        break;
      }
      await completeIfDone(ctx.db, orgId, b.id);
    }
    if (!current || !claimed.length) return nextDue(ctx.db, orgId);
    const clientIds = claimed.map((d) => d.client_id).filter((id): id is string => !!id);
    const values = await valuesFor(ctx.db, orgId, clientIds, ctx.config.publicUrl);
    const suppressedRows = await ctx.db
      .select({ email: broadcastSuppressions.email, reason: broadcastSuppressions.reason })
      .from(broadcastSuppressions)
      .where(
        and(
          eq(broadcastSuppressions.orgId, orgId),
          inArray(
            broadcastSuppressions.email,
            claimed.map((d) => d.email.toLowerCase()),
          ),
        ),
      );
    const suppressed = new Map(suppressedRows.map((s) => [s.email, s.reason]));
    let failures = 0;
    // Each message starts at its slot of the firm's pace, whether or not the one before has
    // finished its SMTP conversation (a new connection and several round trips each), with a few in
    // flight at most: the pace is the set rate, not the server's latency.
    const inFlight = new Set<Promise<void>>();
    for (const d of claimed) {
      await sleep(started + sent * interval - Date.now());
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      sent++;
      room--;
      const values_ = (d.client_id && values.get(d.client_id)) || base;
      const p: Promise<void> = deliver(ctx, orgId, me, d, current, values_, suppressed)
        .then((outcome) => {
          if (outcome === 'failed' || outcome === 'bounced') failures++;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    // Only a batch with a failure can push the share over the line.
    if (failures) await pauseIfFailing(ctx.db, orgId, current.id);
    await ctx.db
      .update(broadcastSettings)
      .set({ pumpUntil: new Date(Date.now() + PUMP_LEASE_MS) })
      .where(and(eq(broadcastSettings.orgId, orgId), eq(broadcastSettings.pumpBy, me)));
  }
  return new Date();
}

/** One firm's pump: holds the firm's lease, sends a slice, queues its own continuation. */
export async function pump(job: TJob, ctx: TJobContext) {
  const orgId = job.orgId;
  if (!orgId) return;
  // One name per run: a re-run of the same job after its worker died is not its predecessor.
  const me = `pump:${job.id}:${randomUUID()}`;
  await ctx.db.insert(broadcastSettings).values({ orgId }).onConflictDoNothing();
  const [lease] = await ctx.db
    .update(broadcastSettings)
    .set({ pumpBy: me, pumpUntil: new Date(Date.now() + PUMP_LEASE_MS) })
    .where(
      and(
        eq(broadcastSettings.orgId, orgId),
        or(
          isNull(broadcastSettings.pumpUntil),
          lt(broadcastSettings.pumpUntil, new Date()),
          eq(broadcastSettings.pumpBy, me),
        ),
      ),
    )
    .returning({ ratePerSecond: broadcastSettings.ratePerSecond, dailyCap: broadcastSettings.dailyCap });
  // Another pump holds the firm: it queues its own continuation.
  if (!lease) return;
  let next: Date | null = null;
  // The firm's lease is renewed while the slice runs, however long one batch's SMTP conversations take.
  const renew = setInterval(
    () =>
      void ctx.db
        .update(broadcastSettings)
        .set({ pumpUntil: new Date(Date.now() + PUMP_LEASE_MS) })
        .where(and(eq(broadcastSettings.orgId, orgId), eq(broadcastSettings.pumpBy, me)))
        .catch((e) => ctx.log.warn({ orgId, err: String(e) }, 'broadcast pump lease not renewed')),
    PUMP_LEASE_MS / 3,
  );
  try {
    await startDue(ctx.db, orgId);
    await releaseStale(ctx.db, orgId);
    next = await sendSlice(ctx, orgId, me, lease);
  } finally {
    clearInterval(renew);
    await ctx.db
      .update(broadcastSettings)
      .set({ pumpBy: null, pumpUntil: null })
      .where(and(eq(broadcastSettings.orgId, orgId), eq(broadcastSettings.pumpBy, me)));
  }
  if (next) await queuePump(ctx.db, orgId, next);
}

/**
 * The safety net: a firm with a broadcast sending (or due) and no live pump gets one, once per scan
 * interval whatever the number of instances (dedupe key).
 */
export async function scanBroadcasts(db: TDb) {
  const due = rowsOf<{ org_id: string }>(
    await db.execute(sql`select distinct b.org_id from broadcasts b
      left join broadcast_settings s on s.org_id = b.org_id
      where (b.status = 'sending' or (b.status = 'scheduled' and b.send_at <= now() + interval '1 minute'))
        and (s.pump_until is null or s.pump_until < now())
      limit 1000`),
  );
  const bucket = Math.floor(Date.now() / SCAN_EVERY_MS);
  for (const r of due) {
    await enqueue(
      db,
      BROADCAST_PUMP,
      {},
      { orgId: r.org_id, dedupeKey: `${BROADCAST_PUMP}:${r.org_id}:${bucket}`, maxAttempts: 3 },
    );
  }
}

export function registerBroadcastJobs() {
  registerJob(BROADCAST_PUMP, pump, { backoff: { baseMs: 5_000, capMs: 60_000 } });
  registerJob(BROADCAST_SCAN, (_job, ctx) => scanBroadcasts(ctx.db));
  every(BROADCAST_SCAN, SCAN_EVERY_MS);
}
