import { sql } from 'drizzle-orm';

/**
 * Every stored file the database names, as (storage_key, size) rows: document versions, leave
 * requests' attachments, client requests' files, held mail's files and the firm's exports. The orphan sweep keeps exactly these and a backup
 * copies exactly these, so a table that starts naming stored files is added here, once.
 */
export const namedStoredFiles = sql`(
  select storage_key, size from document_versions
  union all select storage_key, size from leave_attachments
  union all select storage_key, size from request_item_files
  union all select storage_key, size from message_held_files
  union all select storage_key, coalesce(size, 0) from firm_exports where storage_key is not null
)`;
