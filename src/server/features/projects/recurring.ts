import { and, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { addDays, todayIn } from '../../../domain/days';
import {
  dueDateFor,
  ONE_TIME_PERIOD_KEY,
  periodContaining,
  periodKeyFrequency,
  periodsToGenerate,
  projectNameFor,
  type TRecurringFrequency,
} from '../../../domain/periods';
import type { TDueDateRule } from '../../../domain/services';
import {
  catalogueRelease,
  countryOfFiling,
  findFiling,
  type TFiling,
} from '../../../domain/statutory/catalogue';
import { filingDueDate } from '../../../domain/statutory/rules';
import type { TExecutor } from '../../db/client';
import { clientServices, orgs, projectTemplates, services } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { billRecurringFees } from '../billing';

/** How far ahead recurring work is created: the next period's project exists before it starts. */
export const RECURRING_HORIZON_DAYS = 31;

export const RECURRING_BATCH = 5000;
export const RECURRING_CONCURRENCY = 2;

export type TGenerateOptions = {
  /** The last day a generated period may start on ('YYYY-MM-DD'). */
  through: string;
  orgId?: string;
  /** Engagements per statement (a statement is a transaction: its locks last until it ends). */
  batchSize?: number;
  /** Statements at once on separate connections. */
  concurrency?: number;
  /** Only this engagement (right after it is created or edited). */
  engagementId?: string;
  now?: Date;
};

export type TGenerateResult = { projects: number; tasks: number };

/** The `through` of a run starting now: today (UTC) plus the horizon. */
export function defaultThrough(now: Date = new Date()): string {
  return addDays(todayIn('UTC', now), RECURRING_HORIZON_DAYS);
}

// Keys are UUIDv7 like the app's (time-ordered, kind to b-tree indexes): a v4 with the millisecond
// clock written over its first 48 bits and the version nibble turned from 4 into 7.
const uuidv7 = sql.raw(`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
  substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6),
  52, 1), 53, 1), 'hex')::uuid`);

type TServiceRow = {
  id: string;
  orgId: string;
  name: string;
  frequency: TRecurringFrequency | 'one_time';
  dueDateRule: TDueDateRule | null;
  statutoryFilingCode: string | null;
  templateId: string;
  budgetMinutes: number | null;
  fiscalYearStartMonth: number;
  timeZone: string;
  /** The firm's accepted version of the statutory catalogue: its filings' due dates. */
  catalogueVersion: string;
};

/**
 * Creates the projects (with their members, tasks and task assignees) that active engagements owe
 * for every period starting on or before `through`. Exactly once per engagement and period: each
 * statement inserts with ON CONFLICT DO NOTHING on projects_engagement_period_key, and creates tasks
 * only for the projects it actually inserted, so a second worker, a re-run or a run after a crash
 * half-way is a no-op for what exists. Set-based: one statement per batch of a service's
 * engagements (RECURRING_BATCH of them), never one per engagement.
 */
export async function generateRecurringProjects(
  db: TExecutor,
  options: TGenerateOptions,
): Promise<TGenerateResult> {
  const now = options.now ?? new Date();
  const where: SQL[] = [isNull(services.archivedAt), isNotNull(services.projectTemplateId)];
  if (options.orgId) where.push(eq(services.orgId, options.orgId));
  if (options.engagementId) {
    where.push(
      sql`${services.id} = (select ${clientServices.serviceId} from ${clientServices} where ${clientServices.id} = ${options.engagementId})`,
    );
  }
  const rows: TServiceRow[] = await db
    .select({
      id: services.id,
      orgId: services.orgId,
      name: services.name,
      frequency: services.frequency,
      dueDateRule: services.dueDateRule,
      statutoryFilingCode: services.statutoryFilingCode,
      templateId: projectTemplates.id,
      budgetMinutes: projectTemplates.budgetMinutes,
      fiscalYearStartMonth: orgs.fiscalYearStartMonth,
      timeZone: orgs.timeZone,
      catalogueVersion: orgs.statutoryCatalogueVersion,
    })
    .from(services)
    .innerJoin(orgs, eq(orgs.id, services.orgId))
    .innerJoin(
      projectTemplates,
      and(
        eq(projectTemplates.orgId, services.orgId),
        eq(projectTemplates.id, services.projectTemplateId),
        isNull(projectTemplates.archivedAt),
      ),
    )
    .where(and(...where))
    .orderBy(services.orgId, services.id);

  const units: (() => Promise<TGenerateResult>)[] = [];
  for (const service of rows) units.push(...(await planService(db, service, options, now)));
  const total: TGenerateResult = { projects: 0, tasks: 0 };
  // A few statements at once: each batch is its own transaction over its own engagements, and
  // PostgreSQL runs them on separate cores. One engagement (a form save) is a single statement.
  const lanes = options.engagementId ? 1 : Math.max(1, options.concurrency ?? RECURRING_CONCURRENCY);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, units.length) }, async () => {
      while (next < units.length) {
        const unit = units[next++];
        if (!unit) break;
        const result = await withDeadlockRetry(unit);
        total.projects += result.projects;
        total.tasks += result.tasks;
      }
    }),
  );
  // The same run bills the fixed fees due as their period starts (exactly once: billing's guard).
  await billRecurringFees(db, { orgId: options.orgId, engagementId: options.engagementId, now });
  return total;
}

