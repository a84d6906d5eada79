import { TRPCError } from '@trpc/server';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { TSection } from '../../../domain/requests/items';
import type { ZRequestCreate } from '../../../domain/requests/schemas';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  clientUserClients,
  clientUsers,
  orgs,
  requestItems,
  requestRecipients,
  requests,
} from '../../db/schema';
import { enqueueMail } from '../../mail';
import { visibleClient } from '../clients';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { type TRequestRow, visibleRequest } from './access';
import { chaseValues } from './chase';
import { linkPortalTask, portalUsersOf, projectOfClient } from './flow';
import { requestSentMessage } from './mail';
import { getTemplate } from './templates';

/** A request's items, copied from the sections it was sent with, in order; their count. */
export async function insertItems(
  tx: TExecutor,
  orgId: string,
  requestId: string,
  sections: readonly TSection[],
) {
  let position = 0;
  const rows = sections.flatMap((section) =>
    section.items.map((item) => ({
      orgId,
      requestId,
      position: position++,
      section: section.title,
      key: item.key,
      kind: item.kind,
      label: item.label,
      hint: item.hint,
      required: item.required,
      options: item.options,
      condition: item.condition,
    })),
  );
  if (rows.length) await tx.insert(requestItems).values(rows);
  return position;
}

type TDeps = { config: Pick<TConfig, 'publicUrl'> };

/** The client's portal users a request can go to (not disabled), for the sending dialog. */
export async function recipientOptions(db: TExecutor, scope: TScope, clientId: string) {
  await visibleClient(db, scope, clientId);
  return db
    .select({
      id: clientUsers.id,
      name: clientUsers.name,
      email: clientUsers.email,
      status: clientUsers.status,
    })
    .from(clientUserClients)
    .innerJoin(
      clientUsers,
      and(eq(clientUsers.orgId, clientUserClients.orgId), eq(clientUsers.id, clientUserClients.clientUserId)),
    )
    .where(
      and(
        eq(clientUserClients.orgId, scope.orgId),
        eq(clientUserClients.clientId, clientId),
        ne(clientUsers.status, 'disabled'),
      ),
    )
    .orderBy(clientUsers.name)
    .limit(100);
}

/** The recipients of a request: each must be a portal user of its client, not disabled. */
export async function recipientsFor(tx: TExecutor, scope: TScope, clientId: string, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const found = await tx
    .select({ id: clientUsers.id, name: clientUsers.name, email: clientUsers.email })
    .from(clientUserClients)
    .innerJoin(
      clientUsers,
      and(eq(clientUsers.orgId, clientUserClients.orgId), eq(clientUsers.id, clientUserClients.clientUserId)),
    )
    .where(
      and(
        eq(clientUserClients.orgId, scope.orgId),
        eq(clientUserClients.clientId, clientId),
        inArray(clientUsers.id, unique),
        ne(clientUsers.status, 'disabled'),
      ),
    );
  if (found.length !== unique.length) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Send it to people who use the portal for this client (invite them first)',
    });
  }
  return found;
}

/** Mails each recipient the request's link, through the job queue, in the caller's transaction. */
export async function queueSentMail(tx: TExecutor, deps: TDeps, request: TRequestRow) {
  const [[firm], [client], people, items] = await Promise.all([
    tx.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, request.orgId)),
    tx
      .select({ name: clients.name })
      .from(clients)
      .where(and(eq(clients.orgId, request.orgId), eq(clients.id, request.clientId))),
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
    tx
      .select({ id: requestItems.id })
      .from(requestItems)
      .where(and(eq(requestItems.orgId, request.orgId), eq(requestItems.requestId, request.id))),
  ]);
  const format = await firmFormatter(tx, request.orgId);
  for (const person of people) {
    await enqueueMail(
      tx,
      requestSentMessage(deps.config, {
        to: person.email,
        name: person.name,
        firmName: firm?.name ?? 'Your accountant',
        clientName: client?.name ?? '',
        title: request.title,
        due: format.date(request.dueDate),
        itemCount: items.length,
        message: request.message,
        clientId: request.clientId,
        requestId: request.id,
      }),
      { orgId: request.orgId },
    );
  }
  return people.map((p) => p.email);
}

