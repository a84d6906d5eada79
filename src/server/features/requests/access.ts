import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import { isPreviewable } from '../../../domain/documents';
import { progressOf, type TRuleItem } from '../../../domain/requests/rules';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { orgs, requestItemFiles, requestItems, requests } from '../../db/schema';
import { qualified } from '../../db/sql';
import { visibleClient } from '../clients';

export type TRequestRow = typeof requests.$inferSelect;
export type TItemRow = typeof requestItems.$inferSelect;

export const requestNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Request not found' });
export const itemNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Item not found' });

type TVisibility = Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>;

/**
 * The request, if the caller may see it: another firm's, a missing one and one of a client hidden
 * from an assigned-only member all answer the same NOT_FOUND. `lock` takes its row for the change.
 */
export async function visibleRequest(db: TExecutor, scope: TVisibility, requestId: string, lock = false) {
  const query = db
    .select()
    .from(requests)
    .where(and(eq(requests.orgId, scope.orgId), eq(requests.id, requestId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw requestNotFound();
  if (scope.assignedClientsOnly) {
    await visibleClient(db, scope, row.clientId).catch(() => {
      throw requestNotFound();
    });
  }
  return row;
}

/** Requests' items in order, each with its files' count (what the rules read), by request. */
export async function itemsOfMany(db: TExecutor, orgId: string, requestIds: string[]) {
  const byRequest = new Map<string, (TItemRow & { fileCount: number })[]>();
  if (!requestIds.length) return byRequest;
  const [items, files] = await Promise.all([
    db
      .select()
      .from(requestItems)
      .where(and(eq(requestItems.orgId, orgId), inArray(requestItems.requestId, requestIds)))
      .orderBy(asc(requestItems.requestId), asc(requestItems.position)),
    db
      .select({ itemId: requestItemFiles.itemId, n: count() })
      .from(requestItemFiles)
      .innerJoin(
        requestItems,
        and(eq(requestItems.orgId, requestItemFiles.orgId), eq(requestItems.id, requestItemFiles.itemId)),
      )
      .where(and(eq(requestItemFiles.orgId, orgId), inArray(requestItems.requestId, requestIds)))
      .groupBy(requestItemFiles.itemId),
  ]);
  const countOf = new Map(files.map((f) => [f.itemId, f.n]));
  for (const item of items) {
    const list = byRequest.get(item.requestId) ?? [];
    list.push({ ...item, fileCount: countOf.get(item.id) ?? 0 });
    byRequest.set(item.requestId, list);
  }
  return byRequest;
}

/** One request's items in order, with their files' counts. */
export async function itemsOf(db: TExecutor, orgId: string, requestId: string) {
  return (await itemsOfMany(db, orgId, [requestId])).get(requestId) ?? [];
}
export type TItemWithFiles = Awaited<ReturnType<typeof itemsOf>>[number];

/** An item as the domain's rules read it. */
export const ruleItem = (item: TItemWithFiles): TRuleItem & { id: string } => ({
  id: item.id,
  key: item.key,
  kind: item.kind,
  required: item.required,
  condition: item.condition,
  value: item.value,
  fileCount: item.fileCount,
  notApplicable: item.notApplicableReason !== null,
  review: item.review,
});

export type TItemFile = {
  id: string;
  name: string;
  size: number;
  contentType: string;
  /** The client's document it was filed as on acceptance; null while it is held with the item. */
  documentId: string | null;
  createdAt: Date;
};

/** The files of some items (held or filed), by item, for the detail screens. */
export async function filesOf(db: TExecutor, orgId: string, itemIds: string[]) {
  const byItem = new Map<string, TItemFile[]>();
  if (!itemIds.length) return byItem;
  const rows = await db
    .select({
      itemId: requestItemFiles.itemId,
      id: requestItemFiles.id,
      name: requestItemFiles.name,
      size: requestItemFiles.size,
      contentType: requestItemFiles.contentType,
      documentId: requestItemFiles.documentId,
      createdAt: requestItemFiles.createdAt,
    })
    .from(requestItemFiles)
    .where(and(eq(requestItemFiles.orgId, orgId), inArray(requestItemFiles.itemId, itemIds)))
    .orderBy(asc(requestItemFiles.createdAt), asc(requestItemFiles.name));
  for (const { itemId, ...file } of rows) byItem.set(itemId, [...(byItem.get(itemId) ?? []), file]);
  return byItem;
}

/**
 * Each request's "7 of 12", for a page of a list: only the columns the rules read (a list of 50
 * requests has some 500 items; their hints, texts and review notes are not needed to count them).
 */
export async function progressByRequest(db: TExecutor, orgId: string, requestIds: string[]) {
  if (!requestIds.length) return new Map<string, { done: number; total: number }>();
  // One statement: each item's files counted beside it (an index scan per item of the page).
  const items = await db
    .select({
      requestId: requestItems.requestId,
      key: requestItems.key,
      kind: requestItems.kind,
      required: requestItems.required,
      condition: requestItems.condition,
      value: requestItems.value,
      notApplicable: sql<boolean>`${requestItems.notApplicableReason} is not null`,
      review: requestItems.review,
      fileCount: sql<number>`(select count(*)::int from ${requestItemFiles} f
        where f.org_id = ${qualified(requestItems.orgId)} and f.item_id = ${qualified(requestItems.id)})`,
    })
    .from(requestItems)
    .where(and(eq(requestItems.orgId, orgId), inArray(requestItems.requestId, requestIds)))
    .orderBy(asc(requestItems.requestId), asc(requestItems.position));
  const byRequest = new Map<string, TRuleItem[]>();
  for (const { requestId, ...item } of items) {
    const list = byRequest.get(requestId) ?? [];
    list.push(item);
    byRequest.set(requestId, list);
  }
  return new Map(requestIds.map((id) => [id, progressOf(byRequest.get(id) ?? [])]));
}

/** The firm's today, which decides what is overdue. */
export async function firmToday(db: TExecutor, orgId: string): Promise<string> {
  const [org] = await db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, orgId));
  return todayIn(org?.timeZone ?? 'UTC');
}

export const fileNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });

/**
 * A file a client sent to a request the caller may see (another firm's, or one of a client hidden
 * from an assigned-only member, is NOT_FOUND), for the review page's download and preview.
 */
export async function visibleItemFile(
  db: TExecutor,
  scope: TVisibility,
  fileId: string,
  purpose: 'download' | 'preview',
) {
  const [row] = await db
    .select({ file: requestItemFiles, requestId: requestItems.requestId })
    .from(requestItemFiles)
    .innerJoin(
      requestItems,
      and(eq(requestItems.orgId, requestItemFiles.orgId), eq(requestItems.id, requestItemFiles.itemId)),
    )
    .where(and(eq(requestItemFiles.orgId, scope.orgId), eq(requestItemFiles.id, fileId)));
  if (!row) throw fileNotFound();
  const request = await visibleRequest(db, scope, row.requestId).catch(() => {
    throw fileNotFound();
  });
  if (purpose === 'preview' && !isPreviewable(row.file.contentType)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only PDFs and images can be previewed' });
  }
  return { file: row.file, request };
}
