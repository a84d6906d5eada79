import { TRPCError } from '@trpc/server';
import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  TAudience,
  TBroadcastContent,
  TBroadcastMode,
  TBroadcastStatus,
  TDeliveryState,
  ZBroadcastInput,
  ZBroadcastSettings,
} from '../../../domain/broadcasts';
import { DEFAULT_DAILY_CAP, DEFAULT_RATE_PER_SECOND, defaultBroadcastName } from '../../../domain/broadcasts';
import type { TPage } from '../../../domain/pagination';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  broadcastDeliveries,
  broadcastSettings,
  broadcasts,
  broadcastTemplates,
  members,
} from '../../db/schema';
import { escapeLike, memberName, rowsOf } from '../../db/sql';
import { enqueueMail } from '../../mail';
import { visibleClient } from '../clients';
import { firmDateTime } from '../settings';
import { audit } from '../system-log';
import { anyRecipient, summarize } from './audience';
import { valuesFor } from './context';
import { queuePump } from './pump';
import { queueNext, queueRest } from './queueing';
import { broadcastMessage, renderFor, sanitizeBody } from './render';

type TFullScope = Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>;
type TIds = Pick<TScope, 'orgId' | 'memberId'>;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function cleanContent(c: TBroadcastContent) {
  const bodyHtml = sanitizeBody(c.bodyHtml);
  if (!bodyHtml.trim()) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Write the message: nothing was left after cleaning it',
    });
  }
  return { subject: c.subject, bodyHtml };
}

export function audiencePreview(db: TExecutor, scope: TFullScope, audience: TAudience, mode: TBroadcastMode) {
  return summarize(db, scope, audience, mode);
}

/** The message as one client's recipient would read it (without the unsubscribe footer's token). */
export async function previewFor(
  db: TExecutor,
  scope: TFullScope,
  content: TBroadcastContent,
  clientId: string,
  publicUrl: string,
) {
  await visibleClient(db, scope, clientId);
  const values = (await valuesFor(db, scope.orgId, [clientId], publicUrl)).get(clientId);
  if (!values) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  return renderFor(
    cleanContent(content),
    values,
    new URL('/api/broadcasts/unsubscribe/preview', publicUrl).toString(),
  );
}

/** A test send to the member themself, through the mail queue, filled for a client (or the first one). */
export async function testSend(
  db: TDb,
  scope: TFullScope,
  input: TBroadcastContent & { clientId?: string | null },
  publicUrl: string,
  meta?: TRequestMeta,
) {
  const content = cleanContent(input);
  let clientId = input.clientId ?? null;
  if (clientId) await visibleClient(db, scope, clientId);
  else {
    const [first] = rowsOf<{ id: string }>(
      await db.execute(
        sql`select id from clients where org_id = ${scope.orgId} and archived_at is null order by name limit 1`,
      ),
    );
    clientId = first?.id ?? null;
  }
  const values = clientId
    ? (await valuesFor(db, scope.orgId, [clientId], publicUrl)).get(clientId)
    : undefined;
  const [me] = await db
    .select({ email: members.email })
    .from(members)
    .where(and(eq(members.orgId, scope.orgId), eq(members.id, scope.memberId)));
  if (!me) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  const rendered = renderFor(content, values ?? { pending: [] });
  return db.transaction(async (tx) => {
    await enqueueMail(
      tx,
      broadcastMessage(
        { ...rendered, subject: `[Test] ${rendered.subject}` },
        { email: me.email, cc: [], deliveryId: null, unsubscribeUrl: null },
        publicUrl,
      ),
      { orgId: scope.orgId },
    );
    await audit(tx, actorOf(scope, meta), {
      action: 'broadcast.testSent',
      recordType: 'broadcast',
      summary: `Sent a test of “${content.subject}” to ${me.email}`,
    });
    return { to: me.email };
  });
}

/**
 * Creates a broadcast and queues its first chunk of recipients; a larger audience queues the rest
 * on the job queue (queueing.ts). Sending starts now (on the queued ones) or at its time.
 */
