import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  CLIENT_IMPORT_BATCH,
  CLIENT_IMPORT_MAX_ROWS,
  duplicateKeys,
  FIELD_HEADERS,
  isBlankRow,
  mapHeaders,
  missingRequiredColumns,
  parseCsv,
  parseRow,
  rowValues,
  type TImportRowStatus,
  type TImportRowsInput,
  type TRowMessage,
  ZImportRowsInput,
} from '../../../domain/client-import';
import type { TClientInput } from '../../../domain/clients';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientGroups, clientImportRows, clientImports, clients, clientTeam } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { audit } from '../system-log';
import { isZip, readXlsx } from './xlsx';

type TImportScope = Pick<TScope, 'orgId' | 'memberId' | 'isOwner' | 'permissions' | 'assignedClientsOnly'>;
type TStagedClient = TClientInput & { generatedCode?: boolean };

const bad = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The file's text: UTF-8 (with or without a BOM), UTF-16 as Excel's "Unicode text" saves it, or
 * Windows-1252 as older Excel saves "CSV" on Windows.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The sheet's cells, from a CSV file or an Excel workbook's first worksheet. An XLSX file is told by
 * its content (a zip), so a workbook renamed .csv is still read and a text file named .xlsx is not.
 */
export async function readSheet(fileName: string, bytes: Uint8Array): Promise<string[][]> {
  if (isZip(bytes)) {
    try {
      return await readXlsx(bytes);
    } catch {
      throw bad('This file could not be read as an Excel workbook: save it again as .xlsx or as CSV');
    }
  }
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  // The OLE2 signature of Excel 97–2003 .xls files, which only the .xlsx reader's library lacks.
  const ole = bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;
  if (ext === 'xls' || ole) {
    throw bad(
      'Old Excel .xls files cannot be read: in Excel save it as .xlsx or CSV UTF-8, then upload that file',
    );
  }
  if (ext === 'xlsx') throw bad('This file is not an Excel workbook: save it again as .xlsx or as CSV');
  if (bytes.includes(0) && !(bytes[0] === 0xff || bytes[0] === 0xfe)) {
    throw bad('This file is not a CSV or Excel file: save the spreadsheet as CSV or .xlsx and upload that');
  }
  return parseCsv(decodeText(bytes));
}

