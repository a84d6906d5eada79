import { createHash, createHmac } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TExecutor } from '../db/client';
import { rowsOf } from '../db/sql';
import type { TKeyring } from '../features/vault';
import { namedStoredFiles } from '../files/references';
// Not from db/client: the backup worker (worker.ts) starts faster without the drivers.
import { migrationsFolder, projectRoot } from '../paths';

export const MANIFEST = 'manifest.json';
export const FORMAT = 'practice-backup';

const ZMember = z.object({
  path: z.string().min(1),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const ZManifest = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.literal(1),
  product: z.object({ name: z.string(), version: z.string() }),
  createdAt: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  /** The last migration applied to the database in the archive. */
  migration: z.object({ tag: z.string(), createdAt: z.number() }),
  /** `schema.table` → rows, at the archive's moment. */
  tables: z.record(z.string(), z.number().int().min(0)),
  /** Stored files: how many, and their total size. */
  files: z.object({ count: z.number().int().min(0), bytes: z.number().int().min(0) }),
  /**
   * The vault master keys the data is sealed with (never the keys). `check` is an HMAC of a fixed
   * text under each key, so a restore can tell a wrong key with the right id before it writes.
   */
  vault: z.object({ keyIds: z.array(z.string()), check: z.record(z.string(), z.string()) }),
  /** How long the database held requests while the archive's snapshot was taken, in ms. */
  blockedMs: z.number().min(0),
  /** Every other member of the archive. */
  members: z.array(ZMember),
});

export type TManifest = z.infer<typeof ZManifest>;
export type TMember = z.infer<typeof ZMember>;

const KEY_CHECK_TEXT = 'practice backup: vault key check';
export const keyCheck = (key: Buffer) => createHmac('sha256', key).update(KEY_CHECK_TEXT).digest('hex');

export function productVersion(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
  return { name: String(pkg.name), version: String(pkg.version) };
}

type TJournal = { entries: { idx: number; when: number; tag: string }[] };
export function journal(): TJournal['entries'] {
  const text = readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8');
  return (JSON.parse(text) as TJournal).entries;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export type TDatabaseFacts = {
  migration: TManifest['migration'];
  tables: Record<string, number>;
  /** Every stored file the database names, with its recorded size. */
  storageKeys: { key: string; size: number }[];
  keyIds: string[];
};

/**
 * What a database holds, read in one snapshot (`db` is a REPEATABLE READ transaction on
 * PostgreSQL, the opened copy on PGlite): the last migration, every table's rows, the stored files
 * it names and the vault key ids its sealed values need.
 */
export async function databaseFacts(db: TExecutor): Promise<TDatabaseFacts> {
  const [last] = rowsOf<{ created_at: string }>(
    await db.execute(
      sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    ),
  );
  const createdAt = Number(last?.created_at ?? 0);
  const tag = journal().find((e) => e.when === createdAt)?.tag ?? `unknown-${createdAt}`;
  const tableNames = rowsOf<{ schema: string; name: string }>(
    await db.execute(sql`select table_schema as schema, table_name as name from information_schema.tables
      where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1, 2`),
  );
  const tables: Record<string, number> = {};
  if (tableNames.length) {
    const counts = rowsOf<{ name: string; n: string | number }>(
      await db.execute(
        sql.join(
          tableNames.map(
            (t) =>
              sql`select ${`${t.schema}.${t.name}`} as name, count(*) as n from ${sql.identifier(t.schema)}.${sql.identifier(t.name)}`,
          ),
          sql` union all `,
        ),
      ),
    );
    for (const c of counts) tables[c.name] = Number(c.n);
  }
  const storageKeys = rowsOf<{ key: string; size: string | number }>(
    await db.execute(sql`select storage_key as key, max(size) as size from ${namedStoredFiles} s
      group by storage_key order by 1`),
  ).map((r) => ({ key: r.key, size: Number(r.size) }));
  const keyIds = rowsOf<{ id: string }>(
    await db.execute(sql`select distinct id from (
      select key_id as id from vault_entries
      union select split_part(sealed, '$', 2) from vault_server_secrets
      union select split_part(totp_secret, '$', 2) from idp_users where totp_secret is not null
      union select split_part(totp_pending_secret, '$', 2) from idp_users where totp_pending_secret is not null
    ) k where id <> '' order by 1`),
  ).map((r) => r.id);
  return { migration: { tag, createdAt }, tables, storageKeys, keyIds };
}

/** The manifest's vault part: the ids the data needs and the current one, each with its check. */
export function vaultPart(keyring: TKeyring, usedIds: string[]): TManifest['vault'] {
  const keyIds = [...new Set([...usedIds, keyring.current.id])].sort();
  const check: Record<string, string> = {};
  for (const id of keyIds) {
    const key = keyring.byId.get(id);
    if (key) check[id] = keyCheck(key);
  }
  return { keyIds, check };
}
