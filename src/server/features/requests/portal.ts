import { TRPCError } from '@trpc/server';
import { and, asc, count, desc, eq, exists, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { TPage } from '../../../domain/pagination';
import { checkAnswer, type TAnswerValue } from '../../../domain/requests/answers';
import { OPEN_REQUEST_STATUSES } from '../../../domain/requests/constants';
import {
  clientMayAnswer,
  progressOf,
  requestDisplayStatus,
  submitBlocker,
} from '../../../domain/requests/rules';
import type { ZPortalRequestList } from '../../../domain/requests/schemas';
import { portalActorOf, type TPortalClientAccess, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  clientUsers,
  requestItemFiles,
  requestItems,
  requestRecipients,
  requests,
} from '../../db/schema';
import { emitAutomationEvent } from '../../events';
import { portalAudience } from '../client-portal';
import { notify } from '../notifications';
import { audit } from '../system-log';
import { emitWebhookEvent } from '../webhooks';
import {
  filesOf,
  firmToday,
  itemNotFound,
  itemsOf,
  progressByRequest,
  requestNotFound,
  ruleItem,
  type TItemWithFiles,
  type TRequestRow,
} from './access';

// The client's side of requests. A portal user sees a request of the client only when it was sent
// to them (request_recipients), never a draft; every query is scoped by the firm and the client of
// ctx.access (portalClientProcedure checked the session reaches that client).

const sentToMe = (access: TPortalClientAccess) =>
  and(
    eq(requests.orgId, access.orgId),
    eq(requests.clientId, access.clientId),
    ne(requests.status, 'draft'),
    exists(
      sql`(select 1 from ${requestRecipients} where ${requestRecipients.orgId} = ${requests.orgId}
        and ${requestRecipients.requestId} = ${requests.id} and ${requestRecipients.clientUserId} = ${access.clientUserId})`,
    ),
  );

/** A request sent to this portal user for this client; anything else is NOT_FOUND. */
export async function portalRequest(
  db: TExecutor,
  access: TPortalClientAccess,
  requestId: string,
  lock = false,
) {
  const query = db
    .select()
    .from(requests)
    .where(and(sentToMe(access), eq(requests.id, requestId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: requests }) : await query;
  if (!row) throw requestNotFound();
  return row;
}

/** The requests sent to me for this client: those waiting on me first (soonest due), then the rest. */
export async function listPortalRequests(
  db: TExecutor,
  access: TPortalClientAccess,
  input: z.output<typeof ZPortalRequestList>,
) {
  const where = and(
    sentToMe(access),
    input.open ? inArray(requests.status, [...OPEN_REQUEST_STATUSES]) : undefined,
  );
  const waiting = sql`case when ${requests.status} in ('sent', 'in_progress', 'returned') then 0 else 1 end`;
  const [rows, [total], today] = await Promise.all([
    db
      .select({
        id: requests.id,
        title: requests.title,
        status: requests.status,
        dueDate: requests.dueDate,
        sentAt: requests.sentAt,
      })
      .from(requests)
      .where(where)
      .orderBy(asc(waiting), asc(requests.dueDate), desc(requests.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(requests).where(where),
    firmToday(db, access.orgId),
  ]);
  const progress = await progressByRequest(
    db,
    access.orgId,
    rows.map((r) => r.id),
  );
  const page: TPage<
    (typeof rows)[number] & {
      displayStatus: ReturnType<typeof requestDisplayStatus>;
      progress: { done: number; total: number };
    }
  > = {
    rows: rows.map((r) => ({
      ...r,
      displayStatus: requestDisplayStatus(r, today),
      progress: progress.get(r.id) ?? { done: 0, total: 0 },
    })),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
  return page;
}

/** One request as the client answers it: every item (the screen applies the conditions as they type). */
export async function getPortalRequest(db: TExecutor, access: TPortalClientAccess, requestId: string) {
  const request = await portalRequest(db, access, requestId);
  const [items, today] = await Promise.all([
    itemsOf(db, access.orgId, request.id),
    firmToday(db, access.orgId),
  ]);
  const files = await filesOf(
    db,
    access.orgId,
    items.filter((i) => i.kind === 'file').map((i) => i.id),
  );
  return {
    id: request.id,
    title: request.title,
    message: request.message,
    dueDate: request.dueDate,
    status: request.status,
    displayStatus: requestDisplayStatus(request, today),
    submittedAt: request.submittedAt,
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
      review: item.review,
      returnReason: item.review === 'returned' ? item.returnReason : null,
      files: files.get(item.id) ?? [],
    })),
  };
}

/** The request and item a change from the client touches, once the request still waits on them. */
async function answerable(tx: TExecutor, access: TPortalClientAccess, requestId: string, itemId: string) {
  const request = await portalRequest(tx, access, requestId, true);
  const item = (await itemsOf(tx, access.orgId, request.id)).find((i) => i.id === itemId);
  if (!item) throw itemNotFound();
  if (!clientMayAnswer(request.status)) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message:
        request.status === 'submitted'
          ? 'You submitted this request: the firm is looking at it'
          : 'This request is closed',
    });
  }
  if (item.review === 'accepted')
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The firm has accepted this item already' });
  return { request, item };
}

