import { TRPCError } from '@trpc/server';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { DISBURSEMENT_KIND_LABELS } from '../../../../domain/billing/constants';
import type { TDisbursementCreate, TDisbursementUpdate } from '../../../../domain/billing/wip';
import { actorOf, requirePermission, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { disbursements, documentFolders, projects } from '../../../db/schema';
import { visibleClient } from '../../clients';
import { createFolder, liveDocument, openTree } from '../../documents';
import { audit, diff } from '../../system-log';
import { billingContext } from '../context';

// Disbursements: what the firm paid on a client's behalf (government fees, courier), billed at cost
// with its receipt. Changed or removed only while unbilled: once on an invoice it is the invoice's.

/** Where receipts go: a "Receipts" folder in the client's documents, made the first time. */
export const RECEIPTS_FOLDER = 'Receipts';

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Disbursement not found' });

/** A project, when one is named, must be one of this client's. */
async function checkProject(tx: TExecutor, orgId: string, clientId: string, projectId: string | null) {
  if (!projectId) return;
  const [row] = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.orgId, orgId), eq(projects.id, projectId), eq(projects.clientId, clientId)));
  if (!row) throw new TRPCError({ code: 'BAD_REQUEST', message: "Choose one of the client's projects" });
}

/** A receipt must be a live file of this client's documents that the caller may open. */
async function checkReceipt(tx: TExecutor, scope: TScope, clientId: string, documentId: string | null) {
  if (!documentId) return;
  const found = await liveDocument(tx, scope, documentId).catch(() => null);
  if (!found || found.doc.clientId !== clientId) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: "The receipt must be one of the client's documents",
    });
  }
}

async function disbursementForUpdate(tx: TExecutor, scope: TScope, disbursementId: string) {
  const [row] = await tx
    .select()
    .from(disbursements)
    .where(and(eq(disbursements.orgId, scope.orgId), eq(disbursements.id, disbursementId)))
    .for('update');
  if (!row) throw notFound();
  const client = await visibleClient(tx, scope, row.clientId).catch(() => {
    throw notFound();
  });
  if (row.invoiceLineId) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'This disbursement is on an invoice: remove it from the draft, or void the invoice, first',
    });
  }
  return { row, client };
}

export async function createDisbursement(
  db: TDb,
  scope: TScope,
  input: TDisbursementCreate,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId);
    await checkProject(tx, scope.orgId, client.id, input.projectId);
    await checkReceipt(tx, scope, client.id, input.receiptDocumentId);
    const [row] = await tx
      .insert(disbursements)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        projectId: input.projectId,
        kind: input.kind,
        spentOn: input.spentOn,
        description: input.description,
        amount: input.amount,
        receiptDocumentId: input.receiptDocumentId,
        createdBy: scope.memberId,
      })
      .returning({ id: disbursements.id });
    if (!row) throw new Error('disbursement not created');
    const { format } = await billingContext(tx, scope.orgId);
    await audit(tx, actorOf(scope, meta), {
      action: 'disbursement.create',
      recordType: 'disbursement',
      recordId: row.id,
      summary: `Recorded ${DISBURSEMENT_KIND_LABELS[input.kind].toLowerCase()} of ${format.moneyMinor(input.amount)} paid for ${client.name} on ${format.date(input.spentOn)}`,
    });
    return { id: row.id };
  });
}

export async function updateDisbursement(
  db: TDb,
  scope: TScope,
  input: TDisbursementUpdate,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { row, client } = await disbursementForUpdate(tx, scope, input.disbursementId);
    await checkProject(tx, scope.orgId, client.id, input.projectId);
    if (input.receiptDocumentId !== row.receiptDocumentId)
      await checkReceipt(tx, scope, client.id, input.receiptDocumentId);
    const after = {
      spentOn: input.spentOn,
      kind: input.kind,
      description: input.description,
      amount: input.amount,
      projectId: input.projectId,
      receiptDocumentId: input.receiptDocumentId,
    };
    const changes = diff(row as unknown as Record<string, unknown>, after);
    if (!changes) return { id: row.id };
    await tx
      .update(disbursements)
      .set({ ...after, updatedAt: new Date() })
      .where(and(eq(disbursements.orgId, scope.orgId), eq(disbursements.id, row.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'disbursement.update',
      recordType: 'disbursement',
      recordId: row.id,
      summary: `Updated the disbursement “${input.description}” for ${client.name}`,
      changes,
    });
    return { id: row.id };
  });
}

export async function deleteDisbursement(db: TDb, scope: TScope, disbursementId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { row, client } = await disbursementForUpdate(tx, scope, disbursementId);
    await tx
      .delete(disbursements)
      .where(and(eq(disbursements.orgId, scope.orgId), eq(disbursements.id, row.id)));
    const { format } = await billingContext(tx, scope.orgId);
    await audit(tx, actorOf(scope, meta), {
      action: 'disbursement.delete',
      recordType: 'disbursement',
      recordId: row.id,
      summary: `Deleted the disbursement “${row.description}” of ${format.moneyMinor(row.amount)} for ${client.name}`,
      changes: { amount: { from: row.amount, to: null } },
    });
    return { id: row.id };
  });
}

/**
 * The client's Receipts folder, made (with the client's documents, if need be) the first time: the
 * receipt is uploaded there through the documents' own upload route, so it is a document like any
 * other (versions, trash, the portal's rules).
 */
export async function receiptFolder(db: TDb, scope: TScope, clientId: string, meta: TRequestMeta) {
  requirePermission(scope, 'documents.create');
  const root = await openTree(db, scope, clientId);
  const find = async (tx: TExecutor) => {
    const [folder] = await tx
      .select({ id: documentFolders.id })
      .from(documentFolders)
      .where(
        and(
          eq(documentFolders.orgId, scope.orgId),
          eq(documentFolders.parentId, root.id),
          isNull(documentFolders.deletedAt),
          sql`lower(${documentFolders.name}) = lower(${RECEIPTS_FOLDER})`,
        ),
      )
      .limit(1);
    return folder ?? null;
  };
  const existing = await find(db);
  if (existing) return { folderId: existing.id };
  try {
    const made = await createFolder(db, scope, { parentId: root.id, name: RECEIPTS_FOLDER }, meta);
    return { folderId: made.id };
  } catch (error) {
    // Made by someone else at the same moment: theirs will do.
    const other = await find(db);
    if (other) return { folderId: other.id };
    throw error;
  }
}
