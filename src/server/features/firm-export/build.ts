import { once } from 'node:events';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { ZipArchive } from 'archiver';
import { and, asc, count, eq, getTableColumns, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import {
  clients,
  documentFolders,
  documents,
  documentVersions,
  firmExports,
  orgs,
  requestItemFiles,
  requestItems,
  requests,
} from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { csvWriter } from '../clients';
import { zipSegment } from '../documents';
import { EXPORT_TABLES, exportColumns, exportHeaders, exportLinks, type TExportTable } from './tables';
import { vaultEntriesFile } from './vault-file';

const PAGE = 500;
const DOCUMENT_PAGE = 200;
const PROGRESS_EVERY_MS = 1000;

/** A cell as text: JSON for lists and objects, ISO instants, base64 for bytes. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A firm table's rows a page at a time, in key order (keyset paging, never the whole table). */
async function* pagesOf(db: TDb, orgId: string, spec: TExportTable) {
  const all = getTableColumns(spec.table) as Record<string, PgColumn>;
  const orgColumn = all.orgId;
  if (!orgColumn) throw new Error(`${spec.name}: not a firm table`);
  const keys = spec.keys.map((k) => {
    const column = all[k];
    if (!column) throw new Error(`${spec.name}: no key column ${k}`);
    return column;
  });
  let after: unknown[] | null = null;
  for (;;) {
    let from: SQL | undefined;
    if (after && keys.length === 1 && keys[0]) from = gt(keys[0], after[0]);
    else if (after)
      from = sql`(${sql.join(keys, sql`, `)}) > (${sql.join(
        after.map((v) => sql`${v}`),
        sql`, `,
      )})`;
    const rows = (await db
      .select()
      .from(spec.table)
      .where(and(eq(orgColumn, orgId), from))
      .orderBy(...keys.map((k) => asc(k)))
      .limit(PAGE)) as Record<string, unknown>[];
    if (rows.length) yield rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = spec.keys.map((k) => last[k]);
  }
}

/** The rows of one file, as objects keyed by the CSV's headers. */
async function* recordsOf(db: TDb, orgId: string, spec: TExportTable) {
  const columns = exportColumns(spec).map(([key]) => key);
  for await (const rows of pagesOf(db, orgId, spec)) {
    for (const row of rows) {
      if (spec.explode) {
        const items = (row[spec.explode.column] as Record<string, unknown>[] | null) ?? [];
        let position = 0;
        for (const item of items) {
          position += 1;
          yield {
            [spec.explode.parent]: row.id,
            position,
            ...Object.fromEntries(spec.explode.fields.map((f) => [f, item[f] ?? null])),
          } as Record<string, unknown>;
        }
      } else {
        yield Object.fromEntries(columns.map((c) => [c, row[c] ?? null])) as Record<string, unknown>;
      }
    }
  }
}

/** A JSON array written an element at a time. */
async function* jsonArray(records: AsyncIterable<Record<string, unknown>>) {
  let first = true;
  yield '[';
  for await (const record of records) {
    yield `${first ? '\n' : ',\n'}${JSON.stringify(record)}`;
    first = false;
  }
  yield '\n]\n';
}

type TProgress = (step: string, advance?: number) => Promise<void>;

/**
 * Appends one entry and waits until the archive has taken all of it, so one source is read at a
 * time and a failing source fails the export instead of leaving a short file in it.
 */
async function appendEntry(
  archive: ZipArchive,
  body: Readable,
  name: string,
  options: { store?: boolean; date?: Date } = {},
  feeding?: Promise<unknown>,
) {
  const entered = once(archive, 'entry');
  archive.append(body, { name, ...options });
  await Promise.all([entered, finished(body), feeding]);
}

function csvEntry(headers: string[], records: AsyncIterable<Record<string, unknown>>) {
  const csv = csvWriter(headers);
  const source = Readable.from(
    (async function* () {
      for await (const record of records) yield headers.map((h) => cellText(record[h]));
    })(),
  );
  return { body: csv, feeding: pipeline(source, csv) };
}

/** Live folders (nothing above them in the trash) with their path inside the zip's documents/. */
async function folderPaths(db: TDb, orgId: string) {
  const rows = await db
    .select({
      id: documentFolders.id,
      parentId: documentFolders.parentId,
      name: documentFolders.name,
      clientName: clients.name,
      clientCode: clients.code,
    })
    .from(documentFolders)
    .leftJoin(
      clients,
      and(eq(clients.orgId, documentFolders.orgId), eq(clients.id, documentFolders.clientId)),
    )
    .where(and(eq(documentFolders.orgId, orgId), isNull(documentFolders.deletedAt)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<string, string | null>();
  const pathOf = (id: string, depth = 0): string | null => {
    if (paths.has(id)) return paths.get(id) ?? null;
    const folder = byId.get(id);
    let path: string | null = null;
    if (folder && depth < 64) {
      if (!folder.parentId) {
        // A tree is named by its client (with the code, two clients may share a name) or the firm.
        path = `documents/${folder.clientName ? zipSegment(`${folder.clientName} (${folder.clientCode})`) : 'Firm'}/`;
      } else {
        const parent = pathOf(folder.parentId, depth + 1);
        path = parent === null ? null : `${parent}${zipSegment(folder.name)}/`;
      }
    }
    paths.set(id, path);
    return path;
  };
  for (const id of byId.keys()) pathOf(id);
  return paths;
}

async function* liveDocuments(db: TDb, orgId: string) {
  let after: string | null = null;
  for (;;) {
    const rows = await db
      .select({
        id: documents.id,
        folderId: documents.folderId,
        name: documents.name,
        updatedAt: documents.updatedAt,
        storageKey: documentVersions.storageKey,
      })
      .from(documents)
      .innerJoin(
        documentVersions,
        and(eq(documentVersions.orgId, documents.orgId), eq(documentVersions.id, documents.currentVersionId)),
      )
      .where(
        and(
          eq(documents.orgId, orgId),
          isNull(documents.deletedAt),
          after ? gt(documents.id, after) : undefined,
        ),
      )
      .orderBy(asc(documents.id))
      .limit(DOCUMENT_PAGE);
    yield* rows;
    if (rows.length < DOCUMENT_PAGE) return;
    after = rows[rows.length - 1]?.id ?? null;
  }
}

/**
 * Files clients sent to requests that the firm has not accepted yet (held with their item, not in
 * the documents): a page at a time, with the request and client they belong to. Filed ones are in
 * documents/ already.
 */
async function* heldRequestFiles(db: TDb, orgId: string) {
  let after: string | null = null;
  for (;;) {
    const rows = await db
      .select({
        id: requestItemFiles.id,
        name: requestItemFiles.name,
        storageKey: requestItemFiles.storageKey,
        createdAt: requestItemFiles.createdAt,
        requestId: requests.id,
        title: requests.title,
        clientName: clients.name,
        clientCode: clients.code,
      })
      .from(requestItemFiles)
      .innerJoin(
        requestItems,
        and(eq(requestItems.orgId, requestItemFiles.orgId), eq(requestItems.id, requestItemFiles.itemId)),
      )
      .innerJoin(
        requests,
        and(eq(requests.orgId, requestItems.orgId), eq(requests.id, requestItems.requestId)),
      )
      .innerJoin(clients, and(eq(clients.orgId, requests.orgId), eq(clients.id, requests.clientId)))
      .where(
        and(
          eq(requestItemFiles.orgId, orgId),
          isNull(requestItemFiles.documentId),
          after ? gt(requestItemFiles.id, after) : undefined,
        ),
      )
      .orderBy(asc(requestItemFiles.id))
      .limit(DOCUMENT_PAGE);
    yield* rows;
    if (rows.length < DOCUMENT_PAGE) return;
    after = rows[rows.length - 1]?.id ?? null;
  }
}

export type TBuildInput = {
  exportId: string;
  orgId: string;
  includeVault: boolean;
  passphrase: string | null;
  /** The job's: aborted when another worker took the job over, which then builds it afresh. */
  signal?: AbortSignal;
};

/**
 * Writes the whole firm into one zip streamed into the file store: a CSV and a JSON file per kind of
 * record, `manifest.json` (counts and the links between the files), the vault's entries encrypted
 * when asked, every live document under `documents/<client>/<folders>/`, and the files clients sent
 * to requests and the firm has not accepted yet under `requests/<client>/<request>/`. Reads go a page at a
 * time and each document streams from storage into the zip, so memory stays flat whatever the size.
 */
export async function buildFirmExport(
  db: TDb,
  storage: TStorage,
  config: Pick<TConfig, 'vault'>,
  input: TBuildInput,
): Promise<{ storageKey: string; size: number; files: number }> {
  const { orgId } = input;
  const [firm] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, orgId));
  const [{ documentCount = 0 } = {}] = await db
    .select({ documentCount: count() })
    .from(documents)
    .where(and(eq(documents.orgId, orgId), isNull(documents.deletedAt)));
  const total = EXPORT_TABLES.length + documentCount + (input.includeVault ? 1 : 0);
  let done = 0;
  let lastWrite = 0;
  const progress: TProgress = async (step, advance = 0) => {
    input.signal?.throwIfAborted();
    done += advance;
    if (Date.now() - lastWrite < PROGRESS_EVERY_MS && advance) return;
    lastWrite = Date.now();
    await db.update(firmExports).set({ step, done, total }).where(eq(firmExports.id, input.exportId));
  };
  await progress('Starting');

  const storageKey = `${orgId}/${uuidv7()}`;
  // Loaded here, not at start: archiver is one of the server's heavier imports.
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const stored = storage.put(storageKey, archive, { contentType: 'application/zip' });
  const counts: Record<string, number> = {};
  let files = 0;
  try {
    await Promise.all([
      stored,
      (async () => {
        for (const spec of EXPORT_TABLES) {
          await progress(`Writing ${spec.name}`);
          const headers = exportHeaders(spec);
          let rows = 0;
          const counted = async function* () {
            for await (const record of recordsOf(db, orgId, spec)) {
              rows += 1;
              yield record;
            }
          };
          const csv = csvEntry(headers, counted());
          await appendEntry(archive, csv.body, `${spec.name}.csv`, {}, csv.feeding);
          counts[spec.name] = rows;
          await appendEntry(
            archive,
            Readable.from(jsonArray(recordsOf(db, orgId, spec))),
            `json/${spec.name}.json`,
          );
          await progress(`Writing ${spec.name}`, 1);
        }
        if (input.includeVault && input.passphrase) {
          await progress('Encrypting the vault');
          const vault = await vaultEntriesFile(db, config, orgId, input.passphrase);
          await appendEntry(
            archive,
            vault.body,
            'vault/vault-passwords.csv.gpg',
            { store: true },
            vault.feeding,
          );
          await progress('Encrypting the vault', 1);
        }
        const paths = await folderPaths(db, orgId);
        const seen = new Set<string>();
        for await (const doc of liveDocuments(db, orgId)) {
          const folder = paths.get(doc.folderId);
          const body = folder ? await storage.get(doc.storageKey) : null;
          if (folder && body) {
            let name = `${folder}${zipSegment(doc.name)}`;
            // Names are unique per folder, case aside; a zip unpacked on a case-blind disk is not.
            if (seen.has(name.toLowerCase())) name = `${folder}${doc.id}-${zipSegment(doc.name)}`;
            seen.add(name.toLowerCase());
            // Stored, not deflated: PDFs, scans and office files are compressed already.
            await appendEntry(archive, body, name, { store: true, date: doc.updatedAt });
            files += 1;
          }
          await progress('Adding documents', 1);
        }
        // Held request files under requests/<client>/<request>/, each named in request-item-files.
        let requestFiles = 0;
        for await (const file of heldRequestFiles(db, orgId)) {
          const body = await storage.get(file.storageKey);
          if (!body) continue;
          const folder = `requests/${zipSegment(`${file.clientName} (${file.clientCode})`)}/${zipSegment(`${file.title} (${file.requestId})`)}/`;
          let name = `${folder}${zipSegment(file.name)}`;
          if (seen.has(name.toLowerCase())) name = `${folder}${file.id}-${zipSegment(file.name)}`;
          seen.add(name.toLowerCase());
          await appendEntry(archive, body, name, { store: true, date: file.createdAt });
          requestFiles += 1;
        }
        const manifest = {
          firm: firm?.name ?? null,
          exportedAt: new Date().toISOString(),
          format: 'Practice firm export 1',
          files: EXPORT_TABLES.map((spec) => ({
            name: spec.name,
            csv: `${spec.name}.csv`,
            json: `json/${spec.name}.json`,
            rows: counts[spec.name] ?? 0,
          })),
          links: exportLinks(),
          documents: { folder: 'documents/', files },
          requestFiles: { folder: 'requests/', files: requestFiles },
          vault: input.includeVault
            ? { file: 'vault/vault-passwords.csv.gpg', encryption: 'OpenPGP, passphrase (gpg --decrypt)' }
            : null,
        };
        await appendEntry(archive, Readable.from([JSON.stringify(manifest, null, 2)]), 'manifest.json');
        await archive.finalize();
      })().catch((error: unknown) => {
        // The store sees the stream fail and keeps nothing of it.
        archive.destroy(error as Error);
        throw error;
      }),
    ]);
  } catch (error) {
    await storage.delete(storageKey).catch(() => {});
    throw error;
  }
  const head = await storage.head(storageKey);
  return { storageKey, size: head?.size ?? 0, files };
}
