import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  conditionsHold,
  STOPPED_LOOP,
  stopsForLoop,
  type TAction,
  type TCondition,
  type TMatchContext,
  type TTrigger,
  triggerMatches,
  ZAction,
  ZCondition,
  ZTrigger,
} from '../../../domain/automations';
import { addDays } from '../../../domain/days';
import type { TActor } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import {
  automationEvents,
  automationRules,
  automationRuns,
  clients,
  members,
  projectMembers,
  projects,
  taskAssignees,
  tasks,
} from '../../db/schema';
import type { TRunningJob } from '../../jobs/registry';
import { billProjectPeriod } from '../billing';
import { renderClientMessage } from '../broadcasts';
import { postClientMessage } from '../messages';
import { notify } from '../notifications';
import { requestFromTemplate } from '../requests';
import { audit } from '../system-log';
import { firmDay } from './access';
import { moveToStage, stagesOf } from './stages';

export type TRule = {
  id: string;
  orgId: string;
  name: string;
  ownerId: string | null;
  trigger: TTrigger;
  conditions: TCondition[];
  actions: TAction[];
};

type TEventRow = typeof automationEvents.$inferSelect;
type TProjectRow = typeof projects.$inferSelect;

/** An action that cannot succeed by retrying (the stage does not exist): the run fails at once. */
export class ActionRefused extends Error {}

/**
 * Rules parsed before, by id and the row's updatedAt (every edit sets it): an event parses only the
 * rules changed since, not all of its kind each time (the zod parse was most of the evaluation's
 * CPU). Bounded: past the limit it starts again.
 */
const parsed = new Map<string, { at: number; rule: TRule | null }>();
const PARSED_LIMIT = 20_000;

/** A stored rule, parsed; a row that no longer parses is skipped rather than failing the event. */
export function parseRule(row: typeof automationRules.$inferSelect): TRule | null {
  if (!row.id) return parseRuleRow(row);
  const at = row.updatedAt instanceof Date ? row.updatedAt.getTime() : Number.NaN;
  const hit = parsed.get(row.id);
  if (hit && hit.at === at && hit.rule?.orgId === row.orgId && hit.rule?.ownerId === row.ownerId)
    return hit.rule;
  const rule = parseRuleRow(row);
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  if (!Number.isNaN(at)) parsed.set(row.id, { at, rule });
  return rule;
}

function parseRuleRow(row: typeof automationRules.$inferSelect): TRule | null {
  const trigger = ZTrigger.safeParse(row.trigger);
  const conditions = ZCondition.array().safeParse(row.conditions);
  const actions = ZAction.array().safeParse(row.actions);
  if (!trigger.success || !conditions.success || !actions.success) return null;
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    ownerId: row.ownerId,
    trigger: trigger.data,
    conditions: conditions.data,
    actions: actions.data,
  };
}

/** The rules an event starts: switched on, of its trigger kind (by index), whose trigger matches. */
export async function rulesFor(db: TExecutor, event: Pick<TEventRow, 'orgId' | 'kind' | 'data'>) {
  const rows = await db
    .select()
    .from(automationRules)
    .where(
      and(
        eq(automationRules.orgId, event.orgId),
        eq(automationRules.triggerKind, event.kind),
        eq(automationRules.enabled, true),
      ),
    );
  const data = (event.data ?? {}) as Record<string, unknown>;
  return rows.flatMap((r) => {
    const rule = parseRule(r);
    return rule && triggerMatches(rule.trigger, { kind: event.kind, data }) ? [rule] : [];
  });
}

