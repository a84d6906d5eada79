import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TAnswerValue } from '../../../domain/requests/answers';
import { ITEM_KINDS, REQUEST_STATUSES, REVIEW_STATES } from '../../../domain/requests/constants';
import type { TItemCondition, TSection } from '../../../domain/requests/items';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { documentFolders, documents } from './documents';
import { members, orgs } from './org';
import { clientUsers } from './portal';

// Client requests (issue 36): a firm asks a client for files and answers, item by item. A template
// keeps its sections as one document (the editor saves it whole); a request copies them into rows,
// so editing the template later never changes what a client was sent, and each item carries its
// own answer and review.

export const requestTemplates = pgTable(
  'request_templates',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    sections: jsonb('sections').$type<TSection[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('request_templates_org_id_id_key').on(t.orgId, t.id),
    index('request_templates_name_idx').on(t.orgId, sql`lower(${t.name})`),
  ],
);

export const requests = pgTable(
  'requests',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    /** The template it was sent from, by name only: the template may change or go later. */
    templateName: text('template_name'),
    /** draft → sent → in_progress → submitted ⇄ returned → complete; cancelled. Overdue is derived. */
    status: text('status', { enum: REQUEST_STATUSES }).notNull().default('draft'),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    /** The client's documents folder its accepted files are filed in, made at the first upload. */
    folderId: uuid('folder_id'),
    createdBy: uuid('created_by'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Its reminder schedule (request-chase.ts): the firm's default copied when it was made. */
    chaseBeforeDays: smallint('chase_before_days').array().notNull().default(sql`'{7,1}'::smallint[]`),
    chaseOnDue: boolean('chase_on_due').notNull().default(true),
    chaseEveryDays: smallint('chase_every_days').default(3),
    chasePaused: boolean('chase_paused').notNull().default(false),
    /** Set once, when the firm's number of reminders went unanswered; its sender was notified. */
    needsAttentionAt: timestamp('needs_attention_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('requests_org_id_id_key').on(t.orgId, t.id),
    index('requests_org_created_idx').on(t.orgId, t.createdAt, t.id),
    index('requests_client_idx').on(t.orgId, t.clientId, t.createdAt),
    // The outstanding list and Overdue read the open ones by due date.
    index('requests_open_due_idx')
      .on(t.orgId, t.dueDate, t.id)
      .where(sql`status in ('sent', 'in_progress', 'submitted', 'returned')`),
    foreignKey({
      name: 'requests_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'requests_folder_fk',
      columns: [t.orgId, t.folderId],
      foreignColumns: [documentFolders.orgId, documentFolders.id],
    }).onDelete('set null'), // SET NULL (folder_id)
    foreignKey({
      name: 'requests_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/** The portal users a request was sent to: only they see it in the portal. */
export const requestRecipients = pgTable(
  'request_recipients',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id').notNull(),
    clientUserId: uuid('client_user_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.requestId, t.clientUserId] }),
    index('request_recipients_user_idx').on(t.orgId, t.clientUserId),
    foreignKey({
      name: 'request_recipients_request_fk',
      columns: [t.orgId, t.requestId],
      foreignColumns: [requests.orgId, requests.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'request_recipients_user_fk',
      columns: [t.orgId, t.clientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('cascade'),
  ],
);

/** One item of a request as sent, with the client's answer and the firm's review of it. */
export const requestItems = pgTable(
  'request_items',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id').notNull(),
    position: integer('position').notNull(),
    section: text('section').notNull().default(''),
    key: text('key').notNull(),
    kind: text('kind', { enum: ITEM_KINDS }).notNull(),
    label: text('label').notNull(),
    hint: text('hint').notNull().default(''),
    required: boolean('required').notNull().default(true),
    options: text('options').array().notNull().default(sql`'{}'::text[]`),
    condition: jsonb('condition').$type<TItemCondition>(),
    value: jsonb('value').$type<TAnswerValue>(),
    notApplicableReason: text('not_applicable_reason'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    review: text('review', { enum: REVIEW_STATES }).notNull().default('pending'),
    returnReason: text('return_reason'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('request_items_org_id_id_key').on(t.orgId, t.id),
    unique('request_items_key_key').on(t.orgId, t.requestId, t.key),
    index('request_items_request_idx').on(t.orgId, t.requestId, t.position),
    foreignKey({
      name: 'request_items_request_fk',
      columns: [t.orgId, t.requestId],
      foreignColumns: [requests.orgId, requests.id],
    }).onDelete('cascade'),
  ],
);

/** A file the client uploaded to a file item: a document in the request's folder. */
export const requestItemFiles = pgTable(
  'request_item_files',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id').notNull(),
    documentId: uuid('document_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.itemId, t.documentId] }),
    index('request_item_files_document_idx').on(t.orgId, t.documentId),
    foreignKey({
      name: 'request_item_files_item_fk',
      columns: [t.orgId, t.itemId],
      foreignColumns: [requestItems.orgId, requestItems.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'request_item_files_document_fk',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }).onDelete('cascade'),
  ],
);
