import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/** A firm's URL subscribed to events (features/webhooks). The signing secret is sealed (vault key). */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    createdById: uuid('created_by_id').notNull(),
    /** Set when the subscription was paused (by a person, or after a delivery failed for good). */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    pausedReason: text('paused_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('webhook_subscriptions_org_id_id_key').on(t.orgId, t.id),
    index('webhook_subscriptions_org_idx').on(t.orgId, t.createdAt.desc().nullsFirst()),
    foreignKey({
      name: 'webhook_subscriptions_created_by_fk',
      columns: [t.orgId, t.createdById],
      foreignColumns: [members.orgId, members.id],
    }),
  ],
);

/**
 * One event for one subscription, and its attempts: `pending` waits for its next attempt (a job at
 * nextAttemptAt), `sending` is claimed by one worker, `succeeded` and `failed` are final.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').notNull(),
    /** The webhook-id header: the same for every attempt, so a receiver can drop repeats. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'sending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('webhook_deliveries_org_id_id_key').on(t.orgId, t.id),
    index('webhook_deliveries_subscription_idx').on(
      t.orgId,
      t.subscriptionId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The sweep's look for claims a stopped worker left (deliver.ts).
    index('webhook_deliveries_sending_idx').on(t.lastAttemptAt).where(sql`status = 'sending'`),
    foreignKey({
      name: 'webhook_deliveries_subscription_fk',
      columns: [t.orgId, t.subscriptionId],
      foreignColumns: [webhookSubscriptions.orgId, webhookSubscriptions.id],
    }).onDelete('cascade'),
  ],
);