/** Another member, firm or an unknown id: the same answer, so ids reveal nothing. */
async function ownImport(db: TExecutor, scope: TImportScope, importId: string, lock = false) {
  const query = db
    .select()
    .from(clientImports)
    .where(
      and(
        eq(clientImports.orgId, scope.orgId),
        eq(clientImports.id, importId),
        eq(clientImports.memberId, scope.memberId),
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.status === 'discarded')
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Import not found' });
  return row;
}

/** Someone limited to their assigned clients must not learn the names of clients they cannot see. */
const seesAll = (scope: TImportScope) => !scope.assignedClientsOnly;

type TExisting = { code: string; name: string };

/**
 * Existing clients of the firm sharing an email or a tax identifier with the given keys; with
 * `since`, only those added or changed since then (the rest were checked by the preview).
 */
async function existingByKeys(db: TExecutor, orgId: string, keys: string[], since?: Date) {
  const recent = since ? sql`and ${clients.updatedAt} >= ${since.toISOString()}::timestamptz` : sql``;
  const found = new Map<string, TExisting>();
  const emails = keys.filter((k) => k.startsWith('email:')).map((k) => k.slice(6));
  const taxes = keys.filter((k) => k.startsWith('tax:')).map((k) => k.slice(4));
  if (emails.length) {
    const rows = await db
      .select({ email: clients.email, code: clients.code, name: clients.name })
      .from(clients)
      // Emails are stored lower-cased (the schema does it), so the (org, email) index serves this.
      .where(and(eq(clients.orgId, orgId), sql`${clients.email} = any(${pgArray(emails)}::text[])`));
    for (const r of rows) if (r.email) found.set(`email:${r.email.toLowerCase()}`, r);
  }
  if (taxes.length) {
    const rows = await db.execute(
      // The firm's identifiers are listed once (materialised), then matched by a hashed ANY: left
      // to itself the planner may loop over the wanted keys and rescan the firm's for each one.
      sql`with ids as materialized (
            select upper(t->>'kind') || ':' || upper(regexp_replace(t->>'value', '\\s+', '', 'g')) as key,
              ${clients.code} as code, ${clients.name} as name
            from ${clients} cross join lateral jsonb_array_elements(${clients.taxIds}) t
            where ${clients.orgId} = ${orgId} ${recent})
          select key, code, name from ids where key = any(${pgArray(taxes)}::text[])`,
    );
    for (const r of rowsOf<{ key: string; code: string; name: string }>(rows))
      found.set(`tax:${r.key}`, { code: r.code, name: r.name });
  }
  return found;
}

/** The firm's codes among these (case-insensitive, as the form's check is). */
async function takenCodes(db: TExecutor, orgId: string, codes: string[], since?: Date) {
  const recent = since ? sql`and ${clients.updatedAt} >= ${since.toISOString()}::timestamptz` : sql``;
  if (!codes.length) return new Map<string, TExisting>();
  const rows = await db.execute(
    sql`select ${clients.code} as code, ${clients.name} as name
        from ${clients}
        where ${clients.orgId} = ${orgId} ${recent} and lower(${clients.code}) = any(${pgArray(codes)}::text[])`,
  );
  return new Map(rowsOf<TExisting>(rows).map((r) => [r.code.toLowerCase(), r]));
}

/** An array as one text parameter in PostgreSQL's literal syntax: both drivers pass it as it is. */
const pgArray = (values: string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** C00001, C00002…: past the firm's and the file's highest code of that shape. */
async function codeGenerator(db: TExecutor, orgId: string, fileCodes: string[]) {
  const [row] = rowsOf<{ max: string | null }>(
    await db.execute(
      sql`select max(substring(${clients.code} from 2)::bigint)::text as max from ${clients}
          where ${clients.orgId} = ${orgId} and ${clients.code} ~ '^[Cc][0-9]{1,12}$'`,
    ),
  );
  let next = Number(row?.max ?? 0);
  for (const code of fileCodes) {
    const m = /^c(\d{1,12})$/i.exec(code);
    if (m) next = Math.max(next, Number(m[1]));
  }
  return () => `C${String(++next).padStart(5, '0')}`;
}

const duplicateMessage = (label: string, other: string): TRowMessage => ({
  field: label === 'email' ? 'email' : 'taxIds',
  message: `Same ${label} as ${other}`,
});

/**
 * Reads, checks and stages a file: every row gets its status (new, duplicate or error, with the
 * reasons) for the preview. Nothing is imported yet; the staged rows are what the import takes.
 */
export async function stageImport(
  db: TDb,
  scope: TImportScope,
  fileName: string,
  grid: string[][],
  meta: TRequestMeta,
) {
  const [header, ...body] = grid;
  if (!header || isBlankRow(header)) throw bad('The file is empty: the first row must name the columns');
  const map = mapHeaders(header);
  const missing = missingRequiredColumns(map);
  if (missing.length) {
    throw bad(
      `No ${missing.join(', ')} column: the first row must name the columns (for example Code, Name, Email, Phone)`,
    );
  }
  // Clients changed after this instant are checked again by the import steps.
  const checkedAt = new Date();
  const rows = body.map((cells, i) => ({ rowNo: i + 2, cells })).filter((r) => !isBlankRow(r.cells));
  if (!rows.length) throw bad('The file has no clients in it, only the header row');
  if (rows.length > CLIENT_IMPORT_MAX_ROWS) {
    throw bad(`The file has ${rows.length} rows: import at most ${CLIENT_IMPORT_MAX_ROWS} at a time`);
  }

  const groups = await db
    .select({ id: clientGroups.id, name: clientGroups.name })
    .from(clientGroups)
    .where(eq(clientGroups.orgId, scope.orgId));
  const groupIds = new Map(groups.map((g) => [g.name.toLowerCase(), g.id]));

  const parsed = rows.map((r) => {
    const values = rowValues(map, r.cells);
    return { ...r, values, result: parseRow(values, groupIds) };
  });
  const good = parsed.flatMap((p) => (p.result.ok ? [{ p, input: p.result.input }] : []));
  const explicitCodes = parsed
    .filter((p) => p.values.code && !(p.result.ok && p.result.generateCode))
    .map((p) => (p.values.code ?? '').toLowerCase());
  const [existing, taken, nextCode] = await Promise.all([
    existingByKeys(
      db,
      scope.orgId,
      good.flatMap((g) => duplicateKeys(g.input).map((k) => k.key)),
    ),
    takenCodes(
      db,
      scope.orgId,
      good.map((g) => g.input.code.toLowerCase()),
    ),
    codeGenerator(db, scope.orgId, explicitCodes),
  ]);
  const named = seesAll(scope);
  const firstWithKey = new Map<string, number>();
  const firstWithCode = new Map<string, number>();

  const staged = parsed.map((p) => {
    if (!p.result.ok) {
      return {
        rowNo: p.rowNo,
        values: p.values,
        status: 'error' as const,
        data: null,
        messages: p.result.messages,
      };
    }
    const input: TStagedClient = { ...p.result.input };
    const messages: TRowMessage[] = [];
    if (p.result.generateCode) {
      input.code = nextCode();
      input.generatedCode = true;
    } else {
      const lower = input.code.toLowerCase();
      const owner = taken.get(lower);
      const earlier = firstWithCode.get(lower);
      if (owner) {
        messages.push({
          field: 'code',
          message: named
            ? `The code ${owner.code} is already used by ${owner.name}`
            : `The code ${owner.code} is already used`,
        });
      } else if (earlier) {
        messages.push({ field: 'code', message: `The code ${input.code} is also on row ${earlier}` });
      } else firstWithCode.set(lower, p.rowNo);
    }
    if (messages.length) {
      return { rowNo: p.rowNo, values: p.values, status: 'error' as const, data: null, messages };
    }
    const duplicates: TRowMessage[] = [];
    for (const { key, label } of duplicateKeys(input)) {
      const match = existing.get(key);
      const earlier = firstWithKey.get(key);
      if (match) {
        duplicates.push(
          duplicateMessage(label, named ? `the client ${match.name} (${match.code})` : 'an existing client'),
        );
      } else if (earlier) duplicates.push(duplicateMessage(label, `row ${earlier}`));
    }
    if (duplicates.length) {
      return {
        rowNo: p.rowNo,
        values: p.values,
        status: 'duplicate' as const,
        data: null,
        messages: duplicates,
      };
    }
    for (const { key } of duplicateKeys(input)) firstWithKey.set(key, p.rowNo);
    return { rowNo: p.rowNo, values: p.values, status: 'new' as const, data: input, messages: [] };
  });

  const counts = countStatuses(staged.map((s) => s.status));
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(clientImports)
      .values({
        orgId: scope.orgId,
        memberId: scope.memberId,
        createdAt: checkedAt,
        fileName,
        headers: { ignored: map.ignored, repeated: map.repeated },
        totalRows: staged.length,
      })
      .returning({ id: clientImports.id });
    if (!created) throw new Error('import not created');
    // One JSON parameter per 2,500 rows: far cheaper than thousands of bound parameters (on PGlite
    // above all), and one statement however wide the rows.
    for (let i = 0; i < staged.length; i += 2500) {
      const json = JSON.stringify(
        staged.slice(i, i + 2500).map((s) => ({
          row_no: s.rowNo,
          status: s.status,
          values: s.values,
          data: s.data,
          messages: s.messages,
        })),
      );
      await tx.execute(sql`
        insert into ${clientImportRows} (org_id, import_id, row_no, status, values, data, messages)
        select ${scope.orgId}::uuid, ${created.id}::uuid, row_no, status, values, data, messages
        from jsonb_to_recordset(${json}::jsonb)
          as x(row_no int, status text, values jsonb, data jsonb, messages jsonb)`);
    }
    await audit(tx, actorOf(scope, meta), {
      action: 'client.import.upload',
      recordType: 'clientImport',
      recordId: created.id,
      summary: `Uploaded ${fileName} to import ${plural(staged.length, 'row')}: ${counts.new} new, ${plural(counts.duplicate, 'duplicate')}, ${plural(counts.error, 'error')}`,
    });
    return { importId: created.id };
  });
}

