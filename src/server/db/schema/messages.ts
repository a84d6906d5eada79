import { sql } from 'drizzle-orm';
import {
  bigint,
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
import { THREAD_STATUSES } from '../../../domain/messages';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { documents } from './documents';
import { members, orgs } from './org';
import { clientUsers } from './portal';

// Client messages (issue 38). A thread belongs to one client; its messages are numbered within it
// (`seq`), so "unread" is a comparison of two numbers per person (the thread's last number against
// the one they last read) rather than a count over the messages.

export const messageThreads = pgTable(
  'message_threads',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    subject: text('subject').notNull(),
    status: text('status', { enum: THREAD_STATUSES }).notNull().default('open'),
    assigneeId: uuid('assignee_id'),
    /** The number of the last message, internal notes included (what staff read up to). */
    lastSeq: integer('last_seq').notNull().default(0),
    /** The number of the last message the client sees (internal notes excluded). */
    lastPublicSeq: integer('last_public_seq').notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    lastPublicAt: timestamp('last_public_at', { withTimezone: true }),
    /** One line of the last message, for the inbox; `lastPublicPreview` for the portal's list. */
    lastPreview: text('last_preview').notNull().default(''),
    lastPublicPreview: text('last_public_preview').notNull().default(''),
    createdByMemberId: uuid('created_by_member_id'),
    createdByClientUserId: uuid('created_by_client_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('message_threads_org_id_id_key').on(t.orgId, t.id),
    // The firm's inbox: newest activity first, by status, in the list's exact order (the id breaks
    // ties, and DESC is NULLS FIRST as the ORDER BY's: drizzle's plain desc() makes DESC NULLS LAST, an
    // order PostgreSQL cannot read for `order by … desc`, so it sorted every open thread); the
    // assignee last, so Unassigned and Mine count their rows from the index alone. A client's tab;
    // a member's assigned ones.
    index('message_threads_inbox_v2_idx').on(
      t.orgId,
      t.status,
      t.lastMessageAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.assigneeId,
    ),
    index('message_threads_client_v2_idx').on(
      t.orgId,
      t.clientId,
      t.lastMessageAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('message_threads_assignee_idx')
      .on(t.orgId, t.assigneeId, t.lastMessageAt.desc().nullsFirst())
      .where(sql`assignee_id is not null`),
    foreignKey({
      name: 'message_threads_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'message_threads_assignee_fk',
      columns: [t.orgId, t.assigneeId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (assignee_id)
    foreignKey({
      name: 'message_threads_created_by_member_fk',
      columns: [t.orgId, t.createdByMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by_member_id)
    foreignKey({
      name: 'message_threads_created_by_client_user_fk',
      columns: [t.orgId, t.createdByClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (created_by_client_user_id)
  ],
);

/**
 * A member's place on a thread: on it (`participant`: named on it, or wrote in it) or only a reader
 * who opened it, with the last message number they have read.
 */
export const messageThreadMembers = pgTable(
  'message_thread_members',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id').notNull(),
    memberId: uuid('member_id').notNull(),
    participant: boolean('participant').notNull().default(false),
    readSeq: integer('read_seq').notNull().default(0),
    /** The last message number mailed to them (a delayed mail covers what they had not read). */
    mailedSeq: integer('mailed_seq').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.threadId, t.memberId] }),
    // "Mine": the threads a member is on.
    index('message_thread_members_member_idx').on(t.orgId, t.memberId, t.threadId).where(sql`participant`),
    foreignKey({
      name: 'message_thread_members_thread_fk',
      columns: [t.orgId, t.threadId],
      foreignColumns: [messageThreads.orgId, messageThreads.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'message_thread_members_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);

/** The client's portal users on a thread, and what each has read. */
export const messageThreadClientUsers = pgTable(
  'message_thread_client_users',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id').notNull(),
    clientUserId: uuid('client_user_id').notNull(),
    readSeq: integer('read_seq').notNull().default(0),
    /** The last message number mailed to them (a delayed mail covers what they had not read). */
    mailedSeq: integer('mailed_seq').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.threadId, t.clientUserId] }),
    index('message_thread_client_users_user_idx').on(t.orgId, t.clientUserId, t.threadId),
    foreignKey({
      name: 'message_thread_client_users_thread_fk',
      columns: [t.orgId, t.threadId],
      foreignColumns: [messageThreads.orgId, messageThreads.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'message_thread_client_users_user_fk',
      columns: [t.orgId, t.clientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('cascade'),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id').notNull(),
    seq: integer('seq').notNull(),
    authorMemberId: uuid('author_member_id'),
    authorClientUserId: uuid('author_client_user_id'),
    /** Neither: a held mail from an outside address, released into the thread by the firm. */
    authorEmail: text('author_email'),
    body: text('body').notNull(),
    /** An internal note: never leaves the firm (not in the portal, not mailed to the client). */
    internal: boolean('internal').notNull().default(false),
    mentions: uuid('mentions').array().notNull().default(sql`'{}'::uuid[]`),
    /** 'app', or 'email' for a reply that came back by mail. */
    source: text('source', { enum: ['app', 'email'] })
      .notNull()
      .default('app'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('messages_org_id_id_key').on(t.orgId, t.id),
    // A thread's pages, and no two messages with one number (two posts at once: one waits).
    unique('messages_thread_seq_key').on(t.orgId, t.threadId, t.seq),
    foreignKey({
      name: 'messages_thread_fk',
      columns: [t.orgId, t.threadId],
      foreignColumns: [messageThreads.orgId, messageThreads.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'messages_author_member_fk',
      columns: [t.orgId, t.authorMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (author_member_id)
    foreignKey({
      name: 'messages_author_client_user_fk',
      columns: [t.orgId, t.authorClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (author_client_user_id)
  ],
);

/**
 * A message's files: documents of the thread's client, in its Messages folder. `messageId` is null
 * while the file is uploaded and not yet sent (the composer's pending attachment).
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id').notNull(),
    threadId: uuid('thread_id').notNull(),
    messageId: uuid('message_id'),
    uploadedByMemberId: uuid('uploaded_by_member_id'),
    uploadedByClientUserId: uuid('uploaded_by_client_user_id'),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.documentId] }),
    index('message_attachments_message_idx').on(t.orgId, t.messageId),
    foreignKey({
      name: 'message_attachments_document_fk',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'message_attachments_thread_fk',
      columns: [t.orgId, t.threadId],
      foreignColumns: [messageThreads.orgId, messageThreads.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'message_attachments_message_fk',
      columns: [t.orgId, t.messageId],
      foreignColumns: [messages.orgId, messages.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'message_attachments_member_fk',
      columns: [t.orgId, t.uploadedByMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (uploaded_by_member_id)
    foreignKey({
      name: 'message_attachments_client_user_fk',
      columns: [t.orgId, t.uploadedByClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (uploaded_by_client_user_id)
  ],
);

/**
 * Mail that came in for a thread or a client's forwarding address and was not posted: its sender is
 * not on the thread (nor of the firm, for a forward), or its address's token is wrong. The firm
 * reviews it; it is never posted as the client by itself.
 */
export const messagesHeld = pgTable(
  'messages_held',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id'),
    clientId: uuid('client_id'),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** 'not_participant', 'bad_token', 'not_member'. */
    reason: text('reason').notNull(),
    attachmentNames: text('attachment_names').array().notNull().default(sql`'{}'::text[]`),
    discardedAt: timestamp('discarded_at', { withTimezone: true }),
    discardedBy: uuid('discarded_by'),
    /** Reviewed and posted into a thread (of the member's choice) as `releasedMessageId`. */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: uuid('released_by'),
    releasedMessageId: uuid('released_message_id'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('messages_held_org_id_id_key').on(t.orgId, t.id),
    index('messages_held_open_idx').on(t.orgId, t.createdAt).where(sql`discarded_at is null`),
    foreignKey({
      name: 'messages_held_thread_fk',
      columns: [t.orgId, t.threadId],
      foreignColumns: [messageThreads.orgId, messageThreads.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'messages_held_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'messages_held_discarded_by_fk',
      columns: [t.orgId, t.discardedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (discarded_by)
    foreignKey({
      name: 'messages_held_released_by_fk',
      columns: [t.orgId, t.releasedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (released_by)
  ],
);

/**
 * The files of a mail held for review, stored (under the upload size limit) but not yet documents:
 * on release they become the thread's message's files in the client's Messages folder (the same
 * stored bytes, this row gone); on discard the row and its bytes go. Named in `namedStoredFiles`,
 * so the orphan sweep leaves them and a backup copies them.
 */
export const messageHeldFiles = pgTable(
  'message_held_files',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    heldId: uuid('held_id').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    checksumSha256: text('checksum_sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('message_held_files_org_id_id_key').on(t.orgId, t.id),
    index('message_held_files_held_idx').on(t.orgId, t.heldId, t.createdAt),
    foreignKey({
      name: 'message_held_files_held_fk',
      columns: [t.orgId, t.heldId],
      foreignColumns: [messagesHeld.orgId, messagesHeld.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The Message-IDs of a thread's mail, both ways: each mail the product sends for it (the delayed
 * digest, `out`, with the thread's last number it covered) and each mail filed into it (`in`). A
 * mail to a client's forwarding address whose In-Reply-To or References names one of them continues
 * that thread (a client's answer to a member's BCC'd mail, a reply-all to the firm's mail) before its
 * subject is looked at. Stored without the angle brackets, as mailparser hands them over.
 */
export const messageMailIds = pgTable(
  'message_mail_ids',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    messageIdHeader: text('message_id_header').notNull(),
    threadId: uuid('thread_id').notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    /** Outbound: the thread's last message number the mail covered. */
    seq: integer('seq'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.messageIdHeader] }),
    index('message_mail_ids_thread_idx').on(t.orgId, t.threadId),
    foreignKey({
      name: 'message_mail_ids_thread_fk',
      columns: [t.orgId, t.threadId],
      foreignColumns: [messageThreads.orgId, messageThreads.id],
    }).onDelete('cascade'),
  ],
);