/** What conditions look at, for the event's project (or client): one query. */
export async function matchContext(
  db: TExecutor,
  orgId: string,
  projectId: string | null,
  clientId: string | null,
): Promise<{ ctx: TMatchContext; project: TProjectRow | null }> {
  if (projectId) {
    const [row] = await db
      .select({
        project: projects,
        clientType: clients.type,
        groupId: clients.groupId,
        tags: clients.tags,
        memberIds: sql<string[]>`coalesce((select array_agg(pm.member_id) from ${projectMembers} pm
          where pm.org_id = ${projects.orgId} and pm.project_id = ${projects.id}), '{}'::uuid[])`,
      })
      .from(projects)
      .innerJoin(clients, and(eq(clients.orgId, projects.orgId), eq(clients.id, projects.clientId)))
      .where(and(eq(projects.orgId, orgId), eq(projects.id, projectId)))
      .limit(1);
    if (row) {
      return {
        project: row.project,
        ctx: {
          clientType: row.clientType,
          groupId: row.groupId,
          tags: row.tags,
          serviceId: row.project.serviceId,
          ownerId: row.project.ownerId,
          memberIds: row.memberIds ?? [],
          templateId: row.project.templateId,
          periodKey: row.project.periodKey,
          periodEnd: row.project.periodEnd,
        },
      };
    }
  }
  const [client] = clientId
    ? await db
        .select({ type: clients.type, groupId: clients.groupId, tags: clients.tags })
        .from(clients)
        .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId)))
        .limit(1)
    : [];
  return {
    project: null,
    ctx: {
      clientType: client?.type ?? null,
      groupId: client?.groupId ?? null,
      tags: client?.tags ?? [],
      serviceId: null,
      ownerId: null,
      memberIds: [],
      templateId: null,
      periodKey: null,
      periodEnd: null,
    },
  };
}

/**
 * matchContext for many events at once (a rule's preview): one statement for their projects and one
 * for their clients, not one per project. Keyed `${projectId}:${clientId}` as the events name them.
 */
export async function matchContexts(
  db: TExecutor,
  orgId: string,
  refs: readonly { projectId: string | null; clientId: string | null }[],
): Promise<Map<string, TMatchContext>> {
  const projectIds = [...new Set(refs.flatMap((r) => (r.projectId ? [r.projectId] : [])))];
  const clientIds = [...new Set(refs.flatMap((r) => (r.clientId ? [r.clientId] : [])))];
  const [projectRows, clientRows] = await Promise.all([
    projectIds.length
      ? db
          .select({
            id: projects.id,
            serviceId: projects.serviceId,
            ownerId: projects.ownerId,
            templateId: projects.templateId,
            periodKey: projects.periodKey,
            periodEnd: projects.periodEnd,
            clientType: clients.type,
            groupId: clients.groupId,
            tags: clients.tags,
            memberIds: sql<string[]>`coalesce((select array_agg(pm.member_id) from ${projectMembers} pm
              where pm.org_id = ${projects.orgId} and pm.project_id = ${projects.id}), '{}'::uuid[])`,
          })
          .from(projects)
          .innerJoin(clients, and(eq(clients.orgId, projects.orgId), eq(clients.id, projects.clientId)))
          .where(and(eq(projects.orgId, orgId), inArray(projects.id, projectIds)))
      : [],
    clientIds.length
      ? db
          .select({ id: clients.id, type: clients.type, groupId: clients.groupId, tags: clients.tags })
          .from(clients)
          .where(and(eq(clients.orgId, orgId), inArray(clients.id, clientIds)))
      : [],
  ]);
  const byProject = new Map(projectRows.map((r) => [r.id, r]));
  const byClient = new Map(clientRows.map((r) => [r.id, r]));
  const contexts = new Map<string, TMatchContext>();
  for (const ref of refs) {
    const key = `${ref.projectId ?? ''}:${ref.clientId ?? ''}`;
    if (contexts.has(key)) continue;
    const p = ref.projectId ? byProject.get(ref.projectId) : undefined;
    const c = ref.clientId ? byClient.get(ref.clientId) : undefined;
    contexts.set(
      key,
      p
        ? {
            clientType: p.clientType,
            groupId: p.groupId,
            tags: p.tags,
            serviceId: p.serviceId,
            ownerId: p.ownerId,
            memberIds: p.memberIds ?? [],
            templateId: p.templateId,
            periodKey: p.periodKey,
            periodEnd: p.periodEnd,
          }
        : {
            clientType: c?.type ?? null,
            groupId: c?.groupId ?? null,
            tags: c?.tags ?? [],
            serviceId: null,
            ownerId: null,
            memberIds: [],
            templateId: null,
            periodKey: null,
            periodEnd: null,
          },
    );
  }
  return contexts;
}

/** The rules whose trigger and conditions hold for the event: the evaluation the bench measures. */
export async function evaluate(
  db: TExecutor,
  event: Pick<TEventRow, 'orgId' | 'kind' | 'data' | 'projectId' | 'clientId'>,
) {
  const rules = await rulesFor(db, event);
  if (!rules.length) return { rules: [], project: null };
  const { ctx, project } = await matchContext(db, event.orgId, event.projectId, event.clientId);
  return { rules: rules.filter((r) => conditionsHold(r.conditions, ctx)), project };
}