function countStatuses(statuses: TImportRowStatus[]) {
  const counts: Record<TImportRowStatus, number> = { new: 0, duplicate: 0, error: 0, imported: 0 };
  for (const s of statuses) counts[s]++;
  return counts;
}

/** Where an import stands: the preview's counts, then the import's progress and its outcome. */
export async function importSummary(db: TExecutor, scope: TImportScope, importId: string) {
  const job = await ownImport(db, scope, importId);
  const byStatus = await db
    .select({ status: clientImportRows.status, n: count() })
    .from(clientImportRows)
    .where(and(eq(clientImportRows.orgId, scope.orgId), eq(clientImportRows.importId, importId)))
    .groupBy(clientImportRows.status);
  const counts: Record<TImportRowStatus, number> = { new: 0, duplicate: 0, error: 0, imported: 0 };
  for (const r of byStatus) counts[r.status] = r.n;
  const [progress] = await db
    .select({ done: count() })
    .from(clientImportRows)
    .where(
      and(
        eq(clientImportRows.orgId, scope.orgId),
        eq(clientImportRows.importId, importId),
        sql`${clientImportRows.rowNo} <= ${job.processedRows}`,
      ),
    );
  return {
    id: job.id,
    fileName: job.fileName,
    status: job.status,
    totalRows: job.totalRows,
    processedRows: progress?.done ?? 0,
    counts,
    ignoredColumns: job.headers.ignored,
    repeatedColumns: job.headers.repeated,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
  };
}
export type TImportSummary = Awaited<ReturnType<typeof importSummary>>;

