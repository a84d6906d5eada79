import { and, count, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TPage } from '../../../domain/pagination';
import type { TSystemLogFilter, TSystemLogListQuery } from '../../../domain/system-log';
import type { TActor } from '../../auth';
import type { TExecutor } from '../../db/client';
import {
  apiKeys,
  clients,
  clientUserClients,
  clientUsers,
  documents,
  members,
  systemLog,
  tasks,
} from '../../db/schema';
import { cappedCount, escapeLike } from '../../db/sql';

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
    actorApiKeyId: meta?.apiKeyId ?? null,
    action: entry.action,
    recordType: entry.recordType,
    recordId: entry.recordId ?? null,
    summary: actor.kind === 'automation' ? `${entry.summary} (by rule ${actor.ruleName})` : entry.summary,
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
  userAgent: string | null;
  actorKind: 'member' | 'client_user' | 'system' | 'automation';
  actorMemberId: string | null;
  actorClientUserId: string | null;
  /** The member's name, or the client user's for a portal action. */
  actorName: string | null;
  /** For a portal action: the client the person acted for (see actorClientName below). */
  actorClientName: string | null;
};

/** "Priya Mehta (Mehta Traders)" for a portal action, the member's name otherwise. */
export function actorDisplayName(row: Pick<TSystemLogRow, 'actorName' | 'actorClientName'>) {
  if (!row.actorName) return null;
  return row.actorClientName ? `${row.actorName} (${row.actorClientName})` : row.actorName;
}

const UUID_RE = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * The client a portal action was for. The log row names the client user, who may act for several
 * clients: the client of the record acted on (a document's or a task's) when there is one, else
 * the clients the person may act for. Null for members and the system.
 */
const actorClientName = sql<string | null>`case when ${systemLog.actorKind} = 'client_user' then coalesce(
  (select ${clients.name} from ${clients} where ${clients.orgId} = ${systemLog.orgId} and ${clients.id} = (
    case when ${systemLog.recordId} ~ ${UUID_RE} then case ${systemLog.recordType}
      when 'document' then (select ${documents.clientId} from ${documents}
        where ${documents.orgId} = ${systemLog.orgId} and ${documents.id} = ${systemLog.recordId}::uuid)
      when 'task' then (select ${tasks.clientId} from ${tasks}
        where ${tasks.orgId} = ${systemLog.orgId} and ${tasks.id} = ${systemLog.recordId}::uuid)
    end end)),
  (select string_agg(${clients.name}, ', ' order by ${clients.name}) from ${clientUserClients}
    join ${clients} on ${clients.orgId} = ${clientUserClients.orgId} and ${clients.id} = ${clientUserClients.clientId}
    where ${clientUserClients.orgId} = ${systemLog.orgId}
      and ${clientUserClients.clientUserId} = ${systemLog.actorClientUserId})
) end`;

const SORT_COLUMNS = {
  at: systemLog.at,
  action: systemLog.action,
  recordType: systemLog.recordType,
} as const;

/** The where clause of a filter, always inside the caller's firm. */
/** Who reads the log: the firm's id, and whether they see only their own entries. */
export type TLogReader = { orgId: string; memberId: string; assignedClientsOnly: boolean };

/**
 * The firm's log names every client in its summaries, so a member limited to the clients they are
 * assigned to reads only the entries of their own actions, whatever the right to read the log says
 * (one rule for the log screen, its export and the dashboard's activity).
 */
export function seesFirmLog(reader: Pick<TLogReader, 'assignedClientsOnly'>): boolean {
  return !reader.assignedClientsOnly;
}

function readable<T extends TSystemLogFilter>(reader: TLogReader, input: T): T {
  return seesFirmLog(reader) ? input : { ...input, actorId: reader.memberId };
}

function filterWhere(orgId: string, input: TSystemLogFilter, until?: Date) {
  const where: SQL[] = [eq(systemLog.orgId, orgId)];
  if (input.actorId) where.push(eq(systemLog.actorMemberId, input.actorId));
  if (input.recordType) where.push(eq(systemLog.recordType, input.recordType));
  if (input.action) where.push(eq(systemLog.action, input.action));
  if (input.from) where.push(gte(systemLog.at, input.from));
  if (input.to) where.push(lte(systemLog.at, input.to));
  if (until) where.push(lte(systemLog.at, until));
  if (input.search) {
    const term = escapeLike(input.search);
    const match = or(
      ilike(systemLog.summary, term),
      ilike(systemLog.recordId, term),
      ilike(systemLog.action, term),
      ilike(systemLog.recordType, term),
    );
    if (match) where.push(match);
  }
  return and(...where);
}

