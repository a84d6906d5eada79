import { TRPCError } from '@trpc/server';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { addDays } from '../../../domain/days';
import { projectRequestLabel, type ZProjectTemplateRequest } from '../../../domain/requests/flow';
import type { TSection } from '../../../domain/requests/items';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import {
  projectTemplateRequests,
  projectTemplates,
  requestRecipients,
  requests,
  requestTemplates,
} from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { every, registerJob } from '../../jobs/registry';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { linkPortalTask, portalUsersOf } from './flow';
import { insertItems, queueSentMail } from './send';

type TDeps = { config: Pick<TConfig, 'publicUrl'> };

// A project template's request (issue 36 item 1): each project made from the template sends its
// client the named request template by itself, `leadDays` before the project's due date. Exactly
// once per project: the insert meets the partial unique key requests_project_template_key, so a
// second job run, instance or retry finds the request there and does nothing.

async function projectTemplateOf(db: TExecutor, scope: TScope, projectTemplateId: string) {
  const [template] = await db
    .select({ id: projectTemplates.id, name: projectTemplates.name })
    .from(projectTemplates)
    .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, projectTemplateId)));
  if (!template) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
  return template;
}

/** The project template's request, or null, for its screen. */
export async function getProjectTemplateRequest(db: TExecutor, scope: TScope, projectTemplateId: string) {
  await projectTemplateOf(db, scope, projectTemplateId);
  const [row] = await db
    .select({
      requestTemplateId: projectTemplateRequests.requestTemplateId,
      requestTemplateName: requestTemplates.name,
      leadDays: projectTemplateRequests.leadDays,
      dueDaysBefore: projectTemplateRequests.dueDaysBefore,
    })
    .from(projectTemplateRequests)
    .innerJoin(
      requestTemplates,
      and(
        eq(requestTemplates.orgId, projectTemplateRequests.orgId),
        eq(requestTemplates.id, projectTemplateRequests.requestTemplateId),
      ),
    )
    .where(
      and(
        eq(projectTemplateRequests.orgId, scope.orgId),
        eq(projectTemplateRequests.projectTemplateId, projectTemplateId),
      ),
    );
  return row ?? null;
}

/** Names (or takes off) the request a project template's projects send by themselves. */
export async function setProjectTemplateRequest(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZProjectTemplateRequest>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const template = await projectTemplateOf(tx, scope, input.projectTemplateId);
    const before = await getProjectTemplateRequest(tx, scope, template.id);
    const where = and(
      eq(projectTemplateRequests.orgId, scope.orgId),
      eq(projectTemplateRequests.projectTemplateId, template.id),
    );
    if (input.requestTemplateId === null) {
      if (!before) return null;
      await tx.delete(projectTemplateRequests).where(where);
      await audit(tx, actorOf(scope, meta), {
        action: 'projectTemplate.request.remove',
        recordType: 'projectTemplate',
        recordId: template.id,
        summary: `Projects from ${template.name} no longer send “${before.requestTemplateName}” by themselves`,
      });
      return null;
    }
    const [requestTemplate] = await tx
      .select({ id: requestTemplates.id, name: requestTemplates.name })
      .from(requestTemplates)
      .where(and(eq(requestTemplates.orgId, scope.orgId), eq(requestTemplates.id, input.requestTemplateId)));
    if (!requestTemplate) throw new TRPCError({ code: 'NOT_FOUND', message: 'Request template not found' });
    const values = {
      requestTemplateId: requestTemplate.id,
      leadDays: input.leadDays,
      dueDaysBefore: input.dueDaysBefore,
      updatedAt: new Date(),
    };
    await tx
      .insert(projectTemplateRequests)
      .values({ orgId: scope.orgId, projectTemplateId: template.id, ...values })
      .onConflictDoUpdate({
        target: [projectTemplateRequests.orgId, projectTemplateRequests.projectTemplateId],
        set: values,
      });
    await audit(tx, actorOf(scope, meta), {
      action: 'projectTemplate.request.set',
      recordType: 'projectTemplate',
      recordId: template.id,
      summary: `Projects from ${template.name} send “${requestTemplate.name}”: ${projectRequestLabel(
        input.leadDays,
        input.dueDaysBefore,
      ).toLowerCase()}`,
      changes: before
        ? {
            requestTemplate: { from: before.requestTemplateName, to: requestTemplate.name },
            leadDays: { from: before.leadDays, to: input.leadDays },
            dueDaysBefore: { from: before.dueDaysBefore, to: input.dueDaysBefore },
          }
        : undefined,
    });
    return { ...input, requestTemplateName: requestTemplate.name };
  });
}

type TDueProject = {
  org_id: string;
  project_id: string;
  client_id: string;
  project_name: string;
  due_date: string;
  today: string;
  due_days_before: number;
  request_template_id: string;
};

/** Projects a run looks at, at most: the rest wait for the next run (hourly). */
export const AUTO_SEND_BATCH = 500;