export async function importRows(db: TExecutor, scope: TImportScope, raw: TImportRowsInput) {
  const input = ZImportRowsInput.parse(raw);
  await ownImport(db, scope, input.importId);
  const where = and(
    eq(clientImportRows.orgId, scope.orgId),
    eq(clientImportRows.importId, input.importId),
    input.status ? eq(clientImportRows.status, input.status) : undefined,
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        rowNo: clientImportRows.rowNo,
        status: clientImportRows.status,
        values: clientImportRows.values,
        code: sql<string | null>`${clientImportRows.data}->>'code'`,
        generatedCode: sql<boolean>`coalesce((${clientImportRows.data}->>'generatedCode')::boolean, false)`,
        messages: clientImportRows.messages,
        clientId: clientImportRows.clientId,
      })
      .from(clientImportRows)
      .where(where)
      .orderBy(asc(clientImportRows.rowNo))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(clientImportRows).where(where),
  ]);
  return { rows, total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}

type TOutcome = { rowNo: number; status: TImportRowStatus; clientId: string | null; messages: TRowMessage[] };

/**
 * One step of an import: the next batch of rows, in one transaction with one multi-row insert and
 * one log entry. The web calls it until the import is done; the cursor lives in the import's row,
 * locked for the step, so two tabs or two server instances never take the same batch, and a step
 * that fails leaves the earlier batches in and this one untouched for a retry.
 */
