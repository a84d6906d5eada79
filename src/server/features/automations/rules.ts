import { TRPCError } from '@trpc/server';
import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  conditionsHold,
  READY_MADE_RULES,
  stageNamesOf,
  type TReadyMade,
  TRIGGER_LABELS,
  triggerMatches,
  triggerSummary,
  ZRuleInput,
  type ZRunsInput,
  ZTrigger,
} from '../../../domain/automations';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  automationEvents,
  automationRules,
  automationRuns,
  broadcastTemplates,
  clientGroups,
  clients,
  members,
  projects,
  projectTemplates,
  requestTemplates,
  services,
  templateStages,
} from '../../db/schema';
import { audit, diff } from '../system-log';
import { matchContexts, parseRule } from './engine';

type TRuleValues = z.output<typeof ZRuleInput>;

async function ruleRow(db: TExecutor, orgId: string, ruleId: string, lock = false) {
  const query = db
    .select()
    .from(automationRules)
    .where(and(eq(automationRules.orgId, orgId), eq(automationRules.id, ruleId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Rule not found' });
  return row;
}

/** The firm's rules, each with its last run's outcome and its run count over the last 30 days. */
export async function listRules(db: TExecutor, scope: TScope) {
  const rows = await db
    .select({
      id: automationRules.id,
      name: automationRules.name,
      enabled: automationRules.enabled,
      triggerKind: automationRules.triggerKind,
      trigger: automationRules.trigger,
      conditions: automationRules.conditions,
      actions: automationRules.actions,
      updatedAt: automationRules.updatedAt,
      // Qualified by hand: drizzle writes a one-table select's columns bare, and a bare "id" in the
      // subquery would be the run's own id (the last run never found).
      lastRun: sql<{
        outcome: string;
        at: string;
      } | null>`(select json_build_object('outcome', r.outcome, 'at', r.created_at)
        from automation_runs r where r.org_id = automation_rules.org_id and r.rule_id = automation_rules.id
        order by r.created_at desc limit 1)`,
    })
    .from(automationRules)
    .where(eq(automationRules.orgId, scope.orgId))
    .orderBy(asc(automationRules.name), asc(automationRules.id));
  return rows.map((r) => {
    const trigger = ZTrigger.safeParse(r.trigger);
    return {
      ...r,
      triggerLabel: trigger.success
        ? triggerSummary(trigger.data)
        : (TRIGGER_LABELS[r.triggerKind as keyof typeof TRIGGER_LABELS] ?? r.triggerKind),
    };
  });
}

export async function getRule(db: TExecutor, scope: TScope, ruleId: string) {
  const row = await ruleRow(db, scope.orgId, ruleId);
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    trigger: row.trigger,
    conditions: row.conditions,
    actions: row.actions,
  } as { id: string; name: string; enabled: boolean } & Omit<TRuleValues, 'name'>;
}

const columns = (input: TRuleValues) => ({
  name: input.name,
  triggerKind: input.trigger.kind,
  trigger: input.trigger,
  conditions: input.conditions,
  actions: input.actions,
});

/**
 * Every id a rule names must be one of the firm's: checked when it is saved, not first when it runs
 * (another firm's id, or an unknown one, is refused with what it is).
 */
export async function checkRefs(db: TExecutor, orgId: string, input: TRuleValues) {
  const ids = {
    members: new Set<string>(),
    groups: new Set<string>(),
    services: new Set<string>(),
    templates: new Set<string>(),
    requestTemplates: new Set<string>(),
    messageTemplates: new Set<string>(),
  };
  for (const c of input.conditions) {
    if (c.kind === 'clientGroup') for (const id of c.groupIds) ids.groups.add(id);
    if (c.kind === 'service') for (const id of c.serviceIds) ids.services.add(id);
    if (c.kind === 'assignee') for (const id of c.memberIds) ids.members.add(id);
    if (c.kind === 'projectTemplate') for (const id of c.templateIds) ids.templates.add(id);
  }
  for (const a of input.actions) {
    if (a.kind === 'assignOwner') ids.members.add(a.memberId);
    if (a.kind === 'notifyMembers') for (const id of a.memberIds) ids.members.add(id);
    if (a.kind === 'sendRequest') ids.requestTemplates.add(a.requestTemplateId);
    if (a.kind === 'sendMessage' && a.templateId) ids.messageTemplates.add(a.templateId);
  }
  const found = async (
    table:
      | typeof members
      | typeof clientGroups
      | typeof services
      | typeof projectTemplates
      | typeof requestTemplates
      | typeof broadcastTemplates,
    wanted: Set<string>,
  ) => {
    if (!wanted.size) return wanted.size;
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(and(eq(table.orgId, orgId), inArray(table.id, [...wanted])));
    return row?.n ?? 0;
  };
  const checks = [
    [members, ids.members, 'A member the rule names is not one of your firm’s'],
    [clientGroups, ids.groups, 'A client group the rule names is not one of your firm’s'],
    [services, ids.services, 'A service the rule names is not one of your firm’s'],
    [projectTemplates, ids.templates, 'A project template the rule names is not one of your firm’s'],
    [requestTemplates, ids.requestTemplates, 'The request template is not one of your firm’s'],
    [broadcastTemplates, ids.messageTemplates, 'The message template is not one of your firm’s'],
  ] as const;
  const counts = await Promise.all(checks.map(([table, wanted]) => found(table, wanted)));
  checks.forEach(([, wanted, message], i) => {
    if (counts[i] !== wanted.size) throw new TRPCError({ code: 'BAD_REQUEST', message });
  });
}

/** A new rule starts switched off: the editor shows its preview before it is switched on. */
export async function createRule(db: TDb, scope: TScope, input: TRuleValues, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    await checkRefs(tx, scope.orgId, input);
    const [row] = await tx
      .insert(automationRules)
      .values({ orgId: scope.orgId, ownerId: scope.memberId, enabled: false, ...columns(input) })
      .returning({ id: automationRules.id });
    if (!row) throw new Error('rule not created');
    await audit(tx, actorOf(scope, meta), {
      action: 'automation.create',
      recordType: 'automationRule',
      recordId: row.id,
      summary: `Created the rule ${input.name}`,
    });
    return { id: row.id };
  });
}

