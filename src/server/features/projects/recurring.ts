import { addDays, format } from 'date-fns';
import { and, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import {
  dueDateFor,
  ONE_TIME_PERIOD_KEY,
  periodsToGenerate,
  projectNameFor,
  type TRecurringFrequency,
  todayIn,
} from '../../../domain/periods';
import type { TDueDateRule } from '../../../domain/services';
import type { TExecutor } from '../../db/client';
import { clientServices, orgs, projectTemplates, services } from '../../db/schema';

/** How far ahead recurring work is created: the next period's project exists before it starts. */
export const RECURRING_HORIZON_DAYS = 31;

export type TGenerateOptions = {
  /** The last day a generated period may start on ('YYYY-MM-DD'). */
  through: string;
  orgId?: string;
  /** Only this engagement (right after it is created or edited). */
  engagementId?: string;
  now?: Date;
};

export type TGenerateResult = { projects: number; tasks: number };

/** The `through` of a run starting now: today (UTC) plus the horizon. */
export function defaultThrough(now: Date = new Date()): string {
  return format(addDays(now, RECURRING_HORIZON_DAYS), 'yyyy-MM-dd');
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
  templateId: string;
  fiscalYearStartMonth: number;
  timeZone: string;
};

/**
 * Creates the projects (with their members, tasks and task assignees) that active engagements owe
 * for every period starting on or before `through`. Exactly once per engagement and period: each
 * statement inserts with ON CONFLICT DO NOTHING on projects_engagement_period_key, and creates tasks
 * only for the projects it actually inserted, so a second worker, a re-run or a run after a crash
 * half-way is a no-op for what exists. Set-based: one statement per service, never one per
 * engagement.
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
      templateId: projectTemplates.id,
      fiscalYearStartMonth: orgs.fiscalYearStartMonth,
      timeZone: orgs.timeZone,
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

  const total: TGenerateResult = { projects: 0, tasks: 0 };
  for (const service of rows) {
    const result = await withDeadlockRetry(() => generateForService(db, service, options, now));
    total.projects += result.projects;
    total.tasks += result.tasks;
  }
  return total;
}

async function generateForService(
  db: TExecutor,
  service: TServiceRow,
  options: TGenerateOptions,
  now: Date,
): Promise<TGenerateResult> {
  const engagement = options.engagementId ? sql`and cs.id = ${options.engagementId}` : sql``;
  let candidates: SQL;
  if (service.frequency === 'one_time') {
    // One project per engagement, its period the engagement's start day; the due date follows the
    // rule from that day's month, clamped to the month's end as dueDateFor does.
    const rule = service.dueDateRule;
    const due = rule
      ? sql`(select (m + (least(${rule.dayOfMonth}::int, extract(day from (m + interval '1 month' - interval '1 day'))::int) - 1))::date
              from (select (date_trunc('month', cs.start_date) + make_interval(months => ${rule.monthsAfterPeriod}::int))::date as m) x)`
      : sql`cs.start_date`;
    candidates = sql`
      select cs.org_id, cs.client_id, cs.id as cs_id, ${ONE_TIME_PERIOD_KEY}::text as key,
             cs.start_date as p_start, cs.start_date as p_end, ${due} as due, ${service.name}::text as name
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
    if (!periods.length) return { projects: 0, tasks: 0 };
    candidates = sql`
      select cs.org_id, cs.client_id, cs.id as cs_id, p.key, p.start as p_start, p."end" as p_end, p.due, p.name
      from jsonb_to_recordset(${JSON.stringify(periods)}::jsonb) as p(key text, start date, "end" date, due date, name text)
      join client_services cs on cs.org_id = ${service.orgId} and cs.service_id = ${service.id}
        and cs.start_date <= p."end" and (cs.end_date is null or cs.end_date >= p.start)
      join clients c on c.org_id = cs.org_id and c.id = cs.client_id and c.archived_at is null
      where true ${engagement}
        and not exists (select 1 from projects pr where pr.org_id = cs.org_id and pr.client_service_id = cs.id
                        and pr.period_key = p.key)`;
  }

  // One statement: the inserted projects feed their members, tasks, assignees and log rows, so a
  // project never exists without its tasks. Rows go in key order, so two workers inserting the same
  // keys queue behind each other instead of deadlocking.
  const result = (await db.execute(sql`
    with candidates as (${candidates}),
    ins as (
      insert into projects (id, org_id, client_id, service_id, client_service_id, template_id, name, period_key,
                            period_start, period_end, start_date, due_date, owner_id)
      select ${uuidv7}, cand.org_id, cand.client_id, ${service.id}::uuid, cand.cs_id, ${service.templateId}::uuid, cand.name,
             cand.key, cand.p_start, cand.p_end, cand.p_start, cand.due,
             (select a.member_id from client_service_assignees a
                join members m on m.org_id = a.org_id and m.id = a.member_id
               where a.org_id = cand.org_id and a.client_service_id = cand.cs_id
               order by m.first_name, m.last_name, m.id limit 1)
      from candidates cand
      order by cand.cs_id, cand.key
      on conflict on constraint projects_engagement_period_key do nothing
      returning id, org_id, client_id, client_service_id, period_end, name
    ),
    member_ins as (
      insert into project_members (org_id, project_id, member_id)
      select ins.org_id, ins.id, a.member_id
      from ins join client_service_assignees a on a.org_id = ins.org_id and a.client_service_id = ins.client_service_id
      returning 1
    ),
    planned as (
      -- Task ids are made here, so the assignees below need no join back to the inserted tasks.
      select ${uuidv7} as task_id, ins.org_id, ins.id as project_id, ins.client_id, ins.client_service_id,
             ins.period_end + tt.due_offset_days as due_date, tt.id as template_task_id, tt.title, tt.description,
             tt.tags, tt.checklist, tt.for_client, tt.position, tt.assignee_member_id, tt.assignee_role_id
      from ins join template_tasks tt on tt.org_id = ins.org_id and tt.template_id = ${service.templateId}::uuid
    ),
    task_ins as (
      insert into tasks (id, org_id, project_id, client_id, template_task_id, title, description, due_date, tags,
                         checklist, for_client, position)
      select pl.task_id, pl.org_id, pl.project_id, pl.client_id, pl.template_task_id, pl.title, pl.description,
             pl.due_date, pl.tags,
             (select coalesce(jsonb_agg(jsonb_build_object('id', gen_random_uuid(), 'text', x.item, 'done', false)
                                        order by x.n), '[]'::jsonb)
                from jsonb_array_elements_text(pl.checklist) with ordinality as x(item, n)),
             pl.for_client, pl.position
      from planned pl
      returning 1
    ),
    assignee_ins as (
      insert into task_assignees (org_id, task_id, member_id, due_date)
      select distinct pl.org_id, pl.task_id, who.member_id, pl.due_date
      from planned pl
      cross join lateral (
        select pl.assignee_member_id as member_id where pl.assignee_member_id is not null
        union all
        select a.member_id
        from client_service_assignees a
        join members m on m.org_id = a.org_id and m.id = a.member_id
        where pl.assignee_member_id is null
          and a.org_id = pl.org_id and a.client_service_id = pl.client_service_id
          and (pl.assignee_role_id is null or m.role_id = pl.assignee_role_id
               or not exists (select 1 from client_service_assignees a2
                                join members m2 on m2.org_id = a2.org_id and m2.id = a2.member_id
                               where a2.org_id = a.org_id and a2.client_service_id = a.client_service_id
                                 and m2.role_id = pl.assignee_role_id))
      ) who
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
  `)) as unknown as { rows: { projects: number; tasks: number }[] };
  const row = result.rows[0];
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