async function lockedProject(tx: TExecutor, orgId: string, projectId: string) {
  const [row] = await tx
    .select()
    .from(projects)
    .where(and(eq(projects.orgId, orgId), eq(projects.id, projectId)))
    .limit(1)
    .for('update');
  if (!row) throw new ActionRefused('The project no longer exists');
  return row;
}

/** Does one action, inside the rule's run transaction, as the rule. */
async function runAction(
  tx: TExecutor,
  rule: TRule,
  event: TEventRow,
  projectId: string | null,
  action: TAction,
  deps: TActionDeps | undefined,
): Promise<string> {
  const actor: TActor = { kind: 'automation', orgId: rule.orgId, ruleId: rule.id, ruleName: rule.name };
  const cause = { depth: event.depth, ruleId: rule.id };
  const needProject = async () => {
    if (!projectId) throw new ActionRefused('The event has no project');
    return lockedProject(tx, rule.orgId, projectId);
  };
  switch (action.kind) {
    case 'moveStage': {
      const project = await needProject();
      const stages = project.templateId ? await stagesOf(tx, rule.orgId, project.templateId) : [];
      const wanted = action.stageName.trim().toLowerCase();
      const stage = stages.find((s) => s.name.trim().toLowerCase() === wanted);
      if (!stage) throw new ActionRefused(`The project’s template has no stage ${action.stageName}`);
      const { moved } = await moveToStage(tx, actor, project, stage, cause);
      return moved
        ? `Moved ${project.name} to ${stage.name}`
        : `${project.name} was already in ${stage.name}`;
    }
    case 'assignOwner': {
      const project = await needProject();
      const [member] = await tx
        .select({ id: members.id })
        .from(members)
        .where(
          and(eq(members.orgId, rule.orgId), eq(members.id, action.memberId), eq(members.status, 'active')),
        )
        .limit(1);
      if (!member) throw new ActionRefused('The member to assign is no longer active');
      if (project.ownerId === member.id) return `${project.name} already had that owner`;
      await tx
        .update(projects)
        .set({ ownerId: member.id, updatedAt: new Date() })
        .where(and(eq(projects.orgId, rule.orgId), eq(projects.id, project.id)));
      await tx
        .insert(projectMembers)
        .values({ orgId: rule.orgId, projectId: project.id, memberId: member.id })
        .onConflictDoNothing();
      await audit(tx, actor, {
        action: 'project.update',
        recordType: 'project',
        recordId: project.id,
        summary: `Changed the owner of ${project.name}`,
        changes: { ownerId: { from: project.ownerId, to: member.id } },
      });
      await notify(tx, {
        orgId: rule.orgId,
        memberIds: [member.id],
        kind: 'task.assigned',
        title: `You own the project ${project.name}`,
        body: `By rule ${rule.name}`,
        link: `/projects/${project.id}`,
      });
      return `Made a new owner of ${project.name}`;
    }
    case 'createTask': {
      const project = await needProject();
      const dueDate =
        action.dueInDays === null || action.dueInDays === undefined
          ? null
          : addDays(await firmDay(tx, rule.orgId), action.dueInDays);
      const [task] = await tx
        .insert(tasks)
        .values({
          orgId: rule.orgId,
          projectId: project.id,
          clientId: project.clientId,
          title: action.title,
          dueDate,
        })
        .returning({ id: tasks.id });
      if (!task) throw new Error('task not created');
      if (project.ownerId) {
        await tx
          .insert(taskAssignees)
          .values({ orgId: rule.orgId, taskId: task.id, memberId: project.ownerId, dueDate })
          .onConflictDoNothing();
      }
      await audit(tx, actor, {
        action: 'task.create',
        recordType: 'task',
        recordId: task.id,
        summary: `Created the task ${action.title} on ${project.name}`,
      });
      return `Created the task ${action.title}`;
    }
    case 'notifyMembers': {
      const project = projectId ? await lockedProject(tx, rule.orgId, projectId) : null;
      const ids = [
        ...new Set([...(action.owner && project?.ownerId ? [project.ownerId] : []), ...action.memberIds]),
      ];
      const sent = await notify(tx, {
        orgId: rule.orgId,
        memberIds: ids,
        kind: 'automation.notice',
        title: (project ? `${project.name}: ${action.message}` : action.message).slice(0, 200),
        body: `By rule ${rule.name}`,
        link: project ? `/projects/${project.id}` : undefined,
      });
      return `Notified ${ids.length} member${ids.length === 1 ? '' : 's'} (${sent.notificationIds.length} in the app)`;
    }
    case 'raiseInvoice': {
      const project = await needProject();
      if (!project.clientServiceId)
        throw new ActionRefused(`${project.name} is not a period of an engagement`);
      const { invoiceId } = await billProjectPeriod(tx, rule.orgId, project.id);
      if (!invoiceId) return `Nothing of ${project.name}’s period was left to bill`;
      await audit(tx, actor, {
        action: 'invoice.raise',
        recordType: 'invoice',
        recordId: invoiceId,
        summary: `Raised the invoice of ${project.name}’s period`,
      });
      return `Raised the invoice of ${project.name}’s period`;
    }
    case 'sendRequest': {
      if (!deps) throw new ActionRefused('Requests are sent by the job queue');
      const clientId = event.clientId ?? (projectId ? (await needProject()).clientId : null);
      if (!clientId) throw new ActionRefused('The event has no client');
      const made = await requestFromTemplate(tx, deps, {
        orgId: rule.orgId,
        clientId,
        requestTemplateId: action.requestTemplateId,
        dueInDays: action.dueInDays,
        why: `by rule ${rule.name}`,
      });
      if (!made) throw new ActionRefused('The request template no longer exists');
      return made.status === 'sent'
        ? `Sent a request to ${made.mailed.length} portal user${made.mailed.length === 1 ? '' : 's'}`
        : 'Kept a request as a draft: nobody uses the portal for the client yet';
    }
    case 'sendMessage': {
      if (!deps) throw new ActionRefused('Messages are sent by the job queue');
      const clientId = event.clientId ?? (projectId ? (await needProject()).clientId : null);
      if (!clientId) throw new ActionRefused('The event has no client');
      const [author] = rule.ownerId
        ? await tx
            .select({ id: members.id })
            .from(members)
            .where(
              and(eq(members.orgId, rule.orgId), eq(members.id, rule.ownerId), eq(members.status, 'active')),
            )
            .limit(1)
        : [];
      if (!author) throw new ActionRefused('The rule’s owner, who the message is from, is no longer active');
      const content = await renderClientMessage(tx, {
        orgId: rule.orgId,
        clientId,
        publicUrl: deps.config.publicUrl,
        templateId: action.templateId,
        text: action.text,
      });
      if (!content) throw new ActionRefused('The message template no longer exists');
      if (!content.text) throw new ActionRefused('The message is empty once its placeholders are filled');
      const data = (event.data ?? {}) as Record<string, unknown>;
      const posted = await postClientMessage(tx, {
        orgId: rule.orgId,
        clientId,
        threadId: typeof data.threadId === 'string' ? data.threadId : null,
        subject: content.subject,
        body: content.text,
        authorMemberId: author.id,
      });
      await audit(tx, actor, {
        action: posted.created ? 'message.thread.create' : 'message.add',
        recordType: 'messageThread',
        recordId: posted.threadId,
        summary: `${posted.created ? 'Started' : 'Wrote in'} the conversation “${posted.subject}”`,
      });
      return `${posted.created ? 'Started' : 'Wrote in'} the conversation ${posted.subject}`;
    }
    case 'setClientTag': {
      const clientId = event.clientId;
      if (!clientId) throw new ActionRefused('The event has no client');
      const [client] = await tx
        .select({ id: clients.id, name: clients.name, tags: clients.tags })
        .from(clients)
        .where(and(eq(clients.orgId, rule.orgId), eq(clients.id, clientId)))
        .limit(1)
        .for('update');
      if (!client) throw new ActionRefused('The client no longer exists');
      if (client.tags.some((t) => t.toLowerCase() === action.tag.toLowerCase()))
        return `${client.name} already had the tag`;
      const next = [...client.tags, action.tag];
      await tx
        .update(clients)
        .set({ tags: next, updatedAt: new Date() })
        .where(and(eq(clients.orgId, rule.orgId), eq(clients.id, client.id)));
      await audit(tx, actor, {
        action: 'client.update',
        recordType: 'client',
        recordId: client.id,
        summary: `Tagged ${client.name} ${action.tag}`,
        changes: { tags: { from: client.tags, to: next } },
      });
      return `Tagged ${client.name} ${action.tag}`;
    }
  }
}

