import { type SQL, sql } from 'drizzle-orm';
import type { TAudience, TBroadcastMode, TExcludedReason } from '../../../domain/broadcasts';
import { todayIn } from '../../../domain/days';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { firmOf } from './context';

// Who a broadcast reaches, in one place: the preview counts it, the send queues it, with the same
// SQL. Everything runs in the database; the send queues a chunk of clients per statement
// (queueing.ts), so no single statement holds PGlite's one thread for long.

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** The clients the filters choose (alias `c`), as the caller may see them. */
async function clientFilter(
  db: TExecutor,
  scope: Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>,
  a: TAudience,
): Promise<SQL> {
  const where: SQL[] = [sql`c.org_id = ${scope.orgId}`, sql`c.archived_at is null`];
  if (scope.assignedClientsOnly) {
    where.push(sql`c.id in (select client_id from client_team
      where org_id = ${scope.orgId} and member_id = ${scope.memberId})`);
  }
  if (a.clientIds?.length) {
    where.push(
      sql`c.id in (select x::uuid from jsonb_array_elements_text(${JSON.stringify(a.clientIds)}::jsonb) x)`,
    );
  }
  if (a.groupIds.length) where.push(sql`c.group_id in (${list(a.groupIds)})`);
  if (a.types.length) where.push(sql`c.type in (${list(a.types)})`);
  if (a.statuses.length) where.push(sql`c.status in (${list(a.statuses)})`);
  if (a.tags.length) where.push(sql`c.tags && array[${list(a.tags)}]::text[]`);
  if (a.serviceIds.length || a.overdueOnly) {
    const { timeZone } = await firmOf(db, scope.orgId);
    const day = todayIn(timeZone);
    if (a.serviceIds.length) {
      where.push(sql`exists (select 1 from client_services cs
        where cs.org_id = c.org_id and cs.client_id = c.id and cs.service_id in (${list(a.serviceIds)})
          and (cs.end_date is null or cs.end_date >= ${day}::date))`);
    }
    if (a.overdueOnly) {
      where.push(sql`(exists (select 1 from tasks t
          where t.org_id = c.org_id and t.client_id = c.id and t.completed_date is null
            and t.status <> 'COMPLETED' and t.due_date < ${day}::date)
        or exists (select 1 from projects p
          where p.org_id = c.org_id and p.client_id = c.id and p.completed_date is null
            and p.status <> 'COMPLETED' and p.archived_at is null and p.due_date < ${day}::date))`);
    }
  }
  const portal = sql`exists (select 1 from client_user_clients cuc
    join client_users cu on cu.org_id = cuc.org_id and cu.id = cuc.client_user_id
    where cuc.org_id = c.org_id and cuc.client_id = c.id and cu.status = 'active')`;
  if (a.portalAccess === 'with') where.push(portal);
  if (a.portalAccess === 'without') where.push(sql`not ${portal}`);
  return sql.join(where, sql` and `);
}

/**
 * `scored`: one row per would-be recipient, with `reason` null when it is sent and the reason it is
 * left out otherwise. Per client: the client's own address. Per person: the client's address and
 * each active portal person's, each address once.
 */
async function scoredCte(
  db: TExecutor,
  scope: Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>,
  audience: TAudience,
  mode: TBroadcastMode,
  /** Only the `limit` clients after `after`, by id (a chunk of the send). */
  range?: { after: string | null; limit: number },
): Promise<SQL> {
  const filter = await clientFilter(db, scope, audience);
  const aud = range
    ? sql`select c.id, c.name, c.email from clients c where ${filter}
        ${range.after ? sql`and c.id > ${range.after}::uuid` : sql``} order by c.id limit ${range.limit}`
    : sql`select c.id, c.name, c.email from clients c where ${filter}`;
  const cand =
    mode === 'client'
      ? sql`cand as (
          select a.id as client_id, a.name as client_name, nullif(trim(a.email), '') as email,
            null::text as contact_name, 'client:' || a.id as recipient_key
          from aud a)`
      : sql`people as (
          select a.id as client_id, a.name as client_name, trim(a.email) as email, null::text as contact_name, 0 as rank
          from aud a where nullif(trim(a.email), '') is not null
          union all
          select a.id, a.name, cu.email, cu.name, 1
          from aud a
          join client_user_clients cuc on cuc.org_id = ${scope.orgId} and cuc.client_id = a.id
          join client_users cu on cu.org_id = cuc.org_id and cu.id = cuc.client_user_id and cu.status = 'active'),
        cand as (
          select * from (
            select distinct on (lower(email)) client_id, client_name, email, contact_name,
              'email:' || lower(email) as recipient_key
            from people order by lower(email), client_name, rank) d
          union all
          select a.id, a.name, null, null, 'client:' || a.id
          from aud a where not exists (select 1 from people p where p.client_id = a.id))`;
  return sql`with aud as (${aud}),
    ${cand},
    scored as (
      select cand.*, case when cand.email is null then 'no_email' else s.reason end as reason
      from cand left join broadcast_suppressions s on s.org_id = ${scope.orgId} and s.email = lower(cand.email))`;
}