/**
 * A rule's updated_at after a change: the database's clock, and always at least a millisecond past
 * the last. Every instance keeps parsed rules by id and updated_at read to the millisecond
 * (engine.ts), so two changes of one rule must never share it, whatever the application's clocks.
 */
const nextVersion = sql`greatest(now(), ${automationRules.updatedAt} + interval '1 millisecond')`;

export async function updateRule(
  db: TDb,
  scope: TScope,
  ruleId: string,
  input: TRuleValues,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await ruleRow(tx, scope.orgId, ruleId, true);
    await checkRefs(tx, scope.orgId, input);
    const next = columns(input);
    const changes = diff(before as unknown as Record<string, unknown>, next);
    if (!changes) return { id: ruleId };
    await tx
      .update(automationRules)
      .set({ ...next, updatedAt: nextVersion })
      .where(and(eq(automationRules.orgId, scope.orgId), eq(automationRules.id, ruleId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'automation.update',
      recordType: 'automationRule',
      recordId: ruleId,
      summary: `Updated the rule ${input.name}`,
      changes,
    });
    return { id: ruleId };
  });
}

export async function setRuleEnabled(
  db: TDb,
  scope: TScope,
  ruleId: string,
  enabled: boolean,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await ruleRow(tx, scope.orgId, ruleId, true);
    if (before.enabled === enabled) return { id: ruleId, enabled };
    // Whoever switches a rule on owns it: its failures are reported to them.
    await tx
      .update(automationRules)
      .set({ enabled, ...(enabled ? { ownerId: scope.memberId } : {}), updatedAt: nextVersion })
      .where(and(eq(automationRules.orgId, scope.orgId), eq(automationRules.id, ruleId)));
    await audit(tx, actorOf(scope, meta), {
      action: enabled ? 'automation.enable' : 'automation.disable',
      recordType: 'automationRule',
      recordId: ruleId,
      summary: `Switched ${enabled ? 'on' : 'off'} the rule ${before.name}`,
    });
    return { id: ruleId, enabled };
  });
}

export async function deleteRule(db: TDb, scope: TScope, ruleId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await ruleRow(tx, scope.orgId, ruleId, true);
    await tx
      .delete(automationRules)
      .where(and(eq(automationRules.orgId, scope.orgId), eq(automationRules.id, ruleId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'automation.delete',
      recordType: 'automationRule',
      recordId: ruleId,
      summary: `Deleted the rule ${before.name}`,
    });
    return { id: ruleId };
  });
}

/**
 * Adds a ready-made rule (switched off) by its key; given a template (its page), for the projects of
 * that template only, and named after it.
 */
export async function addReadyMade(db: TDb, scope: TScope, input: TReadyMade, meta: TRequestMeta) {
  const preset = READY_MADE_RULES.find((r) => r.key === input.key);
  if (!preset) throw new TRPCError({ code: 'NOT_FOUND', message: 'Ready-made rule not found' });
  const { key: _key, ...values } = preset;
  if (!input.templateId) return createRule(db, scope, ZRuleInput.parse(values), meta);
  const [template] = await db
    .select({ id: projectTemplates.id, name: projectTemplates.name })
    .from(projectTemplates)
    .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, input.templateId)))
    .limit(1);
  if (!template) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
  return createRule(
    db,
    scope,
    ZRuleInput.parse({
      ...values,
      name: `${values.name} (${template.name})`.slice(0, 120),
      conditions: [...(values.conditions ?? []), { kind: 'projectTemplate', templateIds: [template.id] }],
    }),
    meta,
  );
}