export async function createBroadcast(
  db: TDb,
  scope: TFullScope,
  input: z.output<typeof ZBroadcastInput>,
  meta?: TRequestMeta,
) {
  const content = cleanContent(input);
  const sendAt = input.sendAt && input.sendAt.getTime() > Date.now() ? input.sendAt : new Date();
  const scheduled = sendAt.getTime() > Date.now() + 1000;
  return db.transaction(async (tx) => {
    let templateName: string | null = null;
    if (input.templateId) {
      const [t] = await tx
        .select({ id: broadcastTemplates.id, name: broadcastTemplates.name })
        .from(broadcastTemplates)
        .where(and(eq(broadcastTemplates.orgId, scope.orgId), eq(broadcastTemplates.id, input.templateId)));
      if (!t) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
      templateName = t.name;
    }
    const name = input.name || defaultBroadcastName(content.subject, templateName);
    if (!(await anyRecipient(tx, scope, input.audience, input.mode))) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'Nobody to send it to: no client in this audience can receive it',
      });
    }
    const [b] = await tx
      .insert(broadcasts)
      .values({
        orgId: scope.orgId,
        templateId: input.templateId ?? null,
        name,
        ...content,
        mode: input.mode,
        audience: input.audience,
        status: scheduled ? 'scheduled' : 'sending',
        sendAt,
        recipientCount: 0,
        queueing: true,
        createdBy: scope.memberId,
      })
      .returning({ id: broadcasts.id });
    if (!b) throw new Error('broadcast not created');
    const first = await queueNext(
      tx,
      scope,
      { id: b.id, audience: input.audience, mode: input.mode, sendAt },
      null,
    );
    if (first.more) await queueRest(tx, scope, b.id);
    const when = scheduled ? await firmDateTime(tx, scope.orgId, sendAt) : '';
    await audit(tx, actorOf(scope, meta), {
      action: 'broadcast.created',
      recordType: 'broadcast',
      recordId: b.id,
      summary: first.more
        ? `${scheduled ? `Scheduled for ${when}` : 'Sending'} the broadcast “${name}”, queueing its recipients`
        : `${scheduled ? `Scheduled for ${when}` : 'Sent'} the broadcast “${name}” to ${plural(first.added, 'recipient')}`,
    });
    // The pump starts on the first chunk; the queueing job queues it again when the last is in.
    await queuePump(tx, scope.orgId, sendAt);
    return {
      id: b.id,
      recipients: first.added,
      queueing: first.more,
      status: scheduled ? 'scheduled' : 'sending',
    };
  });
}

export type TBroadcastRow = {
  id: string;
  name: string;
  subject: string;
  status: TBroadcastStatus;
  mode: TBroadcastMode;
  sendAt: Date;
  createdAt: Date;
  completedAt: Date | null;
  pauseReason: string | null;
  createdBy: string | null;
  recipients: number;
  /** Its recipients are still being queued (recipients counts those queued so far). */
  queueing: boolean;
  counts: Partial<Record<TDeliveryState, number>>;
};

async function countsOf(db: TExecutor, orgId: string, ids: string[]) {
  const out = new Map<string, Partial<Record<TDeliveryState, number>>>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      id: broadcastDeliveries.broadcastId,
      state: broadcastDeliveries.state,
      n: sql<number>`count(*)::int`,
    })
    .from(broadcastDeliveries)
    .where(and(eq(broadcastDeliveries.orgId, orgId), inArray(broadcastDeliveries.broadcastId, ids)))
    .groupBy(broadcastDeliveries.broadcastId, broadcastDeliveries.state);
  for (const r of rows) {
    const m = out.get(r.id) ?? {};
    m[r.state] = Number(r.n);
    out.set(r.id, m);
  }
  return out;
}

const rowColumns = {
  id: broadcasts.id,
  name: broadcasts.name,
  subject: broadcasts.subject,
  status: broadcasts.status,
  mode: broadcasts.mode,
  sendAt: broadcasts.sendAt,
  createdAt: broadcasts.createdAt,
  completedAt: broadcasts.completedAt,
  pauseReason: broadcasts.pauseReason,
  recipients: broadcasts.recipientCount,
  queueing: broadcasts.queueing,
  createdBy: memberName,
};