export type TEventOutcome = {
  ruleId: string;
  outcome: 'done' | 'failed' | 'stopped_loop' | 'already';
  detail: string;
};

/**
 * Runs the rules an event starts, each at most once: a rule's actions and its run row commit in one
 * transaction, and the run row's unique (rule, event) key turns a second runner (another instance,
 * a retry) into a no-op. A failing rule rolls back alone; on the job's last attempt (or for an action
 * that cannot succeed) its failure is recorded and its owner told; before that the job is retried.
 */
/** What some actions need of the process: the address links in mail point at. */
export type TActionDeps = { config: Pick<TConfig, 'publicUrl'> };

export async function processEvent(
  db: TDb,
  eventId: string,
  job?: Pick<TRunningJob, 'attempts' | 'maxAttempts'>,
  deps?: TActionDeps,
) {
  const [event] = await db.select().from(automationEvents).where(eq(automationEvents.id, eventId)).limit(1);
  if (!event) return [];
  const { rules } = await evaluate(db, event);
  const outcomes: TEventOutcome[] = [];
  const lastAttempt = !job || job.attempts >= job.maxAttempts;
  let retry: Error | null = null;
  for (const rule of rules) {
    if (stopsForLoop(event.depth)) {
      const [row] = await db
        .insert(automationRuns)
        .values({
          orgId: rule.orgId,
          ruleId: rule.id,
          eventId: event.id,
          projectId: event.projectId,
          outcome: 'stopped_loop',
          detail: STOPPED_LOOP,
        })
        .onConflictDoNothing()
        .returning({ id: automationRuns.id });
      outcomes.push({ ruleId: rule.id, outcome: row ? 'stopped_loop' : 'already', detail: STOPPED_LOOP });
      continue;
    }
    try {
      const result = await db.transaction(async (tx) => {
        const [run] = await tx
          .insert(automationRuns)
          .values({
            orgId: rule.orgId,
            ruleId: rule.id,
            eventId: event.id,
            projectId: event.projectId,
            outcome: 'done',
          })
          .onConflictDoNothing()
          .returning({ id: automationRuns.id });
        if (!run) return null;
        const details: string[] = [];
        for (const action of rule.actions)
          details.push(await runAction(tx, rule, event, event.projectId, action, deps));
        const detail = details.join('; ').slice(0, 2000);
        await tx.update(automationRuns).set({ detail }).where(eq(automationRuns.id, run.id));
        return detail;
      });
      outcomes.push({ ruleId: rule.id, outcome: result === null ? 'already' : 'done', detail: result ?? '' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!(error instanceof ActionRefused) && !lastAttempt) {
        retry = error instanceof Error ? error : new Error(message);
        continue;
      }
      const recorded = await db.transaction(async (tx) => {
        const [run] = await tx
          .insert(automationRuns)
          .values({
            orgId: rule.orgId,
            ruleId: rule.id,
            eventId: event.id,
            projectId: event.projectId,
            outcome: 'failed',
            detail: message.slice(0, 2000),
          })
          .onConflictDoNothing()
          .returning({ id: automationRuns.id });
        if (!run) return false;
        await audit(
          tx,
          { kind: 'system', orgId: rule.orgId },
          {
            action: 'automation.failed',
            recordType: 'automationRule',
            recordId: rule.id,
            summary: `The rule ${rule.name} failed: ${message}`.slice(0, 2000),
          },
        );
        if (rule.ownerId) {
          await notify(tx, {
            orgId: rule.orgId,
            memberIds: [rule.ownerId],
            kind: 'automation.failed',
            title: `The rule ${rule.name} failed`.slice(0, 200),
            body: message.slice(0, 500),
            link: `/admin/automations?rule=${rule.id}`,
          });
        }
        return true;
      });
      outcomes.push({ ruleId: rule.id, outcome: recorded ? 'failed' : 'already', detail: message });
    }
  }
  if (retry) throw retry;
  await db.update(automationEvents).set({ processedAt: new Date() }).where(eq(automationEvents.id, event.id));
  return outcomes;
}
