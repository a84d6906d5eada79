import { TRPCError } from '@trpc/server';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { z } from 'zod';
import {
  BULK_SKIP_REASONS,
  type TBulkSkipReason,
  type ZRequestBulkSend,
} from '../../../domain/requests/flow';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { clients, clientUserClients, clientUsers, requestRecipients, requests } from '../../db/schema';
import { clientVisibility } from '../clients';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { insertItems, queueSentMail } from './send';
import { getTemplate } from './templates';

type TDeps = { config: Pick<TConfig, 'publicUrl'> };

/**
 * One request per selected client, from a template, to each client's portal users (not disabled),
 * all in one transaction. A client nobody uses the portal for is skipped and named with the reason;
 * a client the caller may not see (another firm's, hidden) fails the whole send as NOT_FOUND.
 */
export async function sendBulk(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZRequestBulkSend>,
  meta: TRequestMeta,
  deps: TDeps,
) {
  return db.transaction(async (tx) => {
    const ids = [...new Set(input.clientIds)];
    const template = await getTemplate(tx, scope, input.templateId);
    const found = await tx
      .select({ id: clients.id, name: clients.name })
      .from(clients)
      .where(and(eq(clients.orgId, scope.orgId), inArray(clients.id, ids), clientVisibility(scope)))
      .orderBy(clients.name, clients.id);
    if (found.length !== ids.length) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
    const people = await tx
      .select({ clientId: clientUserClients.clientId, id: clientUsers.id })
      .from(clientUserClients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, clientUserClients.orgId),
          eq(clientUsers.id, clientUserClients.clientUserId),
        ),
      )
      .where(
        and(
          eq(clientUserClients.orgId, scope.orgId),
          inArray(clientUserClients.clientId, ids),
          ne(clientUsers.status, 'disabled'),
        ),
      );
    const byClient = new Map<string, string[]>();
    for (const p of people) byClient.set(p.clientId, [...(byClient.get(p.clientId) ?? []), p.id]);

    const title = input.title || template.name;
    const due = (await firmFormatter(tx, scope.orgId)).date(input.dueDate);
    const sent: { clientId: string; clientName: string; requestId: string }[] = [];
    const skipped: { clientId: string; clientName: string; reason: TBulkSkipReason; message: string }[] = [];
    for (const client of found) {
      const recipients = byClient.get(client.id) ?? [];
      if (!recipients.length) {
        skipped.push({
          clientId: client.id,
          clientName: client.name,
          reason: 'no_portal_user',
          message: BULK_SKIP_REASONS.no_portal_user,
        });
        continue;
      }
      const [request] = await tx
        .insert(requests)
        .values({
          orgId: scope.orgId,
          clientId: client.id,
          title,
          message: input.message,
          templateName: template.name,
          status: 'sent',
          dueDate: input.dueDate,
          createdBy: scope.memberId,
          sentAt: new Date(),
        })
        .returning();
      if (!request) throw new Error('request not created');
      const count = await insertItems(tx, scope.orgId, request.id, template.sections);
      await tx
        .insert(requestRecipients)
        .values(recipients.map((id) => ({ orgId: scope.orgId, requestId: request.id, clientUserId: id })));
      const mailed = await queueSentMail(tx, deps, request);
      await audit(tx, actorOf(scope, meta), {
        action: 'request.send',
        recordType: 'request',
        recordId: request.id,
        summary: `Sent the request “${title}” to ${client.name} from the template “${template.name}” in a bulk send (${count} items, due ${due}), mailed to ${mailed.join(', ')}`,
      });
      sent.push({ clientId: client.id, clientName: client.name, requestId: request.id });
    }
    return { sent, skipped };
  });
}