export async function listBroadcasts(
  db: TExecutor,
  scope: TIds,
  input: { page: number; pageSize: number; search?: string },
): Promise<TPage<TBroadcastRow>> {
  const where = and(
    eq(broadcasts.orgId, scope.orgId),
    input.search
      ? or(
          ilike(broadcasts.name, escapeLike(input.search)),
          ilike(broadcasts.subject, escapeLike(input.search)),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(rowColumns)
      .from(broadcasts)
      .leftJoin(members, and(eq(members.orgId, broadcasts.orgId), eq(members.id, broadcasts.createdBy)))
      .where(where)
      .orderBy(desc(broadcasts.createdAt), desc(broadcasts.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(broadcasts).where(where),
  ]);
  const counts = await countsOf(
    db,
    scope.orgId,
    rows.map((r) => r.id),
  );
  return {
    rows: rows.map((r) => ({ ...r, counts: counts.get(r.id) ?? {} })),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

export async function getBroadcast(db: TExecutor, scope: TIds, id: string) {
  const [row] = await db
    .select({ ...rowColumns, bodyHtml: broadcasts.bodyHtml, audience: broadcasts.audience })
    .from(broadcasts)
    .leftJoin(members, and(eq(members.orgId, broadcasts.orgId), eq(members.id, broadcasts.createdBy)))
    .where(and(eq(broadcasts.orgId, scope.orgId), eq(broadcasts.id, id)));
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Broadcast not found' });
  const counts = await countsOf(db, scope.orgId, [id]);
  return { ...row, counts: counts.get(id) ?? {} };
}

export async function listDeliveries(
  db: TExecutor,
  scope: TIds,
  input: { id: string; page: number; pageSize: number; search?: string; state?: TDeliveryState | null },
) {
  await getBroadcast(db, scope, input.id);
  const where = and(
    eq(broadcastDeliveries.orgId, scope.orgId),
    eq(broadcastDeliveries.broadcastId, input.id),
    input.state ? eq(broadcastDeliveries.state, input.state) : undefined,
    input.search ? ilike(broadcastDeliveries.email, escapeLike(input.search)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: broadcastDeliveries.id,
        clientId: broadcastDeliveries.clientId,
        clientName: sql<
          string | null
        >`(select c.name from clients c where c.org_id = ${scope.orgId} and c.id = ${broadcastDeliveries.clientId})`,
        email: broadcastDeliveries.email,
        cc: broadcastDeliveries.cc,
        state: broadcastDeliveries.state,
        attempts: broadcastDeliveries.attempts,
        error: broadcastDeliveries.error,
        sentAt: broadcastDeliveries.sentAt,
        nextAttemptAt: broadcastDeliveries.nextAttemptAt,
      })
      .from(broadcastDeliveries)
      .where(where)
      .orderBy(broadcastDeliveries.state, broadcastDeliveries.id)
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(broadcastDeliveries).where(where),
  ]);
  return { rows, total: total?.n ?? 0, page: input.page, pageSize: input.pageSize };
}

const TRANSITIONS = {
  pause: { from: ['sending', 'scheduled'], to: 'paused', verb: 'Paused' },
  resume: { from: ['paused'], to: 'sending', verb: 'Resumed' },
  cancel: { from: ['sending', 'scheduled', 'paused'], to: 'cancelled', verb: 'Cancelled' },
} as const;

/** Pause, resume or cancel; a broadcast in another state answers CONFLICT and nothing changes. */
export async function transition(
  db: TDb,
  scope: TIds,
  id: string,
  action: keyof typeof TRANSITIONS,
  meta?: TRequestMeta,
) {
  const t = TRANSITIONS[action];
  return db.transaction(async (tx) => {
    const before = await getBroadcast(tx, scope, id);
    const [b] = await tx
      .update(broadcasts)
      .set({ status: t.to, pauseReason: null })
      .where(
        and(
          eq(broadcasts.orgId, scope.orgId),
          eq(broadcasts.id, id),
          inArray(broadcasts.status, [...t.from]),
        ),
      )
      .returning({ id: broadcasts.id, sendAt: broadcasts.sendAt });
    if (!b) {
      throw new TRPCError({
        code: 'CONFLICT',
        message: `A ${before.status} broadcast cannot be ${t.verb.toLowerCase()}`,
      });
    }
    await audit(tx, actorOf(scope, meta), {
      action: `broadcast.${action === 'pause' ? 'paused' : action === 'resume' ? 'resumed' : 'cancelled'}`,
      recordType: 'broadcast',
      recordId: id,
      summary: `${t.verb} the broadcast “${before.name}”`,
      changes: { status: { from: before.status, to: t.to } },
    });
    if (action === 'resume') await queuePump(tx, scope.orgId);
    return { id, status: t.to };
  });
}

/** "Retry the failed ones": failed and bounced deliveries go back to the queue, and it sends again. */
export async function retryFailed(db: TDb, scope: TIds, id: string, meta?: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await getBroadcast(tx, scope, id);
    if (before.status === 'cancelled') {
      throw new TRPCError({ code: 'CONFLICT', message: 'A cancelled broadcast cannot be retried' });
    }
    const retried = await tx
      .update(broadcastDeliveries)
      .set({ state: 'queued', attempts: 0, nextAttemptAt: new Date(), claimedBy: null, claimedUntil: null })
      .where(
        and(
          eq(broadcastDeliveries.orgId, scope.orgId),
          eq(broadcastDeliveries.broadcastId, id),
          or(eq(broadcastDeliveries.state, 'failed'), eq(broadcastDeliveries.state, 'bounced')),
        ),
      )
      .returning({ id: broadcastDeliveries.id });
    if (!retried.length) throw new TRPCError({ code: 'CONFLICT', message: 'No failed deliveries to retry' });
    await tx
      .update(broadcasts)
      .set({ status: 'sending', pauseReason: null, completedAt: null })
      .where(and(eq(broadcasts.orgId, scope.orgId), eq(broadcasts.id, id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'broadcast.retried',
      recordType: 'broadcast',
      recordId: id,
      summary: `Retrying ${plural(retried.length, 'failed delivery')} of “${before.name}”`.replace(
        'deliverys',
        'deliveries',
      ),
    });
    await queuePump(tx, scope.orgId);
    return { retried: retried.length };
  });
}

export async function getSettings(db: TExecutor, scope: TIds) {
  const [row] = await db
    .select({ ratePerSecond: broadcastSettings.ratePerSecond, dailyCap: broadcastSettings.dailyCap })
    .from(broadcastSettings)
    .where(eq(broadcastSettings.orgId, scope.orgId));
  return row ?? { ratePerSecond: DEFAULT_RATE_PER_SECOND, dailyCap: DEFAULT_DAILY_CAP };
}

export async function updateSettings(
  db: TDb,
  scope: TIds,
  input: z.output<typeof ZBroadcastSettings>,
  meta?: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await getSettings(tx, scope);
    await tx
      .insert(broadcastSettings)
      .values({ orgId: scope.orgId, ...input })
      .onConflictDoUpdate({ target: broadcastSettings.orgId, set: input });
    await audit(tx, actorOf(scope, meta), {
      action: 'broadcast.settings',
      recordType: 'broadcastSettings',
      summary: `Set the broadcast pace to ${input.ratePerSecond} a second, at most ${input.dailyCap} a day`,
      changes: {
        ratePerSecond: { from: before.ratePerSecond, to: input.ratePerSecond },
        dailyCap: { from: before.dailyCap, to: input.dailyCap },
      },
    });
    return input;
  });
}