/**
 * The engagement id after every `size`-th of the service's engagements: the bounds of its batches
 * (half-open ranges of ids, so every engagement falls in exactly one).
 */
async function batchBounds(db: TExecutor, serviceId: string, orgId: string, size: number) {
  const result = await db.execute(sql`
    select id from (select id, row_number() over (order by id) as n from client_services
                    where org_id = ${orgId} and service_id = ${serviceId}) x
    where n % ${size}::int = 0 order by id`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** The statements (one per batch of engagements) that generate one service's projects. */
async function planService(
  db: TExecutor,
  service: TServiceRow,
  options: TGenerateOptions,
  now: Date,
): Promise<(() => Promise<TGenerateResult>)[]> {
  const engagement = options.engagementId ? sql`and cs.id = ${options.engagementId}` : sql``;
  let candidates: SQL;
  const filing = findFiling(service.statutoryFilingCode, catalogueRelease(service.catalogueVersion));
  if (filing) {
    // A statutory filing (issue 39): the catalogue's periods (its country's fiscal year) and due
    // dates, each moved by an extension the firm recorded and applied for the period (one for the
    // client's GST state wins over none).
    const today = todayIn(service.timeZone, now);
    const fiscalStart = countryOfFiling(filing).fiscalYearStartMonth;
    const periods = periodsToGenerate(
      filing.frequency,
      fiscalStart,
      (end) => filingDueDate(filing, end),
      today,
      options.through,
    ).map((p) => ({
      key: p.key,
      start: p.start,
      end: p.end,
      due: filingDueDate(filing, p.end),
      name: projectNameFor(service.name, p),
    }));
    if (!periods.length) return [];
    await adoptFilingKeys(db, service, filing, options.engagementId);
    candidates = sql`
      select cs.org_id, cs.client_id, cs.id as cs_id, p.key, p.start as p_start, p."end" as p_end,
             coalesce(ext.due_date, p.due) as due, p.name, coalesce(ext.due_date - p.due, 0) as shift
      from jsonb_to_recordset(${JSON.stringify(periods)}::jsonb) as p(key text, start date, "end" date, due date, name text)
      join client_services cs on cs.org_id = ${service.orgId} and cs.service_id = ${service.id}
        and cs.start_date <= p."end" and (cs.end_date is null or cs.end_date >= p.start)
      join clients c on c.org_id = cs.org_id and c.id = cs.client_id and c.archived_at is null
      left join lateral (
        select fe.due_date from filing_extensions fe
        where fe.org_id = cs.org_id and fe.filing_code = ${filing.code} and fe.period_key = p.key
          and fe.applied_at is not null
          and (fe.state_code is null or fe.state_code = (select r.gst_state from client_registrations r
                                                        where r.org_id = cs.org_id and r.client_id = cs.client_id))
        order by fe.state_code nulls last, fe.created_at desc limit 1) ext on true
      where true ${engagement}
        -- A project of the engagement for the same days under another key (made before the link, by
        -- the firm's own fiscal year) is this period's project too.
        and not exists (select 1 from projects pr where pr.org_id = cs.org_id and pr.client_service_id = cs.id
                        and (pr.period_key = p.key or (pr.period_start = p.start and pr.period_end = p."end")))`;
  } else if (service.frequency === 'one_time') {
    // One project per engagement, its period the engagement's start day; the due date follows the
    // rule from that day's month, clamped to the month's end as dueDateFor does.
    const rule = service.dueDateRule;
    const due = rule
      ? sql`(select (m + (least(${rule.dayOfMonth}::int, extract(day from (m + interval '1 month' - interval '1 day'))::int) - 1))::date
              from (select (date_trunc('month', cs.start_date) + make_interval(months => ${rule.monthsAfterPeriod}::int))::date as m) x)`
      : sql`cs.start_date`;
    candidates = sql`
      select cs.org_id, cs.client_id, cs.id as cs_id, ${ONE_TIME_PERIOD_KEY}::text as key,
             cs.start_date as p_start, cs.start_date as p_end, ${due} as due, ${service.name}::text as name, 0 as shift
      from client_services cs
      join clients c on c.org_id = cs.org_id and c.id = cs.client_id and c.archived_at is null
      where cs.org_id = ${service.orgId} and cs.service_id = ${service.id} and cs.start_date <= ${options.through}::date
        ${engagement}
        and not exists (select 1 from projects pr where pr.org_id = cs.org_id and pr.client_service_id = cs.id
                        and pr.period_key = ${ONE_TIME_PERIOD_KEY})`;
  } else {
    const today = todayIn(service.timeZone, now);
    const periods = periodsToGenerate(
      service.frequency,
      service.fiscalYearStartMonth,
      service.dueDateRule,
      today,
      options.through,
    ).map((p) => ({
      key: p.key,
      start: p.start,
      end: p.end,
      due: dueDateFor(p.end, service.dueDateRule),
      name: projectNameFor(service.name, p),
    }));
    if (!periods.length) return [];
    candidates = sql`
      select cs.org_id, cs.client_id, cs.id as cs_id, p.key, p.start as p_start, p."end" as p_end, p.due, p.name,
             0 as shift
      from jsonb_to_recordset(${JSON.stringify(periods)}::jsonb) as p(key text, start date, "end" date, due date, name text)
      join client_services cs on cs.org_id = ${service.orgId} and cs.service_id = ${service.id}
        and cs.start_date <= p."end" and (cs.end_date is null or cs.end_date >= p.start)
      join clients c on c.org_id = cs.org_id and c.id = cs.client_id and c.archived_at is null
      where true ${engagement}
        and not exists (select 1 from projects pr where pr.org_id = cs.org_id and pr.client_service_id = cs.id
                        and pr.period_key = p.key)`;
  }

  const bounds = options.engagementId
    ? []
    : await batchBounds(db, service.id, service.orgId, options.batchSize ?? RECURRING_BATCH);
  const ranges = [...bounds, null].map((upper, i) => {
    const lower = i > 0 ? bounds[i - 1] : null;
    return sql`${lower ? sql`and cs.id > ${lower}::uuid` : sql``} ${upper ? sql`and cs.id <= ${upper}::uuid` : sql``}`;
  });
  return ranges.map((range) => () => insertBatch(db, service, candidates, range));
}

/**
 * A service linked to a filing counts periods by its country's fiscal year; projects it made before
 * the link (by the firm's fiscal year, say from January) carry the firm's keys: the quarter Oct-Dec
 * is '2026-Q4' there and '2026-Q3' from April, and '2026-Q4' is Jan-Mar next. Each such project
 * whose days are exactly one of the filing's periods takes that period's key, so the generator, the
 * extensions and the calendars find it, and a key never stands for two periods of an engagement.
 * A project whose days are no filing period keeps its key. Keys move in three steps in one
 * transaction (a key may pass from one project to another); one that would meet a key already
 * taken goes back.
 */
async function adoptFilingKeys(db: TExecutor, service: TServiceRow, filing: TFiling, engagementId?: string) {
  const engagement = engagementId ? sql`and client_service_id = ${engagementId}::uuid` : sql``;
  const spans = rowsOf<{ key: string; start: string; end: string }>(
    await db.execute(sql`
      select distinct period_key as key, period_start::text as start, period_end::text as "end"
      from projects
      where org_id = ${service.orgId} and service_id = ${service.id} ${engagement}
        and period_key is not null and period_key <> ${ONE_TIME_PERIOD_KEY} and period_start is not null
        and period_end is not null`),
  );
  const fyMonth = countryOfFiling(filing).fiscalYearStartMonth;
  const moves = spans.flatMap((s) => {
    const start = String(s.start).slice(0, 10);
    const end = String(s.end).slice(0, 10);
    const p = periodContaining(filing.frequency, fyMonth, start);
    if (p.start === start && p.end === end)
      return p.key !== s.key ? [{ from: s.key, to: p.key, start, end }] : [];
    // Days that are no period of the filing (a firm year from February: May-Jul) under a key the
    // filing gives other days ('2026-Q2' is Jul-Sep from April): the key goes to the filing's
    // period, the project keeps its days under the key and its start, which no period uses.
    return periodKeyFrequency(s.key) === filing.frequency
      ? [{ from: s.key, to: `${s.key}/${start}`, start, end }]
      : [];
  });
  if (!moves.length) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      update projects pr set period_key = '~' || m."to" || '|' || m."from", updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(moves)}::jsonb) as m("from" text, "to" text, start date, "end" date)
      where pr.org_id = ${service.orgId} and pr.service_id = ${service.id} ${engagement}
        and pr.period_key = m."from" and pr.period_start = m.start and pr.period_end = m."end"`);
    await tx.execute(sql`
      update projects pr set period_key = split_part(substr(pr.period_key, 2), '|', 1)
      where pr.org_id = ${service.orgId} and pr.service_id = ${service.id} and pr.period_key like '~%'
        and not exists (select 1 from projects o where o.org_id = pr.org_id and o.client_service_id = pr.client_service_id
                        and o.period_key = split_part(substr(pr.period_key, 2), '|', 1))`);
    await tx.execute(sql`
      update projects pr set period_key = split_part(pr.period_key, '|', 2)
      where pr.org_id = ${service.orgId} and pr.service_id = ${service.id} and pr.period_key like '~%'`);
  });
}

async function insertBatch(
  db: TExecutor,
  service: TServiceRow,
  candidates: SQL,
  range: SQL,
): Promise<TGenerateResult> {
  // One statement: the inserted projects feed their members, tasks, assignees and log rows, so a
  // project never exists without its tasks. Rows go in key order, so two workers inserting the same
  // keys queue behind each other instead of deadlocking. Everything per project is joined set-wise
  // (hash joins over the batch) rather than looked up row by row: the template's tasks and their
  // checklists are built once per statement, the engagement's people once per engagement.
  const result = await db.execute(sql`
    with candidates as (${candidates} ${range}),
    people as (
      select a.client_service_id as cs_id, a.member_id, m.role_id, m.first_name, m.last_name
      from client_service_assignees a
      join members m on m.org_id = a.org_id and m.id = a.member_id
      where a.org_id = ${service.orgId} and a.client_service_id in (select cand.cs_id from candidates cand)
    ),
    owners as (
      select distinct on (p.cs_id) p.cs_id, p.member_id from people p
      order by p.cs_id, p.first_name, p.last_name, p.member_id
    ),
    ins as (
      insert into projects (id, org_id, client_id, service_id, client_service_id, template_id, name, period_key,
                            period_start, period_end, start_date, due_date, owner_id, budget_minutes, stage_id)
      select ${uuidv7}, cand.org_id, cand.client_id, ${service.id}::uuid, cand.cs_id, ${service.templateId}::uuid, cand.name,
             cand.key, cand.p_start, cand.p_end, cand.p_start, cand.due, o.member_id, ${service.budgetMinutes}::int,
             (select ts.id from template_stages ts where ts.org_id = cand.org_id and ts.template_id = ${service.templateId}::uuid
              order by ts.position, ts.id limit 1)
      from candidates cand
      left join owners o on o.cs_id = cand.cs_id
      order by cand.cs_id, cand.key
      on conflict on constraint projects_engagement_period_key do nothing
      returning id, org_id, client_id, client_service_id, period_end, period_key, name
    ),
    member_ins as (
      insert into project_members (org_id, project_id, member_id)
      select ins.org_id, ins.id, p.member_id
      from ins join people p on p.cs_id = ins.client_service_id
      returning 1
    ),
    blueprint as (
      -- Checklist item ids need only be unique within a task: made once per template task here.
      select tt.id, tt.title, tt.description, tt.tags, tt.for_client, tt.position, tt.due_offset_days,
             tt.assignee_member_id, tt.assignee_role_id, tt.budget_minutes, tt.stage_id,
             (select coalesce(jsonb_agg(jsonb_build_object('id', gen_random_uuid(), 'text', x.item, 'done', false)
                                        order by x.n), '[]'::jsonb)
                from jsonb_array_elements_text(tt.checklist) with ordinality as x(item, n)) as checklist
      from template_tasks tt
      where tt.org_id = ${service.orgId} and tt.template_id = ${service.templateId}::uuid
    ),
    planned as materialized (
      -- Task ids are made here, so the assignees below need no join back to the inserted tasks.
      select ${uuidv7} as task_id, ins.org_id, ins.id as project_id, ins.client_id, ins.client_service_id,
             ins.period_end + b.due_offset_days + cand.shift as due_date, b.id as template_task_id, b.title, b.description,
             b.tags, b.checklist, b.for_client, b.position, b.assignee_member_id, b.assignee_role_id,
             b.budget_minutes, b.stage_id
      from ins cross join blueprint b
      -- An extension applied before the project existed moves its tasks as it moves projects.
      join candidates cand on cand.cs_id = ins.client_service_id and cand.key = ins.period_key
    ),
    task_ins as (
      insert into tasks (id, org_id, project_id, client_id, template_task_id, title, description, due_date, tags,
                         checklist, for_client, position, budget_minutes, stage_id)
      select pl.task_id, pl.org_id, pl.project_id, pl.client_id, pl.template_task_id, pl.title, pl.description,
             pl.due_date, pl.tags, pl.checklist, pl.for_client, pl.position, pl.budget_minutes, pl.stage_id
      from planned pl
      returning 1
    ),
    staffed_roles as (select distinct p.cs_id, p.role_id from people p),
    assignee_ins as (
      -- A task names a member, or a role (the engagement's people in that role; all of them when
      -- nobody has it), or nobody (all of the engagement's people). Each person once per task.
      insert into task_assignees (org_id, task_id, member_id, due_date)
      select pl.org_id, pl.task_id, pl.assignee_member_id, pl.due_date
      from planned pl where pl.assignee_member_id is not null
      union all
      select pl.org_id, pl.task_id, p.member_id, pl.due_date
      from planned pl
      join people p on p.cs_id = pl.client_service_id
      left join staffed_roles r on r.cs_id = pl.client_service_id and r.role_id = pl.assignee_role_id
      where pl.assignee_member_id is null
        and (pl.assignee_role_id is null or p.role_id = pl.assignee_role_id or r.cs_id is null)
      returning 1
    ),
    log_ins as (
      insert into system_log (id, org_id, actor_kind, action, record_type, record_id, summary)
      select ${uuidv7}, ins.org_id, 'system', 'project.generate', 'project', ins.id::text,
             'Created ' || ins.name || ' from the engagement''s service template'
      from ins
      returning 1
    )
    select (select count(*) from ins)::int as projects, (select count(*) from task_ins)::int as tasks,
           (select count(*) from member_ins)::int as members, (select count(*) from assignee_ins)::int as assignees,
           (select count(*) from log_ins)::int as logged
  `);
  const [row] = rowsOf<{ projects: number; tasks: number }>(result);
  return { projects: Number(row?.projects ?? 0), tasks: Number(row?.tasks ?? 0) };
}

function isDeadlock(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '40P01') return true;
  }
  return false;
}

/** A deadlock aborts only the statement's own transaction: running it again is safe (idempotent). */
async function withDeadlockRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (error) {
      if (i >= attempts || !isDeadlock(error)) throw error;
    }
  }
}

/** Generates right away for one engagement, so its first project shows as soon as it is saved. */
export async function generateForEngagement(
  db: TExecutor,
  orgId: string,
  engagementId: string,
  now = new Date(),
) {
  return generateRecurringProjects(db, { through: defaultThrough(now), orgId, engagementId, now });
}