function selectRows(db: TExecutor, orgId: string, input: TSystemLogFilter, until?: Date) {
  // PostgreSQL's own orders, which system_log_org_at_idx (at DESC NULLS FIRST, id DESC NULLS FIRST)
  // serves forwards and backwards: an index in another null order makes it sort every row of the
  // firm for each page (db/index-order.test.ts).
  const order = (column: AnyPgColumn) =>
    input.direction === 'asc' ? sql`${column} asc` : sql`${column} desc`;
  return (
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
        userAgent: systemLog.userAgent,
        actorKind: systemLog.actorKind,
        actorMemberId: systemLog.actorMemberId,
        actorClientUserId: systemLog.actorClientUserId,
        // A call made with an API key names the key, then the member who made it.
        actorName: sql<string | null>`case when ${systemLog.actorApiKeyId} is null
          then coalesce(nullif(trim(${members.firstName} || ' ' || ${members.lastName}), ''), ${clientUsers.name})
          else 'API key ' || (select ${apiKeys.name} from ${apiKeys} where ${apiKeys.orgId} = ${systemLog.orgId}
            and ${apiKeys.id} = ${systemLog.actorApiKeyId})
            || coalesce(' (' || nullif(trim(${members.firstName} || ' ' || ${members.lastName}), '') || ')', '') end`,
        actorClientName,
      })
      .from(systemLog)
      .leftJoin(members, and(eq(members.orgId, systemLog.orgId), eq(members.id, systemLog.actorMemberId)))
      .leftJoin(
        clientUsers,
        and(eq(clientUsers.orgId, systemLog.orgId), eq(clientUsers.id, systemLog.actorClientUserId)),
      )
      .where(filterWhere(orgId, input, until))
      // The id breaks ties so pages never repeat or skip a row.
      .orderBy(order(SORT_COLUMNS[input.sort]), order(systemLog.id))
  );
}

export async function listSystemLog(
  db: TExecutor,
  scope: TLogReader,
  query: TSystemLogListQuery,
): Promise<TPage<TSystemLogRow>> {
  const input = readable(scope, query);
  const offset = (input.page - 1) * input.pageSize;
  // The count stops at the cap ("10,000+"), as the other long lists': a firm's log grows by
  // thousands a week, and counting it all was most of each page (32 ms for 200,000 rows).
  const [rows, counts] = await Promise.all([
    selectRows(db, scope.orgId, input).limit(input.pageSize).offset(offset),
    cappedCount(
      db,
      db.select({ one: systemLog.id }).from(systemLog).where(filterWhere(scope.orgId, input)).$dynamic(),
    ),
  ]);
  return { rows, ...counts, page: input.page, pageSize: input.pageSize };
}

/** What the filter selects offer: the firm's record types and actions, and the members who acted. */
export async function systemLogFacets(db: TExecutor, scope: TLogReader) {
  const own = seesFirmLog(scope) ? undefined : eq(members.id, scope.memberId);
  const [recordTypes, actions, actors] = await Promise.all([
    db
      .selectDistinct({ value: systemLog.recordType })
      .from(systemLog)
      .where(eq(systemLog.orgId, scope.orgId))
      .orderBy(systemLog.recordType),
    db
      .selectDistinct({ value: systemLog.action })
      .from(systemLog)
      .where(eq(systemLog.orgId, scope.orgId))
      .orderBy(systemLog.action),
    // Every member of the firm, not only those in the log: "nothing by this person" is an answer too.
    db
      .select({
        id: members.id,
        name: sql<string>`coalesce(nullif(trim(${members.firstName} || ' ' || ${members.lastName}), ''), ${members.email})`,
      })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), own))
      .orderBy(members.firstName, members.lastName, members.email)
      .limit(1000),
  ]);
  return {
    recordTypes: recordTypes.map((r) => r.value),
    actions: actions.map((r) => r.value),
    actors,
  };
}

const EXPORT_BATCH = 500;

/**
 * Every row of a filter, a batch at a time, as it stood when the export began: rows written after
 * `until` are left out, so offsets stay put while the firm keeps working.
 */
export async function* systemLogRowsForExport(
  db: TExecutor,
  scope: TLogReader,
  filter: TSystemLogFilter,
  until: Date,
): AsyncGenerator<TSystemLogRow[]> {
  const input = readable(scope, filter);
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const rows = await selectRows(db, scope.orgId, input, until).limit(EXPORT_BATCH).offset(offset);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH) return;
  }
}

export async function countSystemLog(
  db: TExecutor,
  scope: TLogReader,
  filter: TSystemLogFilter,
  until: Date,
) {
  const input = readable(scope, filter);
  const [totals] = await db
    .select({ total: count() })
    .from(systemLog)
    .where(filterWhere(scope.orgId, input, until));
  return totals?.total ?? 0;
}
