import { TRPCError } from '@trpc/server';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { gstStateLabel } from '../../../domain/billing/gst-states';
import { BROADCAST_NAME_MAX } from '../../../domain/broadcasts';
import { OPEN_REQUEST_STATUSES } from '../../../domain/requests/constants';
import { findFiling, notInReleaseMessage, type TCatalogueRelease } from '../../../domain/statutory/catalogue';
import { filingDueDate, filingPeriodByKey } from '../../../domain/statutory/rules';
import {
  defaultExtensionNotice,
  extensionProblems,
  type TExtensionInput,
  type TExtensionNotice,
} from '../../../domain/statutory/schemas';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor, TTx } from '../../db/client';
import { filingExtensions } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { fieldInvalid } from '../../trpc/field-errors';
import { createBroadcast } from '../broadcasts';
import { firmFormatter } from '../settings';
import { audit as writeAudit } from '../system-log';
import { firmRelease } from './service';

// Government extensions of a filing's due date (issue 39): recorded once, previewed (the projects,
// and their open tasks, reminders and requests, that move), then applied in one transaction.

const uuidv7 = sql.raw(`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
  substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6),
  52, 1), 53, 1), 'hex')::uuid`);

type TExtension = typeof filingExtensions.$inferSelect;

/** An extension in words, by the firm's version of the catalogue (its periods and statutory date). */
function describe(
  e: Pick<TExtension, 'filingCode' | 'periodKey' | 'stateCode' | 'dueDate'>,
  release: TCatalogueRelease,
) {
  // A filing the firm's version lacks (none is recorded since the server checks) is still named.
  const filing = findFiling(e.filingCode, release) ?? findFiling(e.filingCode);
  const period = filing ? filingPeriodByKey(filing, e.periodKey) : null;
  return {
    filingName: filing?.name ?? e.filingCode,
    periodLabel: period?.label ?? e.periodKey,
    statutoryDue: filing && period ? filingDueDate(filing, period.end) : null,
    stateLabel: e.stateCode ? gstStateLabel(e.stateCode) : null,
  };
}

export async function listExtensions(db: TExecutor, scope: TScope) {
  const release = await firmRelease(db, scope.orgId);
  const rows = await db
    .select()
    .from(filingExtensions)
    .where(eq(filingExtensions.orgId, scope.orgId))
    .orderBy(desc(filingExtensions.createdAt), desc(filingExtensions.id))
    .limit(200);
  return rows.map((r) => ({
    id: r.id,
    filingCode: r.filingCode,
    periodKey: r.periodKey,
    stateCode: r.stateCode,
    dueDate: r.dueDate,
    note: r.note,
    appliedAt: r.appliedAt,
    projectsMoved: r.projectsMoved,
    createdAt: r.createdAt,
    ...describe(r, release),
  }));
}

export async function createExtension(db: TDb, scope: TScope, input: TExtensionInput, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    // The form offers the firm's version of the catalogue; a filing only a newer one has, or a
    // period or date its version reads otherwise, is refused here.
    const release = await firmRelease(tx, scope.orgId);
    const filing = findFiling(input.filingCode, release);
    if (!filing) {
      throw fieldInvalid('filingCode', notInReleaseMessage(input.filingCode, release));
    }
    const [problem] = extensionProblems(input, filing);
    if (problem) throw fieldInvalid(problem.field, problem.message);
    const [row] = await tx
      .insert(filingExtensions)
      .values({ orgId: scope.orgId, ...input, createdBy: scope.memberId })
      .returning({ id: filingExtensions.id });
    if (!row) throw new Error('extension not created');
    const d = describe(input, release);
    const when = (await firmFormatter(tx, scope.orgId)).date;
    await audit(tx, scope, meta, {
      action: 'filing_extension.create',
      recordType: 'filing_extension',
      recordId: row.id,
      summary: `Recorded an extension of ${d.filingName} for ${d.periodLabel}${d.stateLabel ? ` in ${d.stateLabel}` : ''} to ${when(input.dueDate)}`,
    });
    return { id: row.id };
  });
}

