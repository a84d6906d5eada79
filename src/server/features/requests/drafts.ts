import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZRequestDraftUpdate } from '../../../domain/requests/schemas';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { requestItems, requestRecipients, requests } from '../../db/schema';
import { audit } from '../system-log';
import { visibleRequest } from './access';
import { insertItems, queueSentMail, recipientsFor } from './send';

type TDeps = { config: Pick<TConfig, 'publicUrl'> };

/**
 * Edits a draft for its client (issue 36, item 2): its title, due date, message, recipients and
 * items (added, removed, reordered: the items are written again, as a draft has no answers yet),
 * and sends it when asked. Only a draft: once sent, the client may be answering.
 */
export async function updateDraft(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZRequestDraftUpdate>,
  meta: TRequestMeta,
  deps: TDeps,
) {
  return db.transaction(async (tx) => {
    const before = await visibleRequest(tx, scope, input.requestId, true);
    if (before.status !== 'draft') {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'Only a draft can be edited: this request has been sent',
      });
    }
    const people = await recipientsFor(tx, scope, before.clientId, input.recipientIds);
    // One statement at a time: a transaction's connection runs them in turn anyway.
    const oldItems = await tx
      .select({ key: requestItems.key })
      .from(requestItems)
      .where(and(eq(requestItems.orgId, scope.orgId), eq(requestItems.requestId, before.id)))
      .orderBy(requestItems.position);
    const oldRecipients = await tx
      .select({ id: requestRecipients.clientUserId })
      .from(requestRecipients)
      .where(and(eq(requestRecipients.orgId, scope.orgId), eq(requestRecipients.requestId, before.id)));
    await tx
      .delete(requestItems)
      .where(and(eq(requestItems.orgId, scope.orgId), eq(requestItems.requestId, before.id)));
    const itemCount = await insertItems(tx, scope.orgId, before.id, input.sections);
    await tx
      .delete(requestRecipients)
      .where(and(eq(requestRecipients.orgId, scope.orgId), eq(requestRecipients.requestId, before.id)));
    await tx
      .insert(requestRecipients)
      .values(people.map((p) => ({ orgId: scope.orgId, requestId: before.id, clientUserId: p.id })));
    const [after] = await tx
      .update(requests)
      .set({
        title: input.title,
        dueDate: input.dueDate,
        message: input.message,
        ...(input.send ? { status: 'sent' as const, sentAt: new Date() } : {}),
      })
      .where(and(eq(requests.orgId, scope.orgId), eq(requests.id, before.id)))
      .returning();
    if (!after) throw new Error('request vanished');
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (before.title !== after.title) changes.title = { from: before.title, to: after.title };
    if (before.dueDate !== after.dueDate) changes.dueDate = { from: before.dueDate, to: after.dueDate };
    if (before.message !== after.message) changes.message = { from: before.message, to: after.message };
    const keys = (rows: { key: string }[]) => rows.map((r) => r.key).join(', ');
    const newKeys = input.sections.flatMap((s) => s.items.map((i) => ({ key: i.key })));
    if (keys(oldItems) !== keys(newKeys)) changes.items = { from: keys(oldItems), to: keys(newKeys) };
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    if (JSON.stringify(ids(oldRecipients)) !== JSON.stringify(ids(people)))
      changes.recipients = { from: ids(oldRecipients), to: ids(people) };
    await audit(tx, actorOf(scope, meta), {
      action: 'request.update',
      recordType: 'request',
      recordId: after.id,
      summary: `Edited the draft request “${after.title}” (${itemCount} items, due ${after.dueDate})`,
      changes,
    });
    const mailed = input.send ? await queueSentMail(tx, deps, after) : [];
    if (input.send) {
      await audit(tx, actorOf(scope, meta), {
        action: 'request.send',
        recordType: 'request',
        recordId: after.id,
        summary: `Sent the request “${after.title}”${mailed.length ? `, mailed to ${mailed.join(', ')}` : ''}`,
      });
    }
    return { id: after.id, status: after.status, mailed };
  });
}
