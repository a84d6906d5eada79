import { and, eq, sql } from 'drizzle-orm';
import {
  CLIENT_IMPORT_MAX_ROWS,
  duplicateKeys,
  isBlankRow,
  mapHeaders,
  missingRequiredColumns,
  parseRow,
  rowValues,
  type TRowMessage,
} from '../../../domain/client-import';
import { actorOf, type TRequestMeta } from '../../auth';
import type { TDb } from '../../db/client';
import { clientGroups, clientImportRows, clientImports } from '../../db/schema';
import { audit } from '../system-log';
import { bad, countStatuses, ownImport, plural, seesAll, type TImportScope } from './import-access';
import {
  codeGenerator,
  duplicateMessage,
  existingByKeys,
  type TStagedClient,
  takenCodes,
} from './import-check';

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
    const input: TStagedClient = { ...p.result.input, registrations: p.result.registrations };
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