/** A file item the client may upload to now. */
export async function answerableFile(
  tx: TExecutor,
  access: TPortalClientAccess,
  requestId: string,
  itemId: string,
) {
  const found = await answerable(tx, access, requestId, itemId);
  if (found.item.kind !== 'file')
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This item takes a typed answer, not files' });
  return found;
}

/** Marks a file item answered once a file arrived (see touched). */
export const fileAdded = (tx: TExecutor, request: TRequestRow, item: TItemWithFiles) =>
  touched(tx, request, item, { notApplicableReason: null });

/**
 * After the client changes an item: a returned one goes back for review, and a request first
 * answered is In progress.
 */
async function touched(
  tx: TExecutor,
  request: TRequestRow,
  item: TItemWithFiles,
  set: Partial<TItemWithFiles>,
) {
  await tx
    .update(requestItems)
    .set({
      ...set,
      answeredAt: new Date(),
      ...(item.review === 'returned' ? { review: 'pending' as const } : {}),
    })
    .where(and(eq(requestItems.orgId, request.orgId), eq(requestItems.id, item.id)));
  if (request.status === 'sent') {
    await tx
      .update(requests)
      .set({ status: 'in_progress' })
      .where(and(eq(requests.orgId, request.orgId), eq(requests.id, request.id)));
  }
}

/** Saves an answer as typed (the screen saves as the client types; null clears it). */
export async function saveAnswer(
  db: TDb,
  access: TPortalClientAccess,
  input: { requestId: string; itemId: string; value: TAnswerValue },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { request, item } = await answerable(tx, access, input.requestId, input.itemId);
    const checked = checkAnswer(item, input.value);
    if (!checked.ok) throw new TRPCError({ code: 'BAD_REQUEST', message: checked.message });
    if (JSON.stringify(checked.value) === JSON.stringify(item.value) && item.notApplicableReason === null) {
      return { id: item.id, value: item.value };
    }
    await touched(tx, request, item, { value: checked.value, notApplicableReason: null });
    await audit(tx, portalActorOf(access, meta), {
      action: 'request.item.answer',
      recordType: 'request',
      recordId: request.id,
      summary: `${checked.value === null ? 'Cleared' : 'Answered'} “${item.label}” of the request “${request.title}” in the client portal`,
    });
    return { id: item.id, value: checked.value };
  });
}

