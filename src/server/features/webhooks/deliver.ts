import type { LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { webhookRetryDelay } from '../../../domain/webhooks';
import type { TDb } from '../../db/client';
import { members, webhookDeliveries, webhookSubscriptions } from '../../db/schema';
import { enqueue } from '../../jobs/queue';
import { every, registerJob, type TJobContext } from '../../jobs/registry';
import { notify } from '../notifications';
import { sealContext, WEBHOOK_DELIVER, webhookSealer } from './service';
import { pinTarget, signWebhook, systemResolver, type TPinnedTarget, type TResolver } from './signing';

// One attempt of one delivery. The delivery row is claimed first (pending → sending in one
// statement), so however many instances run the job queue, an attempt is made once and a delivery
// that succeeded is never sent again. A failed attempt queues the next at the fixed schedule
// (domain/webhooks.ts); the last one failing pauses the subscription and tells the person who made
// it and the firm's owners. A worker that stops mid-attempt (a crash, a kill) leaves its claim: once
// the claim is older than any attempt can last, the sweep queues the delivery again and it is
// claimed anew (the receiver drops a repeat by its webhook-id), so no event is lost to a crash.

const TIMEOUT_MS = 15_000;
/** A claim older than this is a worker that stopped: an attempt ends within TIMEOUT_MS. */
export const STALE_CLAIM_MS = TIMEOUT_MS + 60_000;
export const WEBHOOK_SWEEP = 'webhooks.sweep';
const RESPONSE_KEPT = 2_000;

type TLookupAll = (error: Error | null, addresses: LookupAddress[]) => void;

type TAttempt = { ok: boolean; status: number | null; body: string | null; error: string | null };

/**
 * POSTs to the pinned address: the request names the URL's host (Host header, TLS server name and
 * certificate check) but connects to the address checked, never resolving the name a second time.
 */
function post(target: TPinnedTarget, headers: Record<string, string>, body: string): Promise<TAttempt> {
  const { url, address, family } = target;
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as TLookupAll)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<TAttempt>((settle) => {
    let done = false;
    const finish = (attempt: TAttempt) => {
      if (done) return;
      done = true;
      settle(attempt);
    };
    const req = request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Practice-Webhooks/1',
          ...headers,
        },
        // A redirect is not followed (it could lead anywhere, a private address included): a failure.
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_KEPT * 4) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        response.on('error', () => {});
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          finish({
            ok,
            status,
            body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_KEPT),
            error: ok ? null : `The endpoint answered ${status}`,
          });
        });
      },
    );
    const overall = setTimeout(() => {
      req.destroy();
      finish({ ok: false, status: null, body: null, error: `No answer within ${TIMEOUT_MS / 1000} s` });
    }, TIMEOUT_MS);
    overall.unref();
    req.on('timeout', () => {
      req.destroy();
      finish({ ok: false, status: null, body: null, error: `No answer within ${TIMEOUT_MS / 1000} s` });
    });
    req.on('error', () =>
      finish({ ok: false, status: null, body: null, error: 'The endpoint could not be reached' }),
    );
    req.on('close', () => clearTimeout(overall));
    req.end(body);
  });
}