/** The portal people copied on a per-client mail (not suppressed, not the client's own address). */
const ccOf = (orgId: string) => sql`coalesce((
  select array_agg(cu.email order by cu.email)
  from client_user_clients cuc
  join client_users cu on cu.org_id = cuc.org_id and cu.id = cuc.client_user_id
  where cuc.org_id = ${orgId} and cuc.client_id = scored.client_id and cu.status = 'active'
    and cu.email <> lower(scored.email)
    and not exists (select 1 from broadcast_suppressions s2 where s2.org_id = ${orgId} and s2.email = cu.email)
), '{}'::text[])`;

export type TAudienceSummary = {
  recipients: number;
  excluded: Record<TExcludedReason, number>;
  /** The first recipients, by client name, for the per-recipient preview. */
  sample: { clientId: string; clientName: string; email: string; cc: string[] }[];
  /** The first of those left out, and why. */
  left: { clientId: string; clientName: string; email: string | null; reason: TExcludedReason }[];
};

const SAMPLE = 50;

export async function summarize(
  db: TExecutor,
  scope: Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>,
  audience: TAudience,
  mode: TBroadcastMode,
): Promise<TAudienceSummary> {
  const cte = await scoredCte(db, scope, audience, mode);
  const counts = rowsOf<{ reason: string | null; n: number | string }>(
    await db.execute(sql`${cte} select reason, count(*) as n from scored group by reason`),
  );
  const sample = rowsOf<{ client_id: string; client_name: string; email: string; cc: string[] }>(
    await db.execute(sql`${cte}
      select client_id, client_name, email, ${mode === 'client' ? ccOf(scope.orgId) : sql`'{}'::text[]`} as cc
      from scored where reason is null order by client_name, email limit ${SAMPLE}`),
  );
  const left = rowsOf<{
    client_id: string;
    client_name: string;
    email: string | null;
    reason: TExcludedReason;
  }>(
    await db.execute(sql`${cte}
      select client_id, client_name, email, reason from scored where reason is not null
      order by client_name, email limit ${SAMPLE}`),
  );
  const excluded: Record<TExcludedReason, number> = { no_email: 0, unsubscribed: 0, bounced: 0 };
  let recipients = 0;
  for (const c of counts) {
    if (c.reason === null) recipients = Number(c.n);
    else excluded[c.reason as TExcludedReason] = Number(c.n);
  }
  return {
    recipients,
    excluded,
    sample: sample.map((s) => ({
      clientId: s.client_id,
      clientName: s.client_name,
      email: s.email,
      cc: s.cc ?? [],
    })),
    left: left.map((l) => ({
      clientId: l.client_id,
      clientName: l.client_name,
      email: l.email,
      reason: l.reason,
    })),
  };
}

/** Whether anyone in the audience can receive it (stops at the first, not a count). */
export async function anyRecipient(
  db: TExecutor,
  scope: Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>,
  audience: TAudience,
  mode: TBroadcastMode,
): Promise<boolean> {
  const cte = await scoredCte(db, scope, audience, mode);
  return rowsOf(await db.execute(sql`${cte} select 1 from scored where reason is null limit 1`)).length > 0;
}

/**
 * Queues a delivery per recipient among the `limit` clients after `after` (by id), in one statement;
 * the unique (broadcast, recipient) key makes a second run a no-op. Per person, an address shared by
 * clients of different chunks goes with the first chunk's client. Answers the chunk's last client
 * (null when the chunk was empty), how many clients it held and how many deliveries it added.
 */
export async function queueChunk(
  tx: TExecutor,
  scope: Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>,
  broadcast: { id: string; audience: TAudience; mode: TBroadcastMode; sendAt: Date },
  after: string | null,
  limit: number,
): Promise<{ last: string | null; clients: number; added: number }> {
  const cte = await scoredCte(tx, scope, broadcast.audience, broadcast.mode, { after, limit });
  const [row] = rowsOf<{ last: string | null; clients: number | string; added: number | string }>(
    await tx.execute(sql`${cte},
    ins as (insert into broadcast_deliveries
      (id, org_id, broadcast_id, recipient_key, client_id, email, contact_name, cc, state, next_attempt_at)
    select gen_random_uuid(), ${scope.orgId}, ${broadcast.id}, recipient_key, client_id, email, contact_name,
      ${broadcast.mode === 'client' ? ccOf(scope.orgId) : sql`'{}'::text[]`}, 'queued', ${broadcast.sendAt.toISOString()}::timestamptz
    from scored where reason is null
    on conflict (broadcast_id, recipient_key) do nothing
    returning 1)
    select (select id from aud order by id desc limit 1) as last, (select count(*) from aud) as clients,
      (select count(*) from ins) as added`),
  );
  return { last: row?.last ?? null, clients: Number(row?.clients ?? 0), added: Number(row?.added ?? 0) };
}