export async function runImportStep(db: TDb, scope: TImportScope, importId: string, meta: TRequestMeta) {
  await db.transaction(async (tx) => {
    const job = await ownImport(tx, scope, importId, true);
    if (job.status === 'done') return;
    // Imports into the same firm take turns, so two files cannot both add the same email.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`client-import:${scope.orgId}`}))`);
    const next = await tx
      .select({ rowNo: clientImportRows.rowNo, status: clientImportRows.status, data: clientImportRows.data })
      .from(clientImportRows)
      .where(
        and(
          eq(clientImportRows.orgId, scope.orgId),
          eq(clientImportRows.importId, importId),
          gt(clientImportRows.rowNo, job.processedRows),
        ),
      )
      .orderBy(asc(clientImportRows.rowNo))
      .limit(CLIENT_IMPORT_BATCH + 1);
    const batch = next.slice(0, CLIENT_IMPORT_BATCH);
    // Another instance's clock may be a little behind this one's: look back a minute more.
    const since = new Date(job.createdAt.getTime() - 60_000);
    const outcomes = await importBatch(tx, scope, batch, since);
    const last = batch.at(-1)?.rowNo ?? job.processedRows;
    const finished = next.length <= CLIENT_IMPORT_BATCH;
    const now = new Date();
    await tx
      .update(clientImports)
      .set({
        status: finished ? 'done' : 'importing',
        processedRows: last,
        startedAt: job.startedAt ?? now,
        finishedAt: finished ? now : null,
        updatedAt: now,
      })
      .where(and(eq(clientImports.orgId, scope.orgId), eq(clientImports.id, importId)));
    if (outcomes.length) {
      // Addressed by primary key (row_no = any): a join against the JSON would leave the plan to
      // statistics that a fresh import does not have yet.
      const at = sql`array_position(${pgArray(outcomes.map((o) => String(o.rowNo)))}::int[], r.row_no)`;
      await tx.execute(sql`
        update ${clientImportRows} r
        set status = (${pgArray(outcomes.map((o) => o.status))}::text[])[${at}],
          client_id = (${`{${outcomes.map((o) => o.clientId ?? 'NULL').join(',')}}`}::uuid[])[${at}],
          messages = (${JSON.stringify(outcomes.map((o) => o.messages))}::jsonb)->(${at} - 1)
        where r.import_id = ${importId} and r.org_id = ${scope.orgId}
          and r.row_no = any(${pgArray(outcomes.map((o) => String(o.rowNo)))}::int[])`);
    }
    const imported = outcomes.filter((o) => o.status === 'imported').length;
    if (imported || finished) {
      const first = batch[0]?.rowNo;
      const totals = finished ? await finalCounts(tx, scope.orgId, importId, outcomes) : null;
      await audit(tx, actorOf(scope, meta), {
        action: 'client.import',
        recordType: 'clientImport',
        recordId: importId,
        summary:
          `Imported ${plural(imported, 'client')} from ${job.fileName}` +
          (first ? ` (rows ${first}–${last})` : '') +
          (totals
            ? `; import finished: ${plural(totals.imported, 'client')} imported, ${plural(totals.duplicate, 'duplicate')} skipped, ${plural(totals.error, 'row')} with errors`
            : ''),
        changes: { imported: { from: null, to: imported } },
      });
    }
  });
  return importSummary(db, scope, importId);
}

/** The import's totals as they will stand once this step's outcomes are written. */
async function finalCounts(tx: TExecutor, orgId: string, importId: string, pending: TOutcome[]) {
  const pendingRows = new Set(pending.map((o) => o.rowNo));
  const rows = await tx
    .select({ rowNo: clientImportRows.rowNo, status: clientImportRows.status })
    .from(clientImportRows)
    .where(and(eq(clientImportRows.orgId, orgId), eq(clientImportRows.importId, importId)));
  return countStatuses([
    ...rows.filter((r) => !pendingRows.has(r.rowNo)).map((r) => r.status),
    ...pending.map((o) => o.status),
  ]);
}

