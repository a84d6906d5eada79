import { and, eq } from 'drizzle-orm';
import { progressOf, requestDisplayStatus, shownItems } from '../../../domain/requests/rules';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, clientUsers, members, requestRecipients } from '../../db/schema';
import { memberName } from '../../db/sql';
import { filesOf, firmToday, itemsOf, ruleItem, visibleRequest } from './access';
import { requestChase } from './chase';

/** One request as staff review it: every item with its answer, files and review, in one place. */
export async function getRequest(db: TExecutor, scope: TScope, requestId: string) {
  const request = await visibleRequest(db, scope, requestId);
  const [items, today, [client], recipients, [sender]] = await Promise.all([
    itemsOf(db, scope.orgId, request.id),
    firmToday(db, scope.orgId),
    db
      .select({ id: clients.id, name: clients.name, code: clients.code })
      .from(clients)
      .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, request.clientId))),
    db
      .select({ id: clientUsers.id, name: clientUsers.name, email: clientUsers.email })
      .from(requestRecipients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, requestRecipients.orgId),
          eq(clientUsers.id, requestRecipients.clientUserId),
        ),
      )
      .where(and(eq(requestRecipients.orgId, scope.orgId), eq(requestRecipients.requestId, request.id))),
    request.createdBy
      ? db
          .select({ name: memberName })
          .from(members)
          .where(and(eq(members.orgId, scope.orgId), eq(members.id, request.createdBy)))
      : Promise.resolve([]),
  ]);
  const files = await filesOf(
    db,
    scope.orgId,
    items.filter((i) => i.kind === 'file').map((i) => i.id),
  );
  const shown = new Set(shownItems(items.map(ruleItem)).map((i) => i.id));
  const chase = await requestChase(db, scope.orgId, request, today);
  return {
    chase,
    ...request,
    displayStatus: requestDisplayStatus(request, today),
    client: client ?? { id: request.clientId, name: '', code: '' },
    recipients,
    sentBy: sender?.name ?? null,
    progress: progressOf(items.map(ruleItem)),
    items: items.map((item) => ({
      id: item.id,
      section: item.section,
      key: item.key,
      kind: item.kind,
      label: item.label,
      hint: item.hint,
      required: item.required,
      options: item.options,
      condition: item.condition,
      value: item.value,
      notApplicableReason: item.notApplicableReason,
      answeredAt: item.answeredAt,
      review: item.review,
      returnReason: item.returnReason,
      shown: shown.has(item.id),
      files: files.get(item.id) ?? [],
    })),
  };
}
