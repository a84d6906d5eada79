import { TRPCError } from '@trpc/server';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { hasPermission, type TPermission } from '../../../domain/permissions';
import {
  MAX_TASK_ATTACHMENTS,
  TASK_ATTACHMENTS_FOLDER,
  type TTaskAttachmentCandidates,
  type TTaskAttachmentRef,
} from '../../../domain/tasks';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  clientUsers,
  documentFolders,
  documents,
  members,
  taskAttachments,
  type tasks,
} from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { checkTree, clientTreeReach, liveDocument, openTree, portalState, topFolder } from '../documents';
import { audit } from '../system-log';
import { visibleTask } from './access';

type TTaskRow = typeof tasks.$inferSelect;

function need(scope: TScope, permission: TPermission) {
  if (!hasPermission(scope, permission)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have permission to do this' });
  }
}

const treeOf = (task: TTaskRow) => task.clientId;

/**
 * DECISION (issue 16): being put on a task is a grant for that task. A member limited to assigned
 * clients who is assigned to (or reviews) a task of a client they are not on the team of sees the
 * task (taskVisibility), and may do the task's own work: list its attachments, upload an attachment
 * to it (into that client's "Attachments" folder, linked to the task) and attach a file. What the
 * grant opens of the client's documents is restricted to the task: the attachments folder for the
 * upload, and as candidates only the files of that client the member uploaded themselves (a file
 * they detached earlier, say) — never the rest of the client's documents, which stay NOT_FOUND in
 * the documents feature. Everyone else acts with their own scope, unchanged.
 *
 * Answers the scope to act on the task's documents with and whether it is the grant alone.
 */
async function taskDocumentScope(db: TExecutor, scope: TScope, task: TTaskRow) {
  if (!scope.assignedClientsOnly || task.clientId === null) return { scope, grantOnly: false };
  const onTeam = await checkTree(db, scope, task.clientId).then(
    () => true,
    () => false,
  );
  if (onTeam) return { scope, grantOnly: false };
  // visibleTask let the caller see the task, so the task is the grant: its tree opens for it.
  return { scope: { ...scope, assignedClientsOnly: false }, grantOnly: true };
}

/**
 * A task's attachments whose file is live, newest first, with who attached it and, for a client's
 * to-do, what the client sees of each (the portal's rule; null for any other task).
 */
export async function listAttachments(db: TExecutor, scope: TScope, taskId: string) {
  const task = await visibleTask(db, scope, taskId);
  const rows = await db
    .select({
      visibleToPortal: documents.visibleToPortal,
      documentId: documents.id,
      name: documents.name,
      size: documents.size,
      contentType: documents.contentType,
      version: documents.currentVersion,
      folderId: documents.folderId,
      folderName: documentFolders.name,
      attachedAt: taskAttachments.createdAt,
      // A client user attaches from the portal: their name, marked as the client's.
      attachedBy: sql<string | null>`coalesce(${memberName}, ${clientUsers.name} || ' (client)')`,
    })
    .from(taskAttachments)
    .innerJoin(
      documents,
      and(eq(documents.orgId, taskAttachments.orgId), eq(documents.id, taskAttachments.documentId)),
    )
    .innerJoin(
      documentFolders,
      and(eq(documentFolders.orgId, documents.orgId), eq(documentFolders.id, documents.folderId)),
    )
    .leftJoin(
      members,
      and(eq(members.orgId, taskAttachments.orgId), eq(members.id, taskAttachments.attachedByMemberId)),
    )
    .leftJoin(
      clientUsers,
      and(
        eq(clientUsers.orgId, taskAttachments.orgId),
        eq(clientUsers.id, taskAttachments.attachedByClientUserId),
      ),
    )
    .where(
      and(
        eq(taskAttachments.orgId, scope.orgId),
        eq(taskAttachments.taskId, task.id),
        // A file in the trash drops out of the list and comes back if it is restored.
        isNull(documents.deletedAt),
        isNull(documentFolders.deletedAt),
      ),
    )
    .orderBy(desc(taskAttachments.createdAt), documents.name)
    .limit(MAX_TASK_ATTACHMENTS);
  const reachOf =
    task.forClient && task.clientId && rows.length
      ? await clientTreeReach(db, scope.orgId, task.clientId)
      : null;
  return rows.map(({ visibleToPortal, ...row }) => {
    const reach = reachOf?.(row.folderId);
    return { ...row, portal: reach ? portalState(visibleToPortal, reach) : null };
  });
}
export type TTaskAttachment = Awaited<ReturnType<typeof listAttachments>>[number];

/**
 * Where a task's uploads land: an "Attachments" folder at the top of the client's documents (the
 * firm vault's for an internal task), made the first time it is needed. Two first uploads at once
 * meet the sibling-name unique index; the loser reads the winner's folder.
 */
export async function attachmentsFolder(db: TDb, scope: TScope, task: TTaskRow, meta: TRequestMeta) {
  const root = await openTree(db, scope, treeOf(task));
  return topFolder(
    db,
    root,
    { name: TASK_ATTACHMENTS_FOLDER, createdByMemberId: scope.memberId },
    { actor: actorOf(scope, meta), why: 'for task attachments' },
  );
}