/**
 * The projects whose template's request is due to go: open, not archived, inside the lead time of
 * their due date (in the firm's time zone), with time left before the client's due date, and not
 * sent it yet.
 */
async function dueProjects(db: TExecutor, now: Date, orgId?: string): Promise<TDueProject[]> {
  const result = await db.execute(sql`
    select ptr.org_id, p.id as project_id, p.client_id, p.name as project_name,
           to_char(p.due_date, 'YYYY-MM-DD') as due_date, to_char(t.today, 'YYYY-MM-DD') as today,
           ptr.due_days_before, ptr.request_template_id
    from project_template_requests ptr
    join orgs o on o.id = ptr.org_id
    cross join lateral (select (${now.toISOString()}::timestamptz at time zone o.time_zone)::date as today) t
    join projects p on p.org_id = ptr.org_id and p.template_id = ptr.project_template_id
      and p.due_date <= t.today + ptr.lead_days and p.due_date >= t.today + ptr.due_days_before
    where ${orgId ? sql`ptr.org_id = ${orgId}` : sql`true`}
      and p.archived_at is null and p.status <> 'COMPLETED'
      and not exists (select 1 from requests r where r.org_id = p.org_id and r.project_id = p.id
                      and r.origin = 'project_template')
    order by ptr.org_id, p.id
    limit ${AUTO_SEND_BATCH}`);
  return rowsOf<TDueProject>(result).map((r) => ({ ...r, due_days_before: Number(r.due_days_before) }));
}

/** Sends one project's request in its own transaction; false when another run got there first. */
async function sendForProject(db: TDb, deps: TDeps, due: TDueProject): Promise<'sent' | 'draft' | null> {
  return db.transaction(async (tx) => {
    const [template] = await tx
      .select({ name: requestTemplates.name, sections: requestTemplates.sections })
      .from(requestTemplates)
      .where(and(eq(requestTemplates.orgId, due.org_id), eq(requestTemplates.id, due.request_template_id)));
    if (!template) return null;
    const people = await portalUsersOf(tx, due.org_id, due.client_id);
    const send = people.length > 0;
    const dueDate = addDays(due.due_date, -due.due_days_before);
    const [request] = await tx
      .insert(requests)
      .values({
        orgId: due.org_id,
        clientId: due.client_id,
        projectId: due.project_id,
        origin: 'project_template',
        title: `${template.name}: ${due.project_name}`.slice(0, 200),
        templateName: template.name,
        status: send ? 'sent' : 'draft',
        dueDate: dueDate < due.today ? due.today : dueDate,
        sentAt: send ? new Date() : null,
      })
      .onConflictDoNothing({
        target: [requests.orgId, requests.projectId],
        where: sql`origin = 'project_template'`,
      })
      .returning();
    if (!request) return null;
    const count = await insertItems(tx, due.org_id, request.id, template.sections as TSection[]);
    const system = { kind: 'system', orgId: due.org_id } as const;
    if (send) {
      await tx
        .insert(requestRecipients)
        .values(people.map((p) => ({ orgId: due.org_id, requestId: request.id, clientUserId: p.id })));
      const mailed = await queueSentMail(tx, deps, request);
      await linkPortalTask(tx, { orgId: due.org_id, memberId: null }, request);
      await audit(tx, system, {
        action: 'request.send',
        recordType: 'request',
        recordId: request.id,
        summary: `Sent the request “${request.title}” by itself for the project ${due.project_name} from the template “${template.name}” (${count} items, due ${(await firmFormatter(tx, due.org_id)).date(request.dueDate)}), mailed to ${mailed.join(', ')}`,
      });
      return 'sent';
    }
    await audit(tx, system, {
      action: 'request.create',
      recordType: 'request',
      recordId: request.id,
      summary: `Kept the request “${request.title}” for the project ${due.project_name} as a draft: nobody uses the portal for the client yet (invite someone, then send it)`,
    });
    return 'draft';
  });
}

/**
 * Sends every project template request that is due (see dueProjects). Safe to run on several
 * instances at once: each project's request is one transaction whose insert the unique key guards.
 */
export async function sendDueProjectRequests(
  db: TDb,
  deps: TDeps,
  options: { now?: Date; orgId?: string } = {},
) {
  const due = await dueProjects(db, options.now ?? new Date(), options.orgId);
  const result = { sent: 0, drafts: 0 };
  for (const project of due) {
    const outcome = await sendForProject(db, deps, project);
    if (outcome === 'sent') result.sent += 1;
    if (outcome === 'draft') result.drafts += 1;
  }
  return result;
}

export const REQUESTS_FROM_PROJECTS = 'requests.sendFromProjects';

/** Hourly, like recurring projects: a project made this hour sends its request within the next. */
export function registerRequestJobs() {
  registerJob(REQUESTS_FROM_PROJECTS, async (_job, ctx) => {
    const result = await sendDueProjectRequests(ctx.db, ctx);
    if (result.sent || result.drafts) ctx.log.info(result, 'project requests sent');
  });
  every(REQUESTS_FROM_PROJECTS, 60 * 60_000);
}