export async function deliverWebhook(
  deliveryId: string,
  ctx: Pick<TJobContext, 'db' | 'config'>,
  now = () => new Date(),
  resolve: TResolver = systemResolver,
) {
  const { db, config } = ctx;
  const [claimed] = await db
    .update(webhookDeliveries)
    .set({ status: 'sending', attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: now() })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        or(
          eq(webhookDeliveries.status, 'pending'),
          and(
            eq(webhookDeliveries.status, 'sending'),
            lt(webhookDeliveries.lastAttemptAt, new Date(now().getTime() - STALE_CLAIM_MS)),
          ),
        ),
      ),
    )
    .returning();
  if (!claimed) return;
  const [sub] = await db
    .select()
    .from(webhookSubscriptions)
    .where(
      and(eq(webhookSubscriptions.orgId, claimed.orgId), eq(webhookSubscriptions.id, claimed.subscriptionId)),
    );
  if (!sub) return;
  const body = JSON.stringify(claimed.payload);
  // Resolved once, here: the attempt connects to the address this check passed.
  const pinned = await pinTarget(sub.url, config.webhooks.allowPrivate, resolve);
  let attempt: TAttempt;
  if ('refusal' in pinned) attempt = { ok: false, status: null, body: null, error: pinned.refusal };
  else {
    const secret = await webhookSealer().open(sub.secretSealed, sealContext(sub.id));
    const timestamp = Math.floor(now().getTime() / 1000);
    attempt = await post(
      pinned.target,
      {
        'webhook-id': claimed.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secret, claimed.messageId, timestamp, body),
      },
      body,
    );
  }
  const answer = { responseStatus: attempt.status, responseBody: attempt.body, error: attempt.error };
  if (attempt.ok) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'succeeded', nextAttemptAt: null, ...answer })
      .where(eq(webhookDeliveries.id, claimed.id));
    return;
  }
  const delay = webhookRetryDelay(claimed.attempts + 1);
  if (delay !== null) {
    const nextAttemptAt = new Date(now().getTime() + delay);
    await db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({ status: 'pending', nextAttemptAt, ...answer })
        .where(eq(webhookDeliveries.id, claimed.id));
      await enqueue(
        tx,
        WEBHOOK_DELIVER,
        { deliveryId: claimed.id },
        {
          orgId: claimed.orgId,
          runAt: nextAttemptAt,
          maxAttempts: 1,
          dedupeKey: `webhook:${claimed.id}:${claimed.attempts + 1}`,
        },
      );
    });
    return;
  }
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, ...answer })
      .where(eq(webhookDeliveries.id, claimed.id));
    await pauseAfterFailure(tx, sub, claimed.messageId);
  });
}

async function pauseAfterFailure(
  tx: Parameters<Parameters<TDb['transaction']>[0]>[0],
  sub: typeof webhookSubscriptions.$inferSelect,
  messageId: string,
) {
  const [paused] = await tx
    .update(webhookSubscriptions)
    .set({ pausedAt: new Date(), pausedReason: `Every attempt to deliver ${messageId} failed` })
    .where(and(eq(webhookSubscriptions.id, sub.id), isNull(webhookSubscriptions.pausedAt)))
    .returning({ id: webhookSubscriptions.id });
  if (!paused) return;
  const owners = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.orgId, sub.orgId), eq(members.isOwner, true), eq(members.status, 'active')));
  const memberIds = [...new Set([sub.createdById, ...owners.map((o) => o.id)])];
  const live = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.orgId, sub.orgId), inArray(members.id, memberIds), eq(members.status, 'active')));
  await notify(tx, {
    orgId: sub.orgId,
    memberIds: live.map((m) => m.id),
    kind: 'webhook.paused',
    title: `The webhook to ${new URL(sub.url).host} was paused after its deliveries kept failing`,
    link: '/admin/settings/webhooks',
  });
}

/** Queues again the deliveries whose worker stopped mid-attempt; how many. */
export async function resumeStaleDeliveries(db: TDb, now = new Date()): Promise<number> {
  const stale = await db
    .select({
      id: webhookDeliveries.id,
      orgId: webhookDeliveries.orgId,
      attempts: webhookDeliveries.attempts,
    })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'sending'),
        lt(webhookDeliveries.lastAttemptAt, new Date(now.getTime() - STALE_CLAIM_MS)),
      ),
    )
    .limit(500);
  for (const d of stale)
    await enqueue(
      db,
      WEBHOOK_DELIVER,
      { deliveryId: d.id },
      { orgId: d.orgId, maxAttempts: 1, dedupeKey: `webhook:${d.id}:resume:${d.attempts}` },
    );
  return stale.length;
}

export function registerWebhookJobs() {
  registerJob(WEBHOOK_DELIVER, async (job, ctx) => {
    const { deliveryId } = job.payload as { deliveryId?: string };
    if (deliveryId) await deliverWebhook(deliveryId, ctx);
  });
  registerJob(WEBHOOK_SWEEP, async (_job, ctx) => {
    await resumeStaleDeliveries(ctx.db);
  });
  every(WEBHOOK_SWEEP, 5 * 60_000);
}
