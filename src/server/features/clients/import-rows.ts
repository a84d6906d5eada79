import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import {
  FIELD_HEADERS,
  type TImportRowStatus,
  type TImportRowsInput,
  type TRowMessage,
  ZImportRowsInput,
} from '../../../domain/client-import';
import type { TExecutor } from '../../db/client';
import { clientImportRows, clientImports } from '../../db/schema';
import { ownImport, type TImportScope } from './import-access';

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
  return {
    id: job.id,
    fileName: job.fileName,
    status: job.status,
    totalRows: job.totalRows,
    processedRows: job.processedRows,
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