async function link(
  tx: TExecutor,
  scope: TScope,
  task: TTaskRow,
  doc: { id: string; name: string },
  meta: TRequestMeta,
): Promise<boolean> {
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(taskAttachments)
    .where(and(eq(taskAttachments.orgId, scope.orgId), eq(taskAttachments.taskId, task.id)));
  const [row] = await tx
    .insert(taskAttachments)
    .values({ orgId: scope.orgId, taskId: task.id, documentId: doc.id, attachedByMemberId: scope.memberId })
    .onConflictDoNothing()
    .returning({ documentId: taskAttachments.documentId });
  // Already attached (a new version of an attached file, or a second click): nothing to record.
  if (!row) return false;
  if (n >= MAX_TASK_ATTACHMENTS) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `A task can have at most ${MAX_TASK_ATTACHMENTS} attachments`,
    });
  }
  await audit(tx, actorOf(scope, meta), {
    action: 'task.attachment.add',
    recordType: 'task',
    recordId: task.id,
    summary: `Attached “${doc.name}” to “${task.title}”`,
    changes: { documentId: { from: null, to: doc.id } },
  });
  return true;
}

/**
 * For the upload route: checks the caller may attach to the task, finds its attachments folder, and
 * gives the hook that links the recorded document inside the upload's own transaction (a file is
 * never stored for a task without being attached to it).
 */
export async function uploadTargetForTask(db: TDb, scope: TScope, taskId: string, meta: TRequestMeta) {
  need(scope, 'tasks.edit');
  const task = await visibleTask(db, scope, taskId);
  const granted = await taskDocumentScope(db, scope, task);
  const folderId = await attachmentsFolder(db, granted.scope, task, meta);
  return {
    folderId,
    // The upload into the attachments folder acts under the task's grant (see taskDocumentScope).
    scope: granted.scope,
    afterRecord: async (tx: TExecutor, doc: { id: string; name: string }) => {
      // Locks the task so a delete running at the same time waits for (or cascades over) the link.
      const locked = await visibleTask(tx, scope, taskId, true);
      await link(tx, scope, locked, doc, meta);
    },
  };
}

/** Attaches a file that already is in the task's client's documents (or the vault's). */
export async function attachDocument(db: TDb, scope: TScope, input: TTaskAttachmentRef, meta: TRequestMeta) {
  need(scope, 'documents.view');
  return db.transaction(async (tx) => {
    const task = await visibleTask(tx, scope, input.taskId, true);
    const granted = await taskDocumentScope(tx, scope, task);
    const { doc } = await liveDocument(tx, granted.scope, input.documentId);
    // Under the grant alone, only the member's own uploads of that client (the candidates).
    if (granted.grantOnly && (doc.clientId !== task.clientId || doc.uploadedByMemberId !== scope.memberId)) {
      throw new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });
    }
    if (doc.clientId !== task.clientId) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: task.clientId
          ? "Attach a file from this task's client's documents"
          : 'Attach a file from the firm vault',
      });
    }
    const attached = await link(tx, scope, task, doc, meta);
    return { documentId: doc.id, attached };
  });
}

/** Removes the link only: the file stays in its folder. */
export async function detachDocument(db: TDb, scope: TScope, input: TTaskAttachmentRef, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const task = await visibleTask(tx, scope, input.taskId, true);
    const [gone] = await tx
      .delete(taskAttachments)
      .where(
        and(
          eq(taskAttachments.orgId, scope.orgId),
          eq(taskAttachments.taskId, task.id),
          eq(taskAttachments.documentId, input.documentId),
        ),
      )
      .returning({ documentId: taskAttachments.documentId });
    if (!gone) throw new TRPCError({ code: 'NOT_FOUND', message: 'This file is not attached to the task' });
    const [doc] = await tx
      .select({ name: documents.name })
      .from(documents)
      .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, input.documentId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'task.attachment.remove',
      recordType: 'task',
      recordId: task.id,
      summary: `Removed the attachment “${doc?.name ?? 'a file'}” from “${task.title}” (the file stays in its folder)`,
      changes: { documentId: { from: input.documentId, to: null } },
    });
    return { documentId: input.documentId };
  });
}

/** Files the task could have attached: its tree's live files not attached yet, by name or latest. */
export async function attachmentCandidates(db: TExecutor, scope: TScope, input: TTaskAttachmentCandidates) {
  need(scope, 'documents.view');
  const task = await visibleTask(db, scope, input.taskId);
  const granted = await taskDocumentScope(db, scope, task);
  await checkTree(db, granted.scope, treeOf(task));
  return db
    .select({
      documentId: documents.id,
      name: documents.name,
      size: documents.size,
      folderName: documentFolders.name,
      updatedAt: documents.updatedAt,
    })
    .from(documents)
    .innerJoin(
      documentFolders,
      and(eq(documentFolders.orgId, documents.orgId), eq(documentFolders.id, documents.folderId)),
    )
    .where(
      and(
        eq(documents.orgId, scope.orgId),
        task.clientId === null ? isNull(documents.clientId) : eq(documents.clientId, task.clientId),
        isNull(documents.deletedAt),
        isNull(documentFolders.deletedAt),
        granted.grantOnly ? eq(documents.uploadedByMemberId, scope.memberId) : undefined,
        input.search
          ? sql`lower(${documents.name}) like ${escapeLike(input.search.toLowerCase())}`
          : undefined,
        sql`not exists (select 1 from ${taskAttachments} ta where ta.org_id = ${scope.orgId}
              and ta.task_id = ${task.id} and ta.document_id = ${documents.id})`,
      ),
    )
    .orderBy(input.search ? documents.name : desc(documents.updatedAt), documents.id)
    .limit(20);
}