/**
 * A request for a client, with its items as the dialog edited them (copied, so the template may
 * change later), sent at once (each recipient mailed) or kept as a draft.
 */
export async function createRequest(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZRequestCreate>,
  meta: TRequestMeta,
  deps: TDeps,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId);
    const template = input.templateId ? await getTemplate(tx, scope, input.templateId) : null;
    const project = input.projectId ? await projectOfClient(tx, scope, input.projectId, client.id) : null;
    const people = await recipientsFor(tx, scope, client.id, input.recipientIds);
    const now = new Date();
    const [request] = await tx
      .insert(requests)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        title: input.title,
        message: input.message,
        templateName: template?.name ?? null,
        status: input.send ? 'sent' : 'draft',
        dueDate: input.dueDate,
        projectId: project?.id ?? null,
        createdBy: scope.memberId,
        sentAt: input.send ? now : null,
        ...(await chaseValues(tx, scope.orgId, input.chase)),
      })
      .returning();
    if (!request) throw new Error('request not created');
    const position = await insertItems(tx, scope.orgId, request.id, input.sections);
    await tx
      .insert(requestRecipients)
      .values(people.map((p) => ({ orgId: scope.orgId, requestId: request.id, clientUserId: p.id })));
    const mailed = input.send ? await queueSentMail(tx, deps, request) : [];
    if (input.send && project)
      await linkPortalTask(tx, { orgId: scope.orgId, memberId: scope.memberId }, request);
    await audit(tx, actorOf(scope, meta), {
      action: input.send ? 'request.send' : 'request.create',
      recordType: 'request',
      recordId: request.id,
      summary: `${input.send ? 'Sent' : 'Drafted'} the request “${request.title}” to ${client.name}${
        template ? ` from the template “${template.name}”` : ''
      }${project ? ` for the project ${project.name}` : ''} (${position} items, due ${(await firmFormatter(tx, scope.orgId)).date(request.dueDate)})${mailed.length ? `, mailed to ${mailed.join(', ')}` : ''}`,
    });
    return { id: request.id, status: request.status, mailed };
  });
}

/** Sends a draft: its recipients are mailed now. */
export async function sendDraft(db: TDb, scope: TScope, requestId: string, meta: TRequestMeta, deps: TDeps) {
  return db.transaction(async (tx) => {
    const request = await visibleRequest(tx, scope, requestId, true);
    if (request.status !== 'draft')
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'This request has been sent already' });
    const [sent] = await tx
      .update(requests)
      .set({ status: 'sent', sentAt: new Date() })
      .where(and(eq(requests.orgId, scope.orgId), eq(requests.id, request.id)))
      .returning();
    if (!sent) throw new Error('request vanished');
    // A draft its project's template made for a client without portal users goes to whoever
    // uses the portal for the client now.
    const [recipient] = await tx
      .select({ id: requestRecipients.clientUserId })
      .from(requestRecipients)
      .where(and(eq(requestRecipients.orgId, scope.orgId), eq(requestRecipients.requestId, sent.id)))
      .limit(1);
    if (!recipient) {
      const people = await portalUsersOf(tx, scope.orgId, sent.clientId);
      if (!people.length) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: 'Nobody uses the portal for this client yet: invite someone to the portal first',
        });
      }
      await tx
        .insert(requestRecipients)
        .values(people.map((p) => ({ orgId: scope.orgId, requestId: sent.id, clientUserId: p.id })));
    }
    const mailed = await queueSentMail(tx, deps, sent);
    if (sent.projectId) await linkPortalTask(tx, { orgId: scope.orgId, memberId: scope.memberId }, sent);
    await audit(tx, actorOf(scope, meta), {
      action: 'request.send',
      recordType: 'request',
      recordId: sent.id,
      summary: `Sent the request “${sent.title}”${mailed.length ? `, mailed to ${mailed.join(', ')}` : ''}`,
    });
    return { id: sent.id, status: sent.status, mailed };
  });
}