/** The broadcasts a client received (its deliveries), newest first. */
export async function clientBroadcasts(
  db: TExecutor,
  scope: TFullScope,
  input: { clientId: string; page: number; pageSize: number },
) {
  await visibleClient(db, scope, input.clientId);
  const where = and(
    eq(broadcastDeliveries.orgId, scope.orgId),
    eq(broadcastDeliveries.clientId, input.clientId),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        deliveryId: broadcastDeliveries.id,
        broadcastId: broadcasts.id,
        name: broadcasts.name,
        subject: broadcasts.subject,
        broadcastStatus: broadcasts.status,
        email: broadcastDeliveries.email,
        state: broadcastDeliveries.state,
        error: broadcastDeliveries.error,
        sentAt: broadcastDeliveries.sentAt,
        sendAt: broadcasts.sendAt,
      })
      .from(broadcastDeliveries)
      .innerJoin(
        broadcasts,
        and(
          eq(broadcasts.orgId, broadcastDeliveries.orgId),
          eq(broadcasts.id, broadcastDeliveries.broadcastId),
        ),
      )
      .where(where)
      .orderBy(desc(broadcasts.sendAt), desc(broadcastDeliveries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(broadcastDeliveries).where(where),
  ]);
  return { rows, total: total?.n ?? 0, page: input.page, pageSize: input.pageSize };
}
