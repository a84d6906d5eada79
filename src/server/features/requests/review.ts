import { TRPCError } from '@trpc/server';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { REQUEST_STATUS_LABELS } from '../../../domain/requests/constants';
import { hasAnswer } from '../../../domain/requests/rules';
import type { ZItemReview } from '../../../domain/requests/schemas';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  clientUsers,
  orgs,
  requestItemFiles,
  requestItems,
  requestRecipients,
  requests,
} from '../../db/schema';
import { emitAutomationEvent } from '../../events';
import { enqueueMail } from '../../mail';
import { ensureTree } from '../documents';
import { audit } from '../system-log';
import { itemNotFound, itemsOf, type TRequestRow, visibleRequest } from './access';
import { fileAcceptedItem } from './filing';
import { completeLinkedTask } from './flow';
import { itemsReturnedMessage } from './mail';

type TDeps = { config: Pick<TConfig, 'publicUrl'> };

const REVIEWABLE = ['in_progress', 'submitted', 'returned'] as const;

/** Tells each recipient what to fix: every item now returned, with its reason. */
async function queueReturnedMail(tx: TExecutor, deps: TDeps, request: TRequestRow) {
  const [[firm], people, items] = await Promise.all([
    tx.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, request.orgId)),
    tx
      .select({ name: clientUsers.name, email: clientUsers.email })
      .from(requestRecipients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, requestRecipients.orgId),
          eq(clientUsers.id, requestRecipients.clientUserId),
        ),
      )
      .where(and(eq(requestRecipients.orgId, request.orgId), eq(requestRecipients.requestId, request.id))),
    itemsOf(tx, request.orgId, request.id),
  ]);
  const returned = items
    .filter((i) => i.review === 'returned')
    .map((i) => ({ label: i.label, reason: i.returnReason ?? '' }));
  for (const person of people) {
    await enqueueMail(
      tx,
      itemsReturnedMessage(deps.config, {
        to: person.email,
        name: person.name,
        firmName: firm?.name ?? 'Your accountant',
        title: request.title,
        returned,
        clientId: request.clientId,
        requestId: request.id,
      }),
      { orgId: request.orgId },
    );
  }
}

/**
 * Accepts an answer (its files are filed into the client's documents: ./filing), or returns it to the client with what to fix: the request is then Returned and
 * its recipients are mailed the items to fix.
 */
export async function reviewItem(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZItemReview>,
  meta: TRequestMeta,
  deps: TDeps,
) {
  // Accepting an item with held files files them into the client's documents: the client's top
  // folder is set up first, in its own transaction (as opening the client's documents would), once
  // the caller may see the request.
  let rootId: string | null = null;
  const [held] =
    input.decision === 'accepted'
      ? await db
          .select({ id: requestItemFiles.id })
          .from(requestItemFiles)
          .where(
            and(
              eq(requestItemFiles.orgId, scope.orgId),
              eq(requestItemFiles.itemId, input.itemId),
              isNull(requestItemFiles.documentId),
            ),
          )
          .limit(1)
      : [];
  if (held) {
    const seen = await visibleRequest(db, scope, input.requestId);
    const [client] = await db
      .select({ name: clients.name })
      .from(clients)
      .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, seen.clientId)));
    rootId = (
      await ensureTree(db, { orgId: scope.orgId, clientId: seen.clientId, clientName: client?.name ?? null })
    ).id;
  }
  return db.transaction(async (tx) => {
    const request = await visibleRequest(tx, scope, input.requestId, true);
    const item = (await itemsOf(tx, scope.orgId, request.id)).find((i) => i.id === input.itemId);
    if (!item) throw itemNotFound();
    if (!(REVIEWABLE as readonly string[]).includes(request.status)) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `A ${REQUEST_STATUS_LABELS[request.status].toLowerCase()} request has nothing to review`,
      });
    }
    if (item.notApplicableReason === null && !hasAnswer(item)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The client has not answered this item yet' });
    }
    const returned = input.decision === 'returned';
    await tx
      .update(requestItems)
      .set({ review: input.decision, returnReason: returned ? input.reason : null, reviewedAt: new Date() })
      .where(and(eq(requestItems.orgId, scope.orgId), eq(requestItems.id, item.id)));
    const filed = returned ? null : await fileAcceptedItem(tx, scope, meta, { request, item, rootId });
    let status = request.status;
    if (returned) {
      status = 'returned';
      const [updated] = await tx
        .update(requests)
        .set({ status })
        .where(and(eq(requests.orgId, scope.orgId), eq(requests.id, request.id)))
        .returning();
      if (updated) await queueReturnedMail(tx, deps, updated);
    }
    await audit(tx, actorOf(scope, meta), {
      action: returned ? 'request.item.return' : 'request.item.accept',
      recordType: 'request',
      recordId: request.id,
      summary: returned
        ? `Returned “${item.label}” of the request “${request.title}” to the client: ${input.reason}`
        : `Accepted “${item.label}” of the request “${request.title}”`,
      changes: { review: { from: item.review, to: input.decision } },
    });
    return { id: item.id, review: input.decision, status, filed };
  });
}

/** Closes a request as done (what it asked for is in, by the portal or otherwise). */
export async function completeRequest(db: TDb, scope: TScope, requestId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const request = await visibleRequest(tx, scope, requestId, true);
    if (!['sent', 'in_progress', 'submitted', 'returned'].includes(request.status)) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `A ${REQUEST_STATUS_LABELS[request.status].toLowerCase()} request cannot be completed`,
      });
    }
    await tx
      .update(requests)
      .set({ status: 'complete', completedAt: new Date() })
      .where(and(eq(requests.orgId, scope.orgId), eq(requests.id, request.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'request.complete',
      recordType: 'request',
      recordId: request.id,
      summary: `Completed the request “${request.title}”`,
      changes: { status: { from: request.status, to: 'complete' } },
    });
    await emitAutomationEvent(tx, {
      orgId: scope.orgId,
      kind: 'request.completed',
      projectId: request.projectId,
      clientId: request.clientId,
      data: { requestId: request.id, title: request.title },
    });
    await completeLinkedTask(tx, scope, request);
    return { id: request.id, status: 'complete' as const };
  });
}

/** Withdraws a request the client no longer needs to answer; what they sent stays. */
export async function cancelRequest(
  db: TDb,
  scope: TScope,
  input: { requestId: string; reason: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const request = await visibleRequest(tx, scope, input.requestId, true);
    if (request.status === 'complete' || request.status === 'cancelled') {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `A ${REQUEST_STATUS_LABELS[request.status].toLowerCase()} request cannot be cancelled`,
      });
    }
    await tx
      .update(requests)
      .set({ status: 'cancelled', cancelledAt: new Date() })
      .where(and(eq(requests.orgId, scope.orgId), eq(requests.id, request.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'request.cancel',
      recordType: 'request',
      recordId: request.id,
      summary: `Cancelled the request “${request.title}”${input.reason ? `: ${input.reason}` : ''}`,
      changes: { status: { from: request.status, to: 'cancelled' } },
    });
    return { id: request.id, status: 'cancelled' as const };
  });
}
