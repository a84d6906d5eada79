import { TRPCError } from '@trpc/server';
import { and, asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { MAX_SAVED_VIEWS, type TReportViewKind, type ZReportViewSave } from '../../../domain/reports';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { reportViews } from '../../db/schema';
import { audit } from '../system-log';

// Saved views belong to the member who saved them: nobody else lists, changes or removes them.

export function listViews(db: TExecutor, scope: TScope, report: TReportViewKind) {
  return db
    .select({ id: reportViews.id, name: reportViews.name, search: reportViews.search })
    .from(reportViews)
    .where(
      and(
        eq(reportViews.orgId, scope.orgId),
        eq(reportViews.memberId, scope.memberId),
        eq(reportViews.report, report),
      ),
    )
    .orderBy(asc(reportViews.name));
}

/** Saves the view under its name; the same name again replaces that view's filters. */
export async function saveView(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZReportViewSave>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const mine = and(eq(reportViews.orgId, scope.orgId), eq(reportViews.memberId, scope.memberId));
    const [n] = await tx.select({ n: count() }).from(reportViews).where(mine);
    if ((n?.n ?? 0) >= MAX_SAVED_VIEWS) {
      const [same] = await tx
        .select({ id: reportViews.id })
        .from(reportViews)
        .where(and(mine, eq(reportViews.report, input.report), eq(reportViews.name, input.name)));
      if (!same)
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: `You can keep at most ${MAX_SAVED_VIEWS} saved views`,
        });
    }
    const [row] = await tx
      .insert(reportViews)
      .values({
        orgId: scope.orgId,
        memberId: scope.memberId,
        report: input.report,
        name: input.name,
        search: input.search,
      })
      .onConflictDoUpdate({
        target: [reportViews.orgId, reportViews.memberId, reportViews.report, reportViews.name],
        set: { search: input.search, updatedAt: new Date() },
      })
      .returning({ id: reportViews.id });
    if (!row) throw new Error('view not saved');
    await audit(tx, actorOf(scope, meta), {
      action: 'report.view.save',
      recordType: 'report_view',
      recordId: row.id,
      summary: `Saved the ${input.report} report view “${input.name}”`,
      changes: { search: { from: null, to: input.search } },
    });
    return { id: row.id };
  });
}

export async function deleteView(db: TDb, scope: TScope, viewId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(reportViews)
      .where(
        and(
          eq(reportViews.orgId, scope.orgId),
          eq(reportViews.memberId, scope.memberId),
          eq(reportViews.id, viewId),
        ),
      )
      .returning({ id: reportViews.id, name: reportViews.name, report: reportViews.report });
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Saved view not found' });
    await audit(tx, actorOf(scope, meta), {
      action: 'report.view.delete',
      recordType: 'report_view',
      recordId: row.id,
      summary: `Removed the ${row.report} report view “${row.name}”`,
    });
    return { id: row.id };
  });
}