/**
 * The rules that act on a template's stages (a stage of it by name, in their trigger or a move), or
 * are kept to its projects: its page lists them.
 */
export async function templateRules(db: TExecutor, scope: TScope, templateId: string) {
  const [template] = await db
    .select({ id: projectTemplates.id })
    .from(projectTemplates)
    .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, templateId)))
    .limit(1);
  if (!template) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
  const [stages, rules] = await Promise.all([
    db
      .select({ name: templateStages.name })
      .from(templateStages)
      .where(and(eq(templateStages.orgId, scope.orgId), eq(templateStages.templateId, templateId))),
    listRules(db, scope),
  ]);
  const names = new Set(stages.map((s) => s.name.trim().toLowerCase()));
  return rules.filter((r) => {
    const rule = parseRule({ ...r, orgId: scope.orgId, ownerId: null, createdAt: r.updatedAt });
    if (!rule) return false;
    const kept = rule.conditions.filter((c) => c.kind === 'projectTemplate');
    if (kept.length) return kept.some((c) => c.templateIds.includes(templateId));
    return stageNamesOf(rule).some((n) => names.has(n));
  });
}

/** A rule's runs, newest first, with the project each was about. */
export async function listRuns(db: TExecutor, scope: TScope, input: z.output<typeof ZRunsInput>) {
  const rule = await ruleRow(db, scope.orgId, input.ruleId);
  const rows = await db
    .select({
      id: automationRuns.id,
      outcome: automationRuns.outcome,
      detail: automationRuns.detail,
      at: automationRuns.createdAt,
      projectId: automationRuns.projectId,
      projectName: projects.name,
      eventKind: automationEvents.kind,
    })
    .from(automationRuns)
    .innerJoin(
      automationEvents,
      and(eq(automationEvents.orgId, automationRuns.orgId), eq(automationEvents.id, automationRuns.eventId)),
    )
    .leftJoin(
      projects,
      and(eq(projects.orgId, automationRuns.orgId), eq(projects.id, automationRuns.projectId)),
    )
    .where(and(eq(automationRuns.orgId, scope.orgId), eq(automationRuns.ruleId, rule.id)))
    .orderBy(desc(automationRuns.createdAt), desc(automationRuns.id))
    .limit(input.limit);
  return { rule: { id: rule.id, name: rule.name }, runs: rows };
}

export const PREVIEW_DAYS = 30;
const PREVIEW_EVENTS = 2000;

/**
 * "Would have fired for these N projects in the last 30 days": the events of the rule's trigger kind
 * recorded in that window, matched against its trigger and its conditions as they hold now.
 */
export async function previewRule(db: TExecutor, scope: TScope, input: TRuleValues) {
  const since = new Date(Date.now() - PREVIEW_DAYS * 24 * 60 * 60_000);
  const events = await db
    .select({
      kind: automationEvents.kind,
      data: automationEvents.data,
      projectId: automationEvents.projectId,
      clientId: automationEvents.clientId,
    })
    .from(automationEvents)
    .where(
      and(
        eq(automationEvents.orgId, scope.orgId),
        eq(automationEvents.kind, input.trigger.kind),
        gte(automationEvents.createdAt, since),
      ),
    )
    .orderBy(desc(automationEvents.createdAt))
    .limit(PREVIEW_EVENTS);
  const rule = parseRule({
    id: '',
    orgId: scope.orgId,
    name: input.name,
    enabled: true,
    triggerKind: input.trigger.kind,
    trigger: input.trigger,
    conditions: input.conditions,
    actions: input.actions,
    ownerId: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  if (!rule) return { days: PREVIEW_DAYS, events: 0, projects: [] };
  const hits = events.filter((e) =>
    triggerMatches(rule.trigger, { kind: e.kind, data: (e.data ?? {}) as Record<string, unknown> }),
  );
  const contexts = await matchContexts(db, scope.orgId, hits);
  const projectIds = new Set<string>();
  let fired = 0;
  for (const e of hits) {
    const ctx = contexts.get(`${e.projectId ?? ''}:${e.clientId ?? ''}`);
    if (!ctx || !conditionsHold(rule.conditions, ctx)) continue;
    fired++;
    if (e.projectId) projectIds.add(e.projectId);
  }
  const ids = [...projectIds];
  const named = ids.length
    ? await db
        .select({ id: projects.id, name: projects.name, clientName: clients.name })
        .from(projects)
        .innerJoin(clients, and(eq(clients.orgId, projects.orgId), eq(clients.id, projects.clientId)))
        .where(and(eq(projects.orgId, scope.orgId), inArray(projects.id, ids.slice(0, 100))))
        .orderBy(asc(projects.name))
    : [];
  return { days: PREVIEW_DAYS, events: fired, projectCount: ids.length, projects: named };
}
