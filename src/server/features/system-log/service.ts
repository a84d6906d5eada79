import { and, count, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TPage } from '../../../domain/pagination';
import type { TSystemLogListQuery } from '../../../domain/system-log';
import type { TExecutor } from '../../db/client';
import { members, systemLog } from '../../db/schema';
import type { TRequestMeta } from '../../trpc/context';

export type TActor =
  | { kind: 'member'; orgId: string; memberId: string; meta?: TRequestMeta }
  | { kind: 'client_user'; orgId: string; clientUserId: string; meta?: TRequestMeta }
  | { kind: 'system'; orgId: string };

export type TAuditEntry = {
  action: string;
  recordType: string;
  recordId?: string | null;
  summary: string;
  changes?: Record<string, { from: unknown; to: unknown }> | null;
};

/** Call inside the mutation's transaction so the change and its log row commit together. */
export async function audit(tx: TExecutor, actor: TActor, entry: TAuditEntry): Promise<void> {
  const meta = 'meta' in actor ? actor.meta : undefined;
  await tx.insert(systemLog).values({
    orgId: actor.orgId,
    actorKind: actor.kind,
    actorMemberId: actor.kind === 'member' ? actor.memberId : null,
    actorClientUserId: actor.kind === 'client_user' ? actor.clientUserId : null,
    action: entry.action,
    recordType: entry.recordType,
    recordId: entry.recordId ?? null,
    summary: entry.summary,
    changes: entry.changes ?? null,
    ip: meta?.ip ?? null,
    userAgent: meta?.userAgent ?? null,
  });
}

/** Only the fields whose value changed, as { field: { from, to } }; null when nothing changed. */
export function diff<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, to] of Object.entries(after)) {
    const from = before[key];
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return Object.keys(changes).length ? changes : null;
}

export type TSystemLogRow = {
  id: string;
  at: Date;
  action: string;
  recordType: string;
  recordId: string | null;
  summary: string;
  changes: Record<string, { from: unknown; to: unknown }> | null;
  ip: string | null;
  actorKind: 'member' | 'client_user' | 'system';
  actorMemberId: string | null;
  actorName: string | null;
};

const SORT_COLUMNS = {
  at: systemLog.at,
  action: systemLog.action,
  recordType: systemLog.recordType,
} as const;

export async function listSystemLog(
  db: TExecutor,
  scope: { orgId: string },
  input: TSystemLogListQuery,
): Promise<TPage<TSystemLogRow>> {
  const where: SQL[] = [eq(systemLog.orgId, scope.orgId)];
  if (input.actorId) where.push(eq(systemLog.actorMemberId, input.actorId));
  if (input.recordType) where.push(eq(systemLog.recordType, input.recordType));
  if (input.action) where.push(eq(systemLog.action, input.action));
  if (input.from) where.push(gte(systemLog.at, input.from));
  if (input.to) where.push(lte(systemLog.at, input.to));
  if (input.search) {
    const term = `%${input.search.replace(/[\\%_]/g, '\\$&')}%`;
    const match = or(ilike(systemLog.summary, term), ilike(systemLog.recordId, term));
    if (match) where.push(match);
  }
  const filter = and(...where);
  // Spelled out to match system_log_org_at_idx (at DESC NULLS LAST, id DESC NULLS LAST): a bare
  // `desc` means NULLS FIRST, which the index cannot serve, and PostgreSQL then sorts every row of
  // the org for each page. The columns are NOT NULL, so the order is the same either way.
  const order = (column: AnyPgColumn) =>
    input.direction === 'asc' ? sql`${column} asc nulls first` : sql`${column} desc nulls last`;
  const offset = (input.page - 1) * input.pageSize;

  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: systemLog.id,
        at: systemLog.at,
        action: systemLog.action,
        recordType: systemLog.recordType,
        recordId: systemLog.recordId,
        summary: systemLog.summary,
        changes: systemLog.changes,
        ip: systemLog.ip,
        actorKind: systemLog.actorKind,
        actorMemberId: systemLog.actorMemberId,
        actorName: sql<string | null>`nullif(trim(${members.firstName} || ' ' || ${members.lastName}), '')`,
      })
      .from(systemLog)
      .leftJoin(members, and(eq(members.orgId, systemLog.orgId), eq(members.id, systemLog.actorMemberId)))
      .where(filter)
      // The id breaks ties so pages never repeat or skip a row.
      .orderBy(order(SORT_COLUMNS[input.sort]), order(systemLog.id))
      .limit(input.pageSize)
      .offset(offset),
    db.select({ total: count() }).from(systemLog).where(filter),
  ]);
  return { rows, total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}