/**
 * The new rows of a batch, checked again against the firm as it is now (someone may have added a
 * client or removed a group since the preview), then inserted in one statement.
 */
async function importBatch(
  tx: TExecutor,
  scope: TImportScope,
  batch: { rowNo: number; status: TImportRowStatus; data: Record<string, unknown> | null }[],
  since: Date,
): Promise<TOutcome[]> {
  const candidates = batch
    .filter((r) => r.status === 'new' && r.data)
    .map((r) => ({ rowNo: r.rowNo, input: r.data as unknown as TStagedClient }));
  if (!candidates.length) return [];
  const named = seesAll(scope);
  const groupIds = [...new Set(candidates.flatMap((c) => (c.input.groupId ? [c.input.groupId] : [])))];
  // One after another: a transaction is one connection, which runs one query at a time.
  const existing = await existingByKeys(
    tx,
    scope.orgId,
    candidates.flatMap((c) => duplicateKeys(c.input).map((k) => k.key)),
    since,
  );
  const taken = await takenCodes(
    tx,
    scope.orgId,
    candidates.map((c) => c.input.code.toLowerCase()),
    since,
  );
  const liveGroups = await (groupIds.length
    ? tx
        .select({ id: clientGroups.id })
        .from(clientGroups)
        .where(
          and(
            eq(clientGroups.orgId, scope.orgId),
            sql`${clientGroups.id} = any(${pgArray(groupIds)}::uuid[])`,
          ),
        )
    : Promise.resolve([]));
  const groupsLeft = new Set(liveGroups.map((g) => g.id));
  const outcomes: TOutcome[] = [];
  const toInsert: typeof candidates = [];
  for (const c of candidates) {
    const owner = taken.get(c.input.code.toLowerCase());
    if (owner) {
      outcomes.push({
        rowNo: c.rowNo,
        status: 'error',
        clientId: null,
        messages: [
          {
            field: 'code',
            message: `The code ${owner.code} was taken${named ? ` by ${owner.name}` : ''} after the preview: import this row again`,
          },
        ],
      });
      continue;
    }
    if (c.input.groupId && !groupsLeft.has(c.input.groupId)) {
      outcomes.push({
        rowNo: c.rowNo,
        status: 'error',
        clientId: null,
        messages: [{ field: 'group', message: 'The group was deleted after the preview' }],
      });
      continue;
    }
    const dup = duplicateKeys(c.input).find((k) => existing.has(k.key));
    if (dup) {
      const match = existing.get(dup.key);
      outcomes.push({
        rowNo: c.rowNo,
        status: 'duplicate',
        clientId: null,
        messages: [
          duplicateMessage(
            dup.label,
            named && match ? `the client ${match.name} (${match.code})` : 'an existing client',
          ),
        ],
      });
      continue;
    }
    toInsert.push(c);
  }
  if (toInsert.length) {
    const json = JSON.stringify(
      toInsert.map(({ input }) => ({
        id: uuidv7(),
        code: input.code,
        name: input.name,
        type: input.type,
        group_id: input.groupId,
        email: input.email,
        phone: input.phone,
        address_line1: input.addressLine1,
        address_line2: input.addressLine2,
        city: input.city,
        region: input.region,
        postal_code: input.postalCode,
        country: input.country,
        lat: input.location?.lat ?? null,
        lng: input.location?.lng ?? null,
        tax_ids: input.taxIds,
        tags: input.tags,
        status: input.status,
        notes: input.notes,
      })),
    );
    // One statement for the batch, its rows in one JSON parameter. A code taken since the check
    // above (a client added this instant) costs that row, not the batch.
    const inserted = rowsOf<{ id: string; code: string }>(
      await tx.execute(sql`
        insert into ${clients} (id, org_id, code, name, type, group_id, email, phone, address_line1,
          address_line2, city, region, postal_code, country, lat, lng, tax_ids, tags, status, notes)
        select id, ${scope.orgId}::uuid, code, name, type, group_id, email, phone, address_line1,
          address_line2, city, region, postal_code, country, lat, lng, tax_ids, tags, status, notes
        from jsonb_to_recordset(${json}::jsonb) as x(id uuid, code text, name text, type text,
          group_id uuid, email text, phone text, address_line1 text, address_line2 text, city text,
          region text, postal_code text, country text, lat double precision, lng double precision,
          tax_ids jsonb, tags text[], status text, notes text)
        on conflict do nothing
        returning id, code`),
    );
    const idByCode = new Map(inserted.map((r) => [r.code, r.id]));
    for (const c of toInsert) {
      const id = idByCode.get(c.input.code);
      outcomes.push(
        id
          ? { rowNo: c.rowNo, status: 'imported', clientId: id, messages: [] }
          : {
              rowNo: c.rowNo,
              status: 'error',
              clientId: null,
              messages: [
                {
                  field: 'code',
                  message: `The code ${c.input.code} was taken while importing: import this row again`,
                },
              ],
            },
      );
    }
    // A member limited to assigned clients keeps sight of the clients they import, as with create.
    if (!seesAll(scope) && inserted.length) {
      await tx.execute(sql`
        insert into ${clientTeam} (org_id, client_id, member_id)
        select ${scope.orgId}::uuid, id, ${scope.memberId}::uuid from unnest(${pgArray(inserted.map((r) => r.id))}::uuid[]) as t(id)
        on conflict do nothing`);
    }
  }
  return outcomes;
}