function audit(
  tx: TExecutor,
  scope: TScope,
  meta: TRequestMeta,
  entry: { action: string; recordType: string; recordId: string; summary: string },
) {
  return writeAudit(tx, actorOf(scope, meta), entry);
}

async function extensionOf(db: TExecutor, scope: TScope, extensionId: string, lock = false) {
  const query = db
    .select()
    .from(filingExtensions)
    .where(and(eq(filingExtensions.orgId, scope.orgId), eq(filingExtensions.id, extensionId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Extension not found' });
  return row;
}

/**
 * The projects an extension moves: open projects of the firm's services linked to the filing, for
 * that period, due before the new date, of clients registered in the state when it names one.
 */
function affected(orgId: string, e: TExtension, newDueLabel = ''): SQL {
  return sql`
    select p.id, p.name, p.client_id, p.due_date, ${e.dueDate}::date as new_due, ${newDueLabel}::text as new_due_label,
           (${e.dueDate}::date - p.due_date)::int as delta
    from projects p
    join services s on s.org_id = p.org_id and s.id = p.service_id
    ${e.stateCode ? sql`join client_registrations r on r.org_id = p.org_id and r.client_id = p.client_id and r.gst_state = ${e.stateCode}` : sql``}
    where p.org_id = ${orgId} and s.statutory_filing_code = ${e.filingCode} and p.period_key = ${e.periodKey}
      and p.status <> 'COMPLETED' and p.archived_at is null and p.due_date < ${e.dueDate}::date`;
}

const openRequests = sql.join(
  OPEN_REQUEST_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);

export type TPreviewRow = {
  projectId: string;
  projectName: string;
  clientId: string;
  clientName: string;
  dueDate: string;
  newDueDate: string;
  tasks: number;
  reminders: number;
  requests: number;
};

/** What applying the extension would move (the first 200 projects, and the totals). */
export async function previewExtension(db: TExecutor, scope: TScope, extensionId: string) {
  const e = await extensionOf(db, scope, extensionId);
  const result = await db.execute(sql`
    with moved as (${affected(scope.orgId, e)}),
    t as (select t.project_id, count(*)::int as n from tasks t join moved m on m.id = t.project_id
          where t.org_id = ${scope.orgId} and t.status <> 'COMPLETED' and t.due_date is not null group by t.project_id),
    rm as (select r.project_id, count(*)::int as n from reminders r join moved m on m.id = r.project_id
           where r.org_id = ${scope.orgId} and r.status = 'scheduled' group by r.project_id),
    rq as (select q.project_id, count(*)::int as n from requests q join moved m on m.id = q.project_id
           where q.org_id = ${scope.orgId} and q.status in (${openRequests}) group by q.project_id)
    select m.id, m.name, m.client_id, c.name as client_name, m.due_date::text as due_date,
           coalesce(t.n, 0) as tasks, coalesce(rm.n, 0) as reminders, coalesce(rq.n, 0) as requests,
           count(*) over ()::int as total, sum(coalesce(t.n, 0)) over ()::int as total_tasks,
           sum(coalesce(rm.n, 0)) over ()::int as total_reminders, sum(coalesce(rq.n, 0)) over ()::int as total_requests
    from moved m
    join clients c on c.org_id = ${scope.orgId} and c.id = m.client_id
    left join t on t.project_id = m.id left join rm on rm.project_id = m.id left join rq on rq.project_id = m.id
    order by m.due_date, c.name, m.id
    limit 200`);
  type TRow = {
    id: string;
    name: string;
    client_id: string;
    client_name: string;
    due_date: string;
    tasks: number;
    reminders: number;
    requests: number;
    total: number;
    total_tasks: number;
    total_reminders: number;
    total_requests: number;
  };
  const rows = rowsOf<TRow>(result);
  const first = rows[0];
  const d = describe(e, await firmRelease(db, scope.orgId));
  const when = (await firmFormatter(db, scope.orgId)).date;
  return {
    extension: { id: e.id, dueDate: e.dueDate, appliedAt: e.appliedAt, ...d },
    /** The default broadcast that tells the affected clients. */
    notice: defaultExtensionNotice({
      filingName: d.filingName,
      periodLabel: d.periodLabel,
      stateLabel: d.stateLabel,
      oldDue: d.statutoryDue ? when(d.statutoryDue) : '',
      newDue: when(e.dueDate),
    }),
    totals: {
      projects: Number(first?.total ?? 0),
      tasks: Number(first?.total_tasks ?? 0),
      reminders: Number(first?.total_reminders ?? 0),
      requests: Number(first?.total_requests ?? 0),
    },
    rows: rows.map(
      (r): TPreviewRow => ({
        projectId: r.id,
        projectName: r.name,
        clientId: r.client_id,
        clientName: r.client_name,
        dueDate: String(r.due_date).slice(0, 10),
        newDueDate: e.dueDate,
        tasks: Number(r.tasks),
        reminders: Number(r.reminders),
        requests: Number(r.requests),
      }),
    ),
  };
}

/**
 * Applies the extension: every affected project's due date becomes the new one, its open tasks (and
 * their assignees' copies), scheduled reminders and open requests move by the same number of days;
 * each project gets a system-log row, the extension one too. One statement, one transaction; an
 * extension is applied once.
 */
export async function applyExtension(
  db: TDb,
  scope: TScope,
  extensionId: string,
  notice: TExtensionNotice | null,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const e = await extensionOf(tx, scope, extensionId, true);
    if (e.appliedAt)
      throw new TRPCError({ code: 'CONFLICT', message: 'This extension has already been applied' });
    const d = describe(e, await firmRelease(tx, scope.orgId));
    const when = (await firmFormatter(tx, scope.orgId)).date;
    const { clientIds, ...moved } = await moveProjects(
      tx,
      scope,
      affected(scope.orgId, e, when(e.dueDate)),
      `extension of ${d.filingName}`,
    );
    await tx
      .update(filingExtensions)
      .set({ appliedAt: new Date(), projectsMoved: moved.projects, updatedAt: new Date() })
      .where(and(eq(filingExtensions.orgId, scope.orgId), eq(filingExtensions.id, e.id)));
    await audit(tx, scope, meta, {
      action: 'filing_extension.apply',
      recordType: 'filing_extension',
      recordId: e.id,
      summary: `Applied the extension of ${d.filingName} for ${d.periodLabel}${d.stateLabel ? ` in ${d.stateLabel}` : ''} to ${when(e.dueDate)}: ${moved.projects} projects, ${moved.tasks} tasks, ${moved.reminders} reminders, ${moved.requests} requests moved`,
    });
    const told = notice && clientIds.length ? await tellClients(tx, scope, d, clientIds, notice, meta) : null;
    return { ...moved, clients: clientIds.length, ...told };
  });
}

/**
 * The broadcast that tells the clients whose projects moved, made by the broadcasts feature in the
 * same transaction (its audience exactly those clients, its rules for who is left out and why).
 * When none of them can receive it (no email, unsubscribed, bounced) the extension still applies
 * and the answer says why nothing was sent.
 */
async function tellClients(
  tx: TTx,
  scope: TScope,
  d: ReturnType<typeof describe>,
  clientIds: string[],
  notice: TExtensionNotice,
  meta: TRequestMeta,
): Promise<{
  broadcast: { id: string; recipients: number; queueing: boolean } | null;
  notSent: string | null;
}> {
  try {
    const b = await createBroadcast(
      tx,
      scope,
      {
        name: `Extension: ${d.filingName} ${d.periodLabel}`.slice(0, BROADCAST_NAME_MAX),
        subject: notice.subject,
        bodyHtml: notice.bodyHtml,
        templateId: notice.templateId ?? null,
        audience: {
          groupIds: [],
          serviceIds: [],
          tags: [],
          types: [],
          statuses: [],
          portalAccess: 'any',
          overdueOnly: false,
          clientIds,
        },
        mode: 'client',
        sendAt: null,
      },
      meta,
    );
    return { broadcast: { id: b.id, recipients: b.recipients, queueing: b.queueing }, notSent: null };
  } catch (error) {
    // The broadcast's savepoint is rolled back; the extension stands.
    if (error instanceof TRPCError && error.code === 'BAD_REQUEST')
      return { broadcast: null, notSent: error.message };
    throw error;
  }
}

export type TMoved = {
  projects: number;
  tasks: number;
  reminders: number;
  requests: number;
  clientIds: string[];
};

/**
 * Moves projects to new due dates: `moved` selects (id, name, client_id, due_date, new_due,
 * new_due_label, delta) of the firm's projects; each gets its new due date, its open tasks (and
 * their assignees' copies), scheduled reminders and open requests move by its delta in days, and a
 * system-log row says why. One statement inside the caller's transaction: an extension and an
 * accepted catalogue version move work the same way.
 */
export async function moveProjects(
  tx: TExecutor,
  scope: TScope,
  moved: SQL,
  reason: string,
): Promise<TMoved> {
  const result = await tx.execute(sql`
      with moved as materialized (${moved}),
      up as (
        update projects p set due_date = m.new_due, updated_at = now()
        from moved m where p.org_id = ${scope.orgId} and p.id = m.id
        returning p.id, p.name, p.client_id, m.due_date as old_due, m.new_due, m.new_due_label
      ),
      t as (
        update tasks t set due_date = t.due_date + m.delta, updated_at = now()
        from moved m where t.org_id = ${scope.orgId} and t.project_id = m.id and t.status <> 'COMPLETED'
          and t.due_date is not null
        returning t.id, m.delta
      ),
      ta as (
        update task_assignees a set due_date = a.due_date + t.delta
        from t where a.org_id = ${scope.orgId} and a.task_id = t.id and a.due_date is not null
        returning 1
      ),
      rm as (
        update reminders r set remind_at = r.remind_at + make_interval(days => m.delta),
          anchor_at = r.anchor_at + make_interval(days => m.delta), updated_at = now()
        from moved m where r.org_id = ${scope.orgId} and r.project_id = m.id and r.status = 'scheduled'
        returning 1
      ),
      rq as (
        update requests q set due_date = q.due_date + m.delta, updated_at = now()
        from moved m where q.org_id = ${scope.orgId} and q.project_id = m.id and q.status in (${openRequests})
        returning 1
      ),
      log as (
        insert into system_log (id, org_id, actor_kind, actor_member_id, action, record_type, record_id, summary, changes)
        select ${uuidv7}, ${scope.orgId}::uuid, 'member', ${scope.memberId}::uuid, 'project.due_extended', 'project', up.id::text,
               'Moved ' || up.name || ' to ' || up.new_due_label || ' (' || ${reason}::text || ')',
               jsonb_build_object('dueDate', jsonb_build_object('from', up.old_due::text, 'to', up.new_due::text))
        from up
        returning 1
      )
      select (select count(*) from up)::int as projects, (select count(*) from t)::int as tasks,
             (select count(*) from ta)::int as assignees, (select count(*) from rm)::int as reminders,
             (select count(*) from rq)::int as requests, (select count(*) from log)::int as logged,
             (select coalesce(jsonb_agg(distinct up.client_id), '[]'::jsonb) from up) as clients`);
  const [row] = rowsOf<{
    projects: number;
    tasks: number;
    reminders: number;
    requests: number;
    clients: string[] | string;
  }>(result);
  return {
    projects: Number(row?.projects ?? 0),
    tasks: Number(row?.tasks ?? 0),
    reminders: Number(row?.reminders ?? 0),
    requests: Number(row?.requests ?? 0),
    clientIds: typeof row?.clients === 'string' ? JSON.parse(row.clients) : (row?.clients ?? []),
  };
}