/** Marks an item not applicable with the client's reason, or (reason null) takes that back. */
export async function setNotApplicable(
  db: TDb,
  access: TPortalClientAccess,
  input: { requestId: string; itemId: string; reason: string | null },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { request, item } = await answerable(tx, access, input.requestId, input.itemId);
    await touched(tx, request, item, { notApplicableReason: input.reason });
    await audit(tx, portalActorOf(access, meta), {
      action: 'request.item.not_applicable',
      recordType: 'request',
      recordId: request.id,
      summary:
        input.reason === null
          ? `Took back “not applicable” on “${item.label}” of the request “${request.title}”`
          : `Marked “${item.label}” of the request “${request.title}” not applicable: ${input.reason}`,
    });
    return { id: item.id, notApplicableReason: input.reason };
  });
}

/**
 * Takes a held file off a file item. Its stored bytes are named by nothing any more, and the
 * storage sweep removes them (documents/orphans.ts). A file already filed (its item accepted, then
 * returned) stays in the client's documents: only its link to the item goes.
 */
export async function removeFile(
  db: TDb,
  access: TPortalClientAccess,
  input: { requestId: string; itemId: string; fileId: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { request, item } = await answerable(tx, access, input.requestId, input.itemId);
    const [file] = await tx
      .delete(requestItemFiles)
      .where(
        and(
          eq(requestItemFiles.orgId, access.orgId),
          eq(requestItemFiles.itemId, item.id),
          eq(requestItemFiles.id, input.fileId),
        ),
      )
      .returning({ name: requestItemFiles.name });
    if (!file) throw new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });
    await touched(tx, request, item, {});
    await audit(tx, portalActorOf(access, meta), {
      action: 'request.item.remove_file',
      recordType: 'request',
      recordId: request.id,
      summary: `Removed “${file.name}” from “${item.label}” of the request “${request.title}” in the client portal`,
    });
    return { id: item.id };
  });
}

/** Hands the answers to the firm: allowed once nothing required is left; the firm is told. */
export async function submitRequest(
  db: TDb,
  access: TPortalClientAccess,
  requestId: string,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const request = await portalRequest(tx, access, requestId, true);
    const items = await itemsOf(tx, access.orgId, request.id);
    const blocker = submitBlocker(request.status, items.map(ruleItem));
    if (blocker) throw new TRPCError({ code: 'BAD_REQUEST', message: blocker });
    await tx
      .update(requests)
      .set({ status: 'submitted', submittedAt: new Date() })
      .where(and(eq(requests.orgId, access.orgId), eq(requests.id, request.id)));
    const [who] = await tx
      .select({ userName: clientUsers.name, clientName: clients.name })
      .from(clientUsers)
      .innerJoin(clients, and(eq(clients.orgId, clientUsers.orgId), eq(clients.id, access.clientId)))
      .where(and(eq(clientUsers.orgId, access.orgId), eq(clientUsers.id, access.clientUserId)));
    const userName = who?.userName ?? 'A client';
    await audit(tx, portalActorOf(access, meta), {
      action: 'request.submit',
      recordType: 'request',
      recordId: request.id,
      summary: `${userName} submitted the request “${request.title}” in the client portal`,
      changes: { status: { from: request.status, to: 'submitted' } },
    });
    await emitAutomationEvent(tx, {
      orgId: access.orgId,
      kind: 'request.submitted',
      projectId: request.projectId,
      clientId: request.clientId,
      data: { requestId: request.id, title: request.title },
    });
    await emitWebhookEvent(tx, access.orgId, 'request.submitted', {
      id: request.id,
      title: request.title,
      clientId: access.clientId,
    });
    await notify(tx, {
      orgId: access.orgId,
      memberIds: [
        ...(request.createdBy ? [request.createdBy] : []),
        ...(await portalAudience(tx, access, { permission: 'requests.manage' })),
      ],
      kind: 'request.submitted',
      title: `${userName} submitted “${request.title.slice(0, 120)}” for ${(who?.clientName ?? '').slice(0, 60)}`,
      link: `/requests/${request.id}`,
    });
    return { id: request.id, status: 'submitted' as const };
  });
}
