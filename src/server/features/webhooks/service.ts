import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { TPageInput } from '../../../domain/pagination';
import { WEBHOOK_TEST_EVENT, type ZWebhookFields, type ZWebhookUpdate } from '../../../domain/webhooks';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { webhookDeliveries, webhookSubscriptions } from '../../db/schema';
import { qualified } from '../../db/sql';
import { enqueue } from '../../jobs/queue';
import { audit } from '../system-log';
import { newWebhookSecret, targetRefusal } from './signing';

// Subscriptions and their deliveries (issue 40). Events are emitted inside the mutation's
// transaction (emitWebhookEvent), so a rolled-back change sends nothing; each attempt is a job.

export const WEBHOOK_DELIVER = 'webhook.deliver';

type TDeps = { db: TDb; config: Pick<TConfig, 'vault' | 'webhooks'> };

const NOT_FOUND = () => new TRPCError({ code: 'NOT_FOUND', message: 'This webhook does not exist' });
export const sealContext = (id: string) => `webhook:${id}`;

/**
 * How the signing secrets are sealed at rest: the vault's key (features/vault's secret box), handed
 * over by the composition root (app.ts), since the vault feature reaches the features that emit
 * events and so cannot be imported from here.
 */
export type TSealer = {
  seal(plaintext: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
};
let sealer: TSealer | undefined;
export function setWebhookSealer(next: TSealer) {
  sealer = next;
}
export function webhookSealer(): TSealer {
  if (!sealer) throw new Error('no sealer for webhook secrets: buildApp sets it');
  return sealer;
}

async function checkTarget(config: TDeps['config'], url: string) {
  const refusal = await targetRefusal(url, config.webhooks.allowPrivate);
  if (refusal) throw new TRPCError({ code: 'BAD_REQUEST', message: refusal });
}

export async function listWebhooks(db: TDb, scope: TScope) {
  const rows = await db
    .select({
      id: webhookSubscriptions.id,
      url: webhookSubscriptions.url,
      description: webhookSubscriptions.description,
      events: webhookSubscriptions.events,
      pausedAt: webhookSubscriptions.pausedAt,
      pausedReason: webhookSubscriptions.pausedReason,
      createdAt: webhookSubscriptions.createdAt,
      failed: sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.org_id = ${qualified(webhookSubscriptions.orgId)}
        and d.subscription_id = ${qualified(webhookSubscriptions.id)} and d.status = 'failed')`,
    })
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.orgId, scope.orgId))
    .orderBy(desc(webhookSubscriptions.createdAt))
    .limit(200);
  return rows;
}

export async function createWebhook(
  deps: TDeps,
  scope: TScope,
  input: z.output<typeof ZWebhookFields>,
  meta: TRequestMeta,
) {
  await checkTarget(deps.config, input.url);
  const id = randomUUID();
  const secret = newWebhookSecret();
  const sealed = await webhookSealer().seal(secret, sealContext(id));
  return deps.db.transaction(async (tx) => {
    await tx.insert(webhookSubscriptions).values({
      id,
      orgId: scope.orgId,
      url: input.url,
      description: input.description,
      events: input.events,
      secretSealed: sealed,
      createdById: scope.memberId,
    });
    await audit(tx, actorOf(scope, meta), {
      action: 'webhook.create',
      recordType: 'webhook',
      recordId: id,
      summary: `Subscribed ${input.url} to ${input.events.join(', ')}`,
    });
    return { id, secret };
  });
}

export async function updateWebhook(
  deps: TDeps,
  scope: TScope,
  input: z.output<typeof ZWebhookUpdate>,
  meta: TRequestMeta,
) {
  await checkTarget(deps.config, input.url);
  return deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(webhookSubscriptions)
      .where(
        and(eq(webhookSubscriptions.orgId, scope.orgId), eq(webhookSubscriptions.id, input.subscriptionId)),
      )
      .for('update');
    if (!before) throw NOT_FOUND();
    const pausedAt = input.paused ? (before.pausedAt ?? new Date()) : null;
    await tx
      .update(webhookSubscriptions)
      .set({
        url: input.url,
        description: input.description,
        events: input.events,
        pausedAt,
        pausedReason: input.paused ? (before.pausedReason ?? 'Paused by a person') : null,
      })
      .where(
        and(eq(webhookSubscriptions.orgId, scope.orgId), eq(webhookSubscriptions.id, input.subscriptionId)),
      );
    await audit(tx, actorOf(scope, meta), {
      action: 'webhook.update',
      recordType: 'webhook',
      recordId: before.id,
      summary: `Changed the webhook to ${input.url}${input.paused ? ' (paused)' : ''}`,
    });
    return { ok: true as const };
  });
}

export async function deleteWebhook(db: TDb, scope: TScope, subscriptionId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.orgId, scope.orgId), eq(webhookSubscriptions.id, subscriptionId)))
      .returning({ id: webhookSubscriptions.id, url: webhookSubscriptions.url });
    if (!gone) throw NOT_FOUND();
    await audit(tx, actorOf(scope, meta), {
      action: 'webhook.delete',
      recordType: 'webhook',
      recordId: gone.id,
      summary: `Deleted the webhook to ${gone.url}`,
    });
    return { ok: true as const };
  });
}

export async function listDeliveries(
  db: TDb,
  scope: TScope,
  input: { subscriptionId: string } & Pick<TPageInput, 'page' | 'pageSize'>,
) {
  const [sub] = await db
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(
      and(eq(webhookSubscriptions.orgId, scope.orgId), eq(webhookSubscriptions.id, input.subscriptionId)),
    );
  if (!sub) throw NOT_FOUND();
  const where = and(eq(webhookDeliveries.orgId, scope.orgId), eq(webhookDeliveries.subscriptionId, sub.id));
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: webhookDeliveries.id,
        messageId: webhookDeliveries.messageId,
        eventType: webhookDeliveries.eventType,
        status: webhookDeliveries.status,
        attempts: webhookDeliveries.attempts,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        lastAttemptAt: webhookDeliveries.lastAttemptAt,
        responseStatus: webhookDeliveries.responseStatus,
        responseBody: webhookDeliveries.responseBody,
        error: webhookDeliveries.error,
        createdAt: webhookDeliveries.createdAt,
      })
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}

/** A delivery row and its first attempt's job, in the caller's transaction. */
async function queueDelivery(
  tx: TExecutor,
  orgId: string,
  subscriptionId: string,
  eventType: string,
  payload: unknown,
  messageId = `msg_${randomUUID().replace(/-/g, '')}`,
) {
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ orgId, subscriptionId, messageId, eventType, payload, nextAttemptAt: new Date() })
    .returning({ id: webhookDeliveries.id });
  if (!row) throw new Error('the delivery was not stored');
  await enqueue(
    tx,
    WEBHOOK_DELIVER,
    { deliveryId: row.id },
    { orgId, maxAttempts: 1, dedupeKey: `webhook:${row.id}:1` },
  );
  return row;
}

type TEvent = { type: string; data: Record<string, unknown> };

/** The firm's live subscriptions to any of these event types (one indexed query; usually none). */
export async function webhookSubscribers(tx: TExecutor, orgId: string, types: readonly string[]) {
  return tx
    .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events })
    .from(webhookSubscriptions)
    .where(
      and(
        eq(webhookSubscriptions.orgId, orgId),
        isNull(webhookSubscriptions.pausedAt),
        sql`${webhookSubscriptions.events} && array[${sql.join(
          types.map((type) => sql`${type}`),
          sql`, `,
        )}]::text[]`,
      ),
    );
}

/**
 * Events for every live subscription of the firm that asked for them. Call inside the mutation's
 * transaction: they commit, and are sent, only with the change. `events` may be a function, so
 * that what an event says is read only when someone subscribes.
 */
export async function emitWebhookEvents(
  tx: TExecutor,
  orgId: string,
  types: readonly string[],
  events: () => Promise<TEvent[]> | TEvent[],
) {
  const subscribers = await webhookSubscribers(tx, orgId, types);
  if (subscribers.length === 0) return;
  const timestamp = new Date().toISOString();
  for (const event of await events()) {
    const payload = { type: event.type, timestamp, data: event.data };
    for (const sub of subscribers)
      if (sub.events.includes(event.type)) await queueDelivery(tx, orgId, sub.id, event.type, payload);
  }
}

export function emitWebhookEvent(tx: TExecutor, orgId: string, type: string, data: Record<string, unknown>) {
  return emitWebhookEvents(tx, orgId, [type], () => [{ type, data }]);
}

/** The test button: one `webhook.test` event to this subscription, paused or not. */
export async function testWebhook(db: TDb, scope: TScope, subscriptionId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const [sub] = await tx
      .select({ id: webhookSubscriptions.id, url: webhookSubscriptions.url })
      .from(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.orgId, scope.orgId), eq(webhookSubscriptions.id, subscriptionId)));
    if (!sub) throw NOT_FOUND();
    const payload = {
      type: WEBHOOK_TEST_EVENT,
      timestamp: new Date().toISOString(),
      data: { subscriptionId: sub.id },
    };
    const row = await queueDelivery(tx, scope.orgId, sub.id, WEBHOOK_TEST_EVENT, payload);
    await audit(tx, actorOf(scope, meta), {
      action: 'webhook.test',
      recordType: 'webhook',
      recordId: sub.id,
      summary: `Sent a test event to ${sub.url}`,
    });
    return { deliveryId: row.id };
  });
}

/** Replay: the same message (id and body) sent again as a new delivery with its own attempts. */
export async function replayDelivery(db: TDb, scope: TScope, deliveryId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const [earlier] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.orgId, scope.orgId), eq(webhookDeliveries.id, deliveryId)));
    if (!earlier) throw new TRPCError({ code: 'NOT_FOUND', message: 'This delivery does not exist' });
    const row = await queueDelivery(
      tx,
      scope.orgId,
      earlier.subscriptionId,
      earlier.eventType,
      earlier.payload,
      earlier.messageId,
    );
    await audit(tx, actorOf(scope, meta), {
      action: 'webhook.replay',
      recordType: 'webhook',
      recordId: earlier.subscriptionId,
      summary: `Replayed the ${earlier.eventType} event ${earlier.messageId}`,
    });
    return { deliveryId: row.id };
  });
}
