import { TRPCError } from '@trpc/server';
import { and, eq, isNull, lt } from 'drizzle-orm';
import { isPreviewable } from '../../../domain/documents';
import { formatBytes } from '../../../domain/format';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { leaveAttachments, leaveRequests, memberWork } from '../../db/schema';
import type { TStoredUpload } from '../documents';
import { audit } from '../system-log';
import { mayView } from './access';

// A leave request's file (a medical certificate). It is uploaded first, on its own, and named by
// the request when it is submitted, so the apply form can say before submitting that the file is
// there. Only the member and whoever decides their leave read it; anyone else is told it does not
// exist, as for another firm's. Cancelling a request keeps the file with it: the request stays on
// record, decided or not, and so does what it was asked with.

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Attachment not found' });

/** An upload becomes the member's attachment, waiting for the request that will name it. */
export async function recordLeaveAttachment(
  db: TDb,
  scope: TScope,
  upload: TStoredUpload,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(leaveAttachments)
      .values({
        orgId: scope.orgId,
        memberId: scope.memberId,
        name: upload.name,
        size: upload.size,
        contentType: upload.contentType,
        checksumSha256: upload.checksumSha256,
        storageKey: upload.storageKey,
      })
      .returning({ id: leaveAttachments.id });
    if (!row) throw new Error('leave attachment not recorded');
    await audit(tx, actorOf(scope, meta), {
      action: 'leave.attachmentUpload',
      recordType: 'leaveAttachment',
      recordId: row.id,
      summary: `Uploaded “${upload.name}” (${formatBytes(upload.size)}) for a leave request`,
    });
    return { id: row.id, name: upload.name, size: upload.size, contentType: upload.contentType };
  });
}

/**
 * Links the caller's own unlinked upload to their new request. Someone else's upload, one already
 * on a request, or one of another firm is not found.
 */
export async function linkLeaveAttachment(
  tx: TExecutor,
  scope: TScope,
  attachmentId: string,
  requestId: string,
) {
  const [row] = await tx
    .update(leaveAttachments)
    .set({ requestId })
    .where(
      and(
        eq(leaveAttachments.orgId, scope.orgId),
        eq(leaveAttachments.id, attachmentId),
        eq(leaveAttachments.memberId, scope.memberId),
        isNull(leaveAttachments.requestId),
      ),
    )
    .returning({ name: leaveAttachments.name });
  if (!row) {
    throw new TRPCError({
      code: 'NOT_FOUND',
      message: 'The attachment was not found: upload the file again',
    });
  }
  return row;
}

/**
 * The attachment, for its uploader (linked or not) or whoever may decide its request; each read is
 * logged, as it may be a medical record.
 */
/** An attachment the caller may read (theirs, or of a request they decide), else NOT_FOUND. */
export async function visibleLeaveAttachment(
  db: TExecutor,
  scope: TScope,
  attachmentId: string,
  purpose: 'download' | 'preview',
) {
  const [row] = await db
    .select({
      attachment: leaveAttachments,
      requestMemberId: leaveRequests.memberId,
      managerId: memberWork.managerId,
    })
    .from(leaveAttachments)
    .leftJoin(
      leaveRequests,
      and(eq(leaveRequests.orgId, leaveAttachments.orgId), eq(leaveRequests.id, leaveAttachments.requestId)),
    )
    .leftJoin(
      memberWork,
      and(eq(memberWork.orgId, leaveAttachments.orgId), eq(memberWork.memberId, leaveAttachments.memberId)),
    )
    .where(and(eq(leaveAttachments.orgId, scope.orgId), eq(leaveAttachments.id, attachmentId)));
  if (!row) throw notFound();
  const { attachment } = row;
  const own = attachment.memberId === scope.memberId;
  // Until a request names it, the file is its uploader's alone.
  const decider =
    row.requestMemberId !== null &&
    mayView(scope, { memberId: row.requestMemberId, managerId: row.managerId ?? null });
  if (!own && !decider) throw notFound();
  if (purpose === 'preview' && !isPreviewable(attachment.contentType)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only PDFs and images can be previewed' });
  }
  return attachment;
}

export async function leaveAttachmentForDownload(
  db: TDb,
  scope: TScope,
  attachmentId: string,
  purpose: 'download' | 'preview',
  meta: TRequestMeta,
) {
  const attachment = await visibleLeaveAttachment(db, scope, attachmentId, purpose);
  await db.transaction((tx) =>
    audit(tx, actorOf(scope, meta), {
      action: purpose === 'download' ? 'leave.attachmentDownload' : 'leave.attachmentPreview',
      recordType: 'leaveAttachment',
      recordId: attachment.id,
      summary: `${purpose === 'download' ? 'Downloaded' : 'Previewed'} “${attachment.name}” of a leave request`,
    }),
  );
  return { doc: { id: attachment.id, name: attachment.name }, version: attachment };
}

const UNLINKED_MAX_AGE_MS = 24 * 60 * 60_000;

/**
 * Uploads no request named within a day (the form was left, or the request was refused) are
 * forgotten; their stored bytes, then named by nothing, go with the orphan sweep.
 */
export async function dropUnlinkedAttachments(db: TDb, now: Date) {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(leaveAttachments)
      .where(
        and(
          isNull(leaveAttachments.requestId),
          lt(leaveAttachments.createdAt, new Date(now.getTime() - UNLINKED_MAX_AGE_MS)),
        ),
      )
      .returning({ id: leaveAttachments.id, orgId: leaveAttachments.orgId, name: leaveAttachments.name });
    for (const a of gone) {
      await audit(
        tx,
        { kind: 'system', orgId: a.orgId },
        {
          action: 'leave.attachmentExpire',
          recordType: 'leaveAttachment',
          recordId: a.id,
          summary: `Removed “${a.name}”: uploaded for a leave request that was never submitted`,
        },
      );
    }
    return gone.length;
  });
}
