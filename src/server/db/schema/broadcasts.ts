import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  BROADCAST_MODES,
  BROADCAST_STATUSES,
  DEFAULT_DAILY_CAP,
  DEFAULT_RATE_PER_SECOND,
  DELIVERY_STATES,
  type TAudience,
} from '../../../domain/broadcasts';
import { clients } from './clients';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/** A firm's reusable broadcast: subject and sanitised HTML body with placeholders. */
export const broadcastTemplates = pgTable(
  'broadcast_templates',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    bodyHtml: text('body_html').notNull(),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('broadcast_templates_org_id_id_key').on(t.orgId, t.id),
    index('broadcast_templates_org_name_idx').on(t.orgId, t.name),
    foreignKey({
      name: 'broadcast_templates_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/**
 * One mailing: its content as sent (copied from the template, which may change later), the
 * audience it was built from, and its state. The recipients are its deliveries.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id'),
    /** What the firm calls it in lists; the subject has placeholders ("{{client_name}}: …"). */
    name: text('name').notNull().default(''),
    subject: text('subject').notNull(),
    bodyHtml: text('body_html').notNull(),
    mode: text('mode', { enum: BROADCAST_MODES }).notNull().default('client'),
    audience: jsonb('audience').$type<TAudience>().notNull(),
    status: text('status', { enum: BROADCAST_STATUSES }).notNull(),
    sendAt: timestamp('send_at', { withTimezone: true }).notNull().defaultNow(),
    /** Why it stopped, when it paused itself (too many failures). */
    pauseReason: text('pause_reason'),
    recipientCount: integer('recipient_count').notNull().default(0),
    /** Its deliveries are still being queued, a chunk of clients at a time (features/broadcasts/queueing.ts). */
    queueing: boolean('queueing').notNull().default(false),
    /** The last client id queued so far: the next chunk starts after it. */
    queuedThrough: uuid('queued_through'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('broadcasts_org_id_id_key').on(t.orgId, t.id),
    index('broadcasts_org_created_idx').on(t.orgId, t.createdAt, t.id),
    // The pump's look for work across firms.
    index('broadcasts_active_idx').on(t.status, t.sendAt).where(sql`status in ('scheduled', 'sending')`),
    foreignKey({
      name: 'broadcasts_template_fk',
      columns: [t.orgId, t.templateId],
      foreignColumns: [broadcastTemplates.orgId, broadcastTemplates.id],
    }).onDelete('set null'), // SET NULL (template_id)
    foreignKey({
      name: 'broadcasts_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/**
 * One recipient of one broadcast, unique by (broadcast, recipient key): a client (`client:<id>`)
 * or an address (`email:<lower-case address>`), so however often the audience is built or a worker
 * restarts, nobody is queued twice. `claimedBy`/`claimedUntil` hold it while a worker sends it.
 */
export const broadcastDeliveries = pgTable(
  'broadcast_deliveries',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    broadcastId: uuid('broadcast_id').notNull(),
    recipientKey: text('recipient_key').notNull(),
    /** The client whose data fills the placeholders (and whose page lists this delivery). */
    clientId: uuid('client_id'),
    email: text('email').notNull(),
    contactName: text('contact_name'),
    cc: text('cc').array().notNull().default(sql`'{}'::text[]`),
    state: text('state', { enum: DELIVERY_STATES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedBy: text('claimed_by'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /**
     * When the claiming pump began handing the message to the SMTP server. A `sending` delivery
     * without it was only claimed (never offered to the server, safe to send again); with it, the
     * outcome is unknown if the pump died (it may have arrived).
     */
    handedAt: timestamp('handed_at', { withTimezone: true }),
    /** The server's answer to the last attempt that did not succeed. */
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('broadcast_deliveries_recipient_key').on(t.broadcastId, t.recipientKey),
    // The pump's next batch (queued, in id order), the progress counts and the state filter.
    index('broadcast_deliveries_broadcast_state_idx').on(t.orgId, t.broadcastId, t.state, t.id),
    index('broadcast_deliveries_claimed_idx').on(t.claimedUntil).where(sql`state = 'sending'`),
    // The daily cap: sent in the last 24 hours.
    index('broadcast_deliveries_sent_idx').on(t.orgId, t.sentAt).where(sql`sent_at is not null`),
    index('broadcast_deliveries_client_idx').on(t.orgId, t.clientId, t.id),
    foreignKey({
      name: 'broadcast_deliveries_broadcast_fk',
      columns: [t.orgId, t.broadcastId],
      foreignColumns: [broadcasts.orgId, broadcasts.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'broadcast_deliveries_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('set null'), // SET NULL (client_id)
  ],
);

export const SUPPRESSION_REASONS = ['unsubscribed', 'bounced'] as const;

/**
 * Addresses the firm's broadcasts no longer go to (an unsubscribe, a hard bounce). Only broadcasts
 * read it: sign-in codes, invitations and reminders still reach these people.
 */
export const broadcastSuppressions = pgTable(
  'broadcast_suppressions',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    /** Lower case. */
    email: text('email').notNull(),
    reason: text('reason', { enum: SUPPRESSION_REASONS }).notNull(),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.email] })],
);

/** The firm's sending pace, and the lease one worker holds while it sends the firm's broadcasts. */
export const broadcastSettings = pgTable('broadcast_settings', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  ratePerSecond: integer('rate_per_second').notNull().default(DEFAULT_RATE_PER_SECOND),
  dailyCap: integer('daily_cap').notNull().default(DEFAULT_DAILY_CAP),
  pumpBy: text('pump_by'),
  pumpUntil: timestamp('pump_until', { withTimezone: true }),
  updatedAt: updatedAt(),
});
