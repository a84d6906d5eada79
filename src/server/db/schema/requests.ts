import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TAnswerValue } from '../../../domain/requests/answers';
import {
  ITEM_KINDS,
  REQUEST_ORIGINS,
  REQUEST_STATUSES,
  REVIEW_STATES,
} from '../../../domain/requests/constants';
import type { TItemCondition, TSection } from '../../../domain/requests/items';
import { clients } from './clients';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { documentFolders, documents } from './documents';
import { members, orgs } from './org';
import { clientUsers } from './portal';
import { projectTemplates } from './project-templates';
import { projects } from './projects';
import { tasks } from './tasks';

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
    /** The client's documents folder its accepted files are filed in, made at the first acceptance. */
    folderId: uuid('folder_id'),
    /** The project it is for (sent from the project, or by its template before the due date). */
    projectId: uuid('project_id'),
    /** The client's portal to-do made for it in that project: completing the request completes it. */
    taskId: uuid('task_id'),
    /** 'staff' (someone sent it) or 'project_template' (the project's template sent it by itself). */
    origin: text('origin', { enum: REQUEST_ORIGINS }).notNull().default('staff'),
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
    // A project's template sends its request once, whatever the number of job runs or instances.
    uniqueIndex('requests_project_template_key')
      .on(t.orgId, t.projectId)
      .where(sql`origin = 'project_template'`),
    index('requests_project_idx').on(t.orgId, t.projectId).where(sql`project_id is not null`),
    index('requests_task_idx').on(t.orgId, t.taskId).where(sql`task_id is not null`),
    foreignKey({
      name: 'requests_project_fk',
      columns: [t.orgId, t.projectId],
      foreignColumns: [projects.orgId, projects.id],
    }).onDelete('set null'), // SET NULL (project_id)
    foreignKey({
      name: 'requests_task_fk',
      columns: [t.orgId, t.taskId],
      foreignColumns: [tasks.orgId, tasks.id],
    }).onDelete('set null'), // SET NULL (task_id)
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

/**
 * A file the client uploaded to a file item. It is held with the item (its own stored bytes, by the
 * documents' streaming upload) until the firm accepts the item; then it is filed into the client's
 * documents (documentId, filedAt) and the document's version names the same stored bytes.
 */
export const requestItemFiles = pgTable(
  'request_item_files',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    checksumSha256: text('checksum_sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedByClientUserId: uuid('uploaded_by_client_user_id'),
    /** The document it became when its item was accepted; null while it is held with the item. */
    documentId: uuid('document_id'),
    filedAt: timestamp('filed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('request_item_files_org_id_id_key').on(t.orgId, t.id),
    index('request_item_files_item_idx').on(t.orgId, t.itemId, t.createdAt),
    index('request_item_files_document_idx').on(t.orgId, t.documentId),
    foreignKey({
      name: 'request_item_files_item_fk',
      columns: [t.orgId, t.itemId],
      foreignColumns: [requestItems.orgId, requestItems.id],
    }).onDelete('cascade'),
    // Purging the filed document from the trash removes its bytes, so the item's record goes too.
    foreignKey({
      name: 'request_item_files_document_fk',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'request_item_files_uploaded_by_fk',
      columns: [t.orgId, t.uploadedByClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (uploaded_by_client_user_id)
  ],
);

/**
 * A project template's request (issue 36): each project made from the template sends the client
 * this request template `leadDays` before the project's due date, due back `dueDaysBefore` days
 * before it. One row per project template (its own table, so the template's form stays as it is).
 */
export const projectTemplateRequests = pgTable(
  'project_template_requests',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    projectTemplateId: uuid('project_template_id').notNull(),
    requestTemplateId: uuid('request_template_id').notNull(),
    leadDays: integer('lead_days').notNull(),
    dueDaysBefore: integer('due_days_before').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.projectTemplateId] }),
    index('project_template_requests_request_idx').on(t.orgId, t.requestTemplateId),
    foreignKey({
      name: 'project_template_requests_template_fk',
      columns: [t.orgId, t.projectTemplateId],
      foreignColumns: [projectTemplates.orgId, projectTemplates.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'project_template_requests_request_template_fk',
      columns: [t.orgId, t.requestTemplateId],
      foreignColumns: [requestTemplates.orgId, requestTemplates.id],
    }).onDelete('cascade'),
  ],
);
