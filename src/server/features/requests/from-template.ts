import { and, eq } from 'drizzle-orm';
import { addDays } from '../../../domain/days';
import type { TSection } from '../../../domain/requests/items';
import type { TConfig } from '../../config';
import type { TExecutor } from '../../db/client';
import { clients, requestRecipients, requests, requestTemplates } from '../../db/schema';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { firmToday } from './access';
import { portalUsersOf } from './flow';
import { insertItems, queueSentMail } from './send';

type TDeps = { config: Pick<TConfig, 'publicUrl'> };

/**
 * A request from one of the firm's request templates, made by the system in the caller's
 * transaction (an accepted proposal's onboarding documents, issue 37): sent to the client's portal
 * users when it has any, as the send dialog would, or kept as a draft to send once someone is
 * invited. Null when the template is gone.
 */
export async function requestFromTemplate(
  tx: TExecutor,
  deps: TDeps,
  input: { orgId: string; clientId: string; requestTemplateId: string; dueInDays: number; why: string },
): Promise<{ id: string; status: 'sent' | 'draft'; mailed: string[] } | null> {
  const { orgId, clientId } = input;
  const [template] = await tx
    .select({ name: requestTemplates.name, sections: requestTemplates.sections })
    .from(requestTemplates)
    .where(and(eq(requestTemplates.orgId, orgId), eq(requestTemplates.id, input.requestTemplateId)));
  if (!template) return null;
  const [client] = await tx
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId)));
  const people = await portalUsersOf(tx, orgId, clientId);
  const send = people.length > 0;
  const today = await firmToday(tx, orgId);
  const [request] = await tx
    .insert(requests)
    .values({
      orgId,
      clientId,
      title: template.name.slice(0, 200),
      templateName: template.name,
      status: send ? 'sent' : 'draft',
      dueDate: addDays(today, input.dueInDays),
      sentAt: send ? new Date() : null,
    })
    .returning();
  if (!request) throw new Error('request not created');
  const count = await insertItems(tx, orgId, request.id, template.sections as TSection[]);
  const system = { kind: 'system', orgId } as const;
  const due = (await firmFormatter(tx, orgId)).date(request.dueDate);
  if (!send) {
    await audit(tx, system, {
      action: 'request.create',
      recordType: 'request',
      recordId: request.id,
      summary: `Kept the request “${request.title}” for ${client?.name ?? 'a client'} ${input.why} as a draft (${count} items, due ${due}): nobody uses the portal for the client yet (invite someone, then send it)`,
    });
    return { id: request.id, status: 'draft', mailed: [] };
  }
  await tx
    .insert(requestRecipients)
    .values(people.map((p) => ({ orgId, requestId: request.id, clientUserId: p.id })));
  const mailed = await queueSentMail(tx, deps, request);
  await audit(tx, system, {
    action: 'request.send',
    recordType: 'request',
    recordId: request.id,
    summary: `Sent the request “${request.title}” to ${client?.name ?? 'a client'} ${input.why} (${count} items, due ${due}), mailed to ${mailed.join(', ')}`,
  });
  return { id: request.id, status: 'sent', mailed };
}
