import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  type PgTableExtraConfigValue,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';
import { clientUsers } from './portal';
import { tasks } from './tasks';

/**
 * A folder of a document tree: a client's (clientId set) or the firm's vault (clientId null). Each
 * tree has one root (parentId null), created with the tree the first time it is opened. Deleting
 * sets deletedAt (the trash); what lies below is hidden with it and purged with it.
 */
export const documentFolders = pgTable(
  'document_folders',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id'),
    parentId: uuid('parent_id'),
    name: text('name').notNull(),
    visibleToPortal: boolean('visible_to_portal').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdByMemberId: uuid('created_by_member_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('document_folders_org_id_id_key').on(t.orgId, t.id),
    // One root per tree (the vault's client_id is null, which a plain unique would not compare).
    uniqueIndex('document_folders_root_key')
      .on(t.orgId, sql`coalesce(${t.clientId}, '00000000-0000-0000-0000-000000000000'::uuid)`)
      .where(sql`parent_id is null`),
    // Sibling folders have distinct names among the live ones.
    uniqueIndex('document_folders_sibling_name_key')
      .on(t.orgId, t.parentId, sql`lower(${t.name})`)
      .where(sql`deleted_at is null and parent_id is not null`),
    index('document_folders_children_idx').on(t.orgId, t.parentId, t.name).where(sql`deleted_at is null`),
    index('document_folders_trash_idx').on(t.orgId, t.clientId, t.deletedAt),
    foreignKey({
      name: 'document_folders_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'document_folders_parent_fk',
      columns: [t.orgId, t.parentId],
      foreignColumns: [t.orgId, t.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'document_folders_created_by_fk',
      columns: [t.orgId, t.createdByMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by_member_id)
  ],
);

/**
 * A file: its name in a folder and its current version. size and contentType repeat the current
 * version's so a folder sorts by size without a join. A second upload of the same name into the
 * same folder adds a version instead of a second file.
 */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    folderId: uuid('folder_id').notNull(),
    clientId: uuid('client_id'),
    name: text('name').notNull(),
    currentVersionId: uuid('current_version_id'),
    currentVersion: integer('current_version').notNull().default(1),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    contentType: text('content_type').notNull().default('application/octet-stream'),
    visibleToPortal: boolean('visible_to_portal').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    uploadedByMemberId: uuid('uploaded_by_member_id'),
    /** The portal's uploads (client users arrive with the portal). */
    uploadedByClientUserId: uuid('uploaded_by_client_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Annotated: the current-version key makes documents and document_versions refer to each other.
  (t): PgTableExtraConfigValue[] => [
    unique('documents_org_id_id_key').on(t.orgId, t.id),
    // A folder's first page in each sort order straight from an index. Partial on the live rows:
    // "deleted_at is null" is not an equality, so as a key column it would break the ordering.
    index('documents_folder_name_idx').on(t.orgId, t.folderId, t.name, t.id).where(sql`deleted_at is null`),
    index('documents_folder_updated_idx')
      .on(t.orgId, t.folderId, t.updatedAt, t.id)
      .where(sql`deleted_at is null`),
    index('documents_folder_size_idx').on(t.orgId, t.folderId, t.size, t.id).where(sql`deleted_at is null`),
    index('documents_trash_idx').on(t.orgId, t.clientId, t.deletedAt),
    // The public API's list of files (GET /documents), oldest first by id, a folder's or a client's.
    index('documents_folder_id_idx').on(t.orgId, t.folderId, t.id).where(sql`deleted_at is null`),
    index('documents_client_id_idx').on(t.orgId, t.clientId, t.id).where(sql`deleted_at is null`),
    uniqueIndex('documents_folder_live_name_key')
      .on(t.orgId, t.folderId, sql`lower(${t.name})`)
      .where(sql`deleted_at is null`),
    index('documents_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    foreignKey({
      name: 'documents_folder_fk',
      columns: [t.orgId, t.folderId],
      foreignColumns: [documentFolders.orgId, documentFolders.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'documents_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'documents_current_version_fk',
      columns: [t.orgId, t.currentVersionId],
      foreignColumns: [documentVersions.orgId, documentVersions.id],
    }),
    foreignKey({
      name: 'documents_uploaded_by_member_fk',
      columns: [t.orgId, t.uploadedByMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (uploaded_by_member_id)
    foreignKey({
      name: 'documents_uploaded_by_client_user_fk',
      columns: [t.orgId, t.uploadedByClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (uploaded_by_client_user_id)
  ],
);

/** One stored upload of a document; the bytes live in storage under a generated key. */
export const documentVersions = pgTable(
  'document_versions',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id').notNull(),
    version: integer('version').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    checksumSha256: text('checksum_sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedByMemberId: uuid('uploaded_by_member_id'),
    uploadedByClientUserId: uuid('uploaded_by_client_user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('document_versions_org_id_id_key').on(t.orgId, t.id),
    unique('document_versions_document_version_key').on(t.orgId, t.documentId, t.version),
    foreignKey({
      name: 'document_versions_document_fk',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'document_versions_uploaded_by_member_fk',
      columns: [t.orgId, t.uploadedByMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (uploaded_by_member_id)
    foreignKey({
      name: 'document_versions_uploaded_by_client_user_fk',
      columns: [t.orgId, t.uploadedByClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (uploaded_by_client_user_id)
  ],
);

/**
 * Files attached to a task. The file itself is an ordinary document in the task's client's folders
 * (so it has versions, trash and portal visibility like any other); this row only links the two.
 * Removing the link leaves the document where it is.
 */
export const taskAttachments = pgTable(
  'task_attachments',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').notNull(),
    documentId: uuid('document_id').notNull(),
    attachedByMemberId: uuid('attached_by_member_id'),
    attachedByClientUserId: uuid('attached_by_client_user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.taskId, t.documentId] }),
    index('task_attachments_document_idx').on(t.orgId, t.documentId),
    foreignKey({
      name: 'task_attachments_task_fk',
      columns: [t.orgId, t.taskId],
      foreignColumns: [tasks.orgId, tasks.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'task_attachments_document_fk',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'task_attachments_attached_by_member_fk',
      columns: [t.orgId, t.attachedByMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (attached_by_member_id)
    foreignKey({
      name: 'task_attachments_attached_by_client_user_fk',
      columns: [t.orgId, t.attachedByClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (attached_by_client_user_id)
  ],
);
