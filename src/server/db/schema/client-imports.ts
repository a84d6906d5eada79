import {
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
import { IMPORT_ROW_STATUSES, IMPORT_STATUSES } from '../../../domain/client-import';
import { clients } from './clients';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/**
 * A spreadsheet of clients on its way in: parsed and checked on upload (the preview), then imported
 * a batch at a time. Progress lives here rather than in a server's memory, so any instance can
 * take the next batch and the web polls nothing but this row.
 */
export const clientImports = pgTable(
  'client_imports',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    /** The member who uploaded it: only they see and run it. */
    memberId: uuid('member_id').notNull(),
    fileName: text('file_name').notNull(),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('preview'),
    /** What the header row said: { ignored: string[], repeated: string[] }. */
    headers: jsonb('headers').$type<{ ignored: string[]; repeated: string[] }>().notNull(),
    totalRows: integer('total_rows').notNull(),
    /**
     * How many staged rows have been through the import step: a count, moved with the cursor in
     * the step's transaction (3,000 rows end at 3,000), for the progress and for anyone reading.
     */
    processedRows: integer('processed_rows').notNull().default(0),
    /** The cursor: rows up to this file row number (the header is row 1) have been stepped over. */
    cursorRow: integer('cursor_row').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('client_imports_org_id_id_key').on(t.orgId, t.id),
    index('client_imports_org_member_idx').on(t.orgId, t.memberId, t.createdAt),
    foreignKey({
      name: 'client_imports_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);

/** One data row of an import file: its cells by field, the checked client, and what became of it. */
export const clientImportRows = pgTable(
  'client_import_rows',
  {
    orgId: orgId(),
    importId: uuid('import_id').notNull(),
    /** The spreadsheet's row number (the header is row 1). */
    rowNo: integer('row_no').notNull(),
    status: text('status', { enum: IMPORT_ROW_STATUSES }).notNull(),
    values: jsonb('values').$type<Record<string, string>>().notNull(),
    /** The client to create (the form's schema output), for rows that passed. */
    data: jsonb('data').$type<Record<string, unknown>>(),
    messages: jsonb('messages').$type<{ field: string; message: string }[]>().notNull().default([]),
    clientId: uuid('client_id'),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.rowNo] }),
    index('client_import_rows_status_idx').on(t.importId, t.status, t.rowNo),
    foreignKey({
      name: 'client_import_rows_import_fk',
      columns: [t.orgId, t.importId],
      foreignColumns: [clientImports.orgId, clientImports.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'client_import_rows_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('set null'), // SET NULL (client_id)
  ],
);