/** The member's latest import that stopped part-way (a closed tab), so the dialog can offer to continue it. */
export async function unfinishedImport(db: TExecutor, scope: TImportScope) {
  const [row] = await db
    .select({ id: clientImports.id, fileName: clientImports.fileName, createdAt: clientImports.createdAt })
    .from(clientImports)
    .where(
      and(
        eq(clientImports.orgId, scope.orgId),
        eq(clientImports.memberId, scope.memberId),
        eq(clientImports.status, 'importing'),
      ),
    )
    .orderBy(sql`${clientImports.createdAt} desc`)
    .limit(1);
  return row ?? null;
}

/** Throws away a preview nobody wants; an import that has begun is kept for its report. */
export async function discardImport(db: TDb, scope: TImportScope, importId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const job = await ownImport(tx, scope, importId, true);
    if (job.status !== 'preview') throw bad('This import has already begun: its report stays');
    await tx
      .delete(clientImports)
      .where(and(eq(clientImports.orgId, scope.orgId), eq(clientImports.id, importId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'client.import.discard',
      recordType: 'clientImport',
      recordId: importId,
      summary: `Discarded the import of ${job.fileName} without importing it`,
    });
    return { importId };
  });
}

/** The rows that did not go in, a batch at a time, for the errors file. */
export async function* unimportedRows(db: TExecutor, scope: TImportScope, importId: string) {
  await ownImport(db, scope, importId);
  for (let after = 0; ; ) {
    const rows = await db
      .select({
        rowNo: clientImportRows.rowNo,
        status: clientImportRows.status,
        values: clientImportRows.values,
        messages: clientImportRows.messages,
      })
      .from(clientImportRows)
      .where(
        and(
          eq(clientImportRows.orgId, scope.orgId),
          eq(clientImportRows.importId, importId),
          gt(clientImportRows.rowNo, after),
          sql`${clientImportRows.status} in ('error', 'duplicate')`,
        ),
      )
      .orderBy(asc(clientImportRows.rowNo))
      .limit(1000);
    if (rows.length) yield rows;
    if (rows.length < 1000) return;
    after = rows.at(-1)?.rowNo ?? after;
  }
}

export const messagesText = (messages: TRowMessage[]) =>
  messages.map((m) => `${FIELD_HEADERS[m.field] ?? m.field}: ${m.message}`).join('; ');
