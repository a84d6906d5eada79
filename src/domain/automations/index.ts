import { z } from 'zod';
import { unknownPlaceholders } from '../broadcasts';
import { CLIENT_TYPES } from '../clients';
import { zInt, zString } from '../fields';
import { periodKeyFrequency } from '../periods';
import { SERVICE_FREQUENCIES } from '../services';
import { STORED_STATUSES } from '../status';

// Automations (issue 41): a project template's ordered stages, and the firm's rules, each a trigger,
// conditions and ordered actions stored as JSON these schemas validate.

const name = (label: string, max = 80) =>
  zString().trim().min(1, `Enter the ${label}`).max(max, `The ${label} must be at most ${max} characters`);

// ── Stages ────────────────────────────────────────────────────────────────────────────────────────

export const MAX_STAGES = 20;

/** A template's stages, in order: a stage kept by id keeps its projects; a removed one frees them. */
export const ZStagesSet = z.object({
  templateId: z.uuid('Choose a template'),
  stages: z
    .array(z.object({ id: z.uuid().nullish(), name: name('stage name', 60) }))
    .max(MAX_STAGES, `At most ${MAX_STAGES} stages`)
    .refine(
      (stages) => new Set(stages.map((s) => s.name.toLowerCase())).size === stages.length,
      'Two stages have the same name',
    ),
});
export type TStagesSet = z.input<typeof ZStagesSet>;

export const ZStagesRef = z.object({ templateId: z.uuid('Choose a template') });
export const ZProjectStageSet = z.object({
  projectId: z.uuid('Choose a project'),
  /** null takes the project out of every stage. */
  stageId: z.uuid('Choose a stage').nullable(),
});

// ── Rules ─────────────────────────────────────────────────────────────────────────────────────────

/** Events the features record (emitAutomationEvent), each a trigger a rule may start from. */
export const TRIGGER_KINDS = [
  'project.created',
  'project.stage_entered',
  'task.completed',
  'task.status_changed',
  'request.submitted',
  'request.completed',
  'proposal.signed',
  'invoice.issued',
  'invoice.paid',
  'project.due',
  'project.stage_tasks_done',
  'message.no_reply',
] as const;
export type TTriggerKind = (typeof TRIGGER_KINDS)[number];

export const TRIGGER_LABELS: Record<TTriggerKind, string> = {
  'project.created': 'A project is created',
  'project.stage_entered': 'A project enters a stage',
  'task.completed': 'A task of the project is completed',
  'task.status_changed': 'A task of the project changes status',
  'request.submitted': 'The client submits a request',
  'request.completed': 'A request is marked complete',
  'proposal.signed': 'A proposal is signed by everyone',
  'invoice.issued': 'An invoice is issued',
  'invoice.paid': 'An invoice is paid in full',
  'project.due': 'Days before or after a project’s due date',
  'project.stage_tasks_done': 'All tasks of a stage are done',
  'message.no_reply': 'No client reply for some days',
};

const stageName = name('stage name', 60);

const STATUS_WORDS: Record<(typeof STORED_STATUSES)[number], string> = {
  SCHEDULED: 'Scheduled',
  IN_PROGRESS: 'In Progress',
  IN_REVIEW: 'In Review',
  COMPLETED: 'Completed',
};

/** A trigger in words with its details (the stage, the days, the status), for the rules' lists. */
export function triggerSummary(trigger: TTrigger): string {
  switch (trigger.kind) {
    case 'project.stage_entered':
      return `A project enters ${trigger.stageName}`;
    case 'project.stage_tasks_done':
      return trigger.stageName
        ? `All tasks of ${trigger.stageName} are done`
        : 'All tasks of the current stage are done';
    case 'task.status_changed':
      return trigger.toStatus
        ? `A task of the project moves to ${STATUS_WORDS[trigger.toStatus]}`
        : TRIGGER_LABELS[trigger.kind];
    case 'project.due': {
      const n = Math.abs(trigger.days);
      const days = `${n} day${n === 1 ? '' : 's'}`;
      return trigger.days === 0
        ? 'On a project’s due date'
        : trigger.days < 0
          ? `${days} before a project’s due date`
          : `${days} after a project’s due date`;
    }
    case 'message.no_reply':
      return `No client reply for ${trigger.days} day${trigger.days === 1 ? '' : 's'}`;
    default:
      return TRIGGER_LABELS[trigger.kind];
  }
}

export const ZTrigger = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('project.created') }),
  z.object({ kind: z.literal('project.stage_entered'), stageName }),
  z.object({ kind: z.literal('task.completed') }),
  /**
   * Any change of a task's status (staff, bulk, the portal, a request completing its task), or only
   * a change to `toStatus`. A task created with a status is not a change.
   */
  z.object({
    kind: z.literal('task.status_changed'),
    toStatus: z
      .enum(STORED_STATUSES, { error: 'Choose a status' })
      .nullish()
      .transform((v) => v ?? null),
  }),
  z.object({ kind: z.literal('request.submitted') }),
  z.object({ kind: z.literal('request.completed') }),
  z.object({ kind: z.literal('proposal.signed') }),
  z.object({ kind: z.literal('invoice.issued') }),
  z.object({ kind: z.literal('invoice.paid') }),
  /** `days` before (negative) or after (positive) an open project's due date, by the hourly job. */
  z.object({
    kind: z.literal('project.due'),
    days: zInt({ error: 'Enter a whole number of days' })
      .min(-90, 'At most 90 days before')
      .max(90, 'At most 90 days after'),
  }),
  /**
   * The last open task of a stage completes: of the named stage, or (no name) of the stage the
   * project is in when it happens.
   */
  z.object({
    kind: z.literal('project.stage_tasks_done'),
    stageName: stageName.nullish().transform((v) => v ?? null),
  }),
  /** The firm wrote last in a conversation and the client has not answered for `days` days. */
  z.object({
    kind: z.literal('message.no_reply'),
    days: zInt({ error: 'Enter a whole number of days' }).min(1, 'At least 1 day').max(60, 'At most 60 days'),
  }),
]);
export type TTrigger = z.output<typeof ZTrigger>;

export const CONDITION_KINDS = [
  'clientType',
  'clientGroup',
  'clientTag',
  'service',
  'assignee',
  'projectTemplate',
  'period',
] as const;
export type TConditionKind = (typeof CONDITION_KINDS)[number];
export const CONDITION_LABELS: Record<TConditionKind, string> = {
  clientType: 'Client type',
  clientGroup: 'Client group',
  clientTag: 'Client tag',
  service: 'Service',
  assignee: 'Assignee',
  projectTemplate: 'Project template',
  period: 'Period',
};
export const ZCondition = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('clientType'),
    types: z.array(z.enum(CLIENT_TYPES)).min(1, 'Choose at least one client type'),
  }),
  z.object({ kind: z.literal('clientGroup'), groupIds: z.array(z.uuid()).min(1, 'Choose a group') }),
  z.object({ kind: z.literal('clientTag'), tag: name('tag', 40) }),
  z.object({ kind: z.literal('service'), serviceIds: z.array(z.uuid()).min(1, 'Choose a service') }),
  z.object({ kind: z.literal('assignee'), memberIds: z.array(z.uuid()).min(1, 'Choose a member') }),
  /** The project is made from one of these templates (a rule added on a template's page). */
  z.object({
    kind: z.literal('projectTemplate'),
    templateIds: z.array(z.uuid()).min(1, 'Choose a template'),
  }),
  /**
   * The project's period: its kind (a monthly, quarterly… period, read from the period key) and/or
   * the month it ends in ("the quarter ending in March": the year-end quarter). Either list empty
   * means any; a project without a period never matches.
   */
  z
    .object({
      kind: z.literal('period'),
      frequencies: z.array(z.enum(SERVICE_FREQUENCIES)).max(SERVICE_FREQUENCIES.length).default([]),
      endMonths: z.array(zInt().min(1, 'Choose a month').max(12, 'Choose a month')).max(12).default([]),
    })
    .refine((c) => c.frequencies.length > 0 || c.endMonths.length > 0, {
      message: 'Choose the kind of period or the month it ends in',
      path: ['frequencies'],
    }),
]);
export type TCondition = z.output<typeof ZCondition>;

export const ACTION_KINDS = [
  'moveStage',
  'assignOwner',
  'createTask',
  'notifyMembers',
  'setClientTag',
  'raiseInvoice',
  'sendRequest',
  'sendMessage',
] as const;
export const ACTION_LABELS: Record<(typeof ACTION_KINDS)[number], string> = {
  moveStage: 'Move the project to a stage',
  assignOwner: 'Make a member the project’s owner',
  createTask: 'Create a task on the project',
  notifyMembers: 'Notify members',
  setClientTag: 'Tag the client',
  raiseInvoice: 'Raise the period’s invoice',
  sendRequest: 'Send the client a request from a template',
  sendMessage: 'Send the client a message (portal and email)',
};

/** A message's text: placeholders of the broadcast templates' list only. */
const messageText = zString()
  .trim()
  .min(1, 'Write the message')
  .max(4000, 'The message must be at most 4000 characters')
  .refine((t) => unknownPlaceholders(t).length === 0, {
    error: (issue) => `Unknown placeholder: ${unknownPlaceholders(String(issue.input)).join(', ')}`,
  });
export const ZAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('moveStage'), stageName }),
  z.object({ kind: z.literal('assignOwner'), memberId: z.uuid('Choose a member') }),
  z.object({
    kind: z.literal('createTask'),
    title: name('task title', 200),
    dueInDays: zInt().min(0).max(365).nullish(),
  }),
  z.object({
    kind: z.literal('notifyMembers'),
    /** The project's owner, and/or these members. */
    owner: z.boolean().default(true),
    memberIds: z.array(z.uuid()).max(50).default([]),
    message: name('message', 300),
  }),
  z.object({ kind: z.literal('setClientTag'), tag: name('tag', 40) }),
  /** The fixed fee of the project's engagement period (billing's rules: once per period). */
  z.object({ kind: z.literal('raiseInvoice') }),
  /** A client request from one of the firm's request templates (the requests feature's rules). */
  z.object({
    kind: z.literal('sendRequest'),
    requestTemplateId: z.uuid('Choose a request template'),
    dueInDays: zInt().min(1).max(365).default(7),
  }),
  /**
   * A message in the client's conversation (the one the event is about, else a new one), mailed to
   * the client's portal people by the messages feature: from a broadcast template, or the text here;
   * placeholders filled for the client as broadcasts fill them.
   */
  z
    .object({
      kind: z.literal('sendMessage'),
      templateId: z
        .uuid('Choose a message template')
        .nullish()
        .transform((v) => v ?? null),
      text: messageText.nullish().transform((v) => v ?? null),
    })
    .refine((a) => !!a.templateId || !!a.text, {
      message: 'Choose a template or write the message',
      path: ['text'],
    }),
]);
export type TAction = z.output<typeof ZAction>;

export const ZRuleInput = z.object({
  name: name('rule name', 120),
  trigger: ZTrigger,
  conditions: z.array(ZCondition).max(10, 'At most 10 conditions').default([]),
  actions: z.array(ZAction).min(1, 'Add at least one action').max(10, 'At most 10 actions'),
});
export type TRuleInput = z.input<typeof ZRuleInput>;
export const ZRuleRef = z.object({ ruleId: z.uuid('Choose a rule') });
export const ZRuleUpdate = ZRuleInput.extend({ ruleId: z.uuid('Choose a rule') });
export const ZRuleEnable = z.object({ ruleId: z.uuid('Choose a rule'), enabled: z.boolean() });
export const ZRunsInput = z.object({
  ruleId: z.uuid('Choose a rule'),
  limit: zInt().min(1).max(100).default(50),
});

// ── Matching and loop safety (pure; the job and its tests use them) ────────────────────────────────

/** What a rule's conditions look at, read once per event. */
export type TMatchContext = {
  clientType: string | null;
  groupId: string | null;
  tags: readonly string[];
  serviceId: string | null;
  ownerId: string | null;
  memberIds: readonly string[];
  templateId: string | null;
  /** The project's period key ('2026-03', '2026-Q1', 'once'…) and last day, null without one. */
  periodKey: string | null;
  periodEnd: string | null;
};

export function conditionHolds(c: TCondition, ctx: TMatchContext): boolean {
  switch (c.kind) {
    case 'clientType':
      return ctx.clientType !== null && (c.types as readonly string[]).includes(ctx.clientType);
    case 'clientGroup':
      return ctx.groupId !== null && c.groupIds.includes(ctx.groupId);
    case 'clientTag': {
      const tag = c.tag.toLowerCase();
      return ctx.tags.some((t) => t.toLowerCase() === tag);
    }
    case 'service':
      return ctx.serviceId !== null && c.serviceIds.includes(ctx.serviceId);
    case 'assignee':
      return c.memberIds.some((id) => id === ctx.ownerId || ctx.memberIds.includes(id));
    case 'projectTemplate':
      return ctx.templateId !== null && c.templateIds.includes(ctx.templateId);
    case 'period': {
      if (!ctx.periodKey) return false;
      if (c.frequencies.length) {
        const frequency = periodKeyFrequency(ctx.periodKey);
        if (!frequency || !c.frequencies.includes(frequency)) return false;
      }
      if (c.endMonths.length) {
        const month = ctx.periodEnd ? Number(ctx.periodEnd.slice(5, 7)) : Number.NaN;
        if (!c.endMonths.includes(month)) return false;
      }
      return true;
    }
  }
}

/** Every condition must hold (none: always). */
export const conditionsHold = (conditions: readonly TCondition[], ctx: TMatchContext) =>
  conditions.every((c) => conditionHolds(c, ctx));

/** Does the event match the trigger itself (its kind, and for a stage, the stage's name)? */
export function triggerMatches(trigger: TTrigger, event: { kind: string; data: Record<string, unknown> }) {
  if (trigger.kind !== event.kind) return false;
  if (trigger.kind === 'project.due') return event.data.days === trigger.days;
  if (trigger.kind === 'message.no_reply') return event.data.days === trigger.days;
  if (trigger.kind === 'task.status_changed') return !trigger.toStatus || event.data.to === trigger.toStatus;
  if (trigger.kind === 'project.stage_tasks_done') {
    if (!trigger.stageName) return event.data.current === true;
    const done = typeof event.data.stageName === 'string' ? event.data.stageName : '';
    return done.trim().toLowerCase() === trigger.stageName.trim().toLowerCase();
  }
  if (trigger.kind === 'project.stage_entered') {
    const entered = typeof event.data.stageName === 'string' ? event.data.stageName : '';
    return entered.trim().toLowerCase() === trigger.stageName.trim().toLowerCase();
  }
  return true;
}

/**
 * The stage names a rule names (its trigger's and its moves'): a rule "acts on" a template's stages
 * when one of them is a stage of the template, whatever its case.
 */
export function stageNamesOf(rule: { trigger: TTrigger; actions: readonly TAction[] }): string[] {
  const names: string[] = [];
  if (
    (rule.trigger.kind === 'project.stage_entered' || rule.trigger.kind === 'project.stage_tasks_done') &&
    rule.trigger.stageName
  )
    names.push(rule.trigger.stageName);
  for (const a of rule.actions) if (a.kind === 'moveStage') names.push(a.stageName);
  return names.map((n) => n.trim().toLowerCase());
}

/** Events caused by a rule carry depth + 1; at this depth a rule no longer runs. */
export const MAX_AUTOMATION_DEPTH = 3;
export const STOPPED_LOOP = 'stopped: loop';
export const stopsForLoop = (depth: number) => depth >= MAX_AUTOMATION_DEPTH;

export const RUN_OUTCOMES = ['done', 'failed', 'stopped_loop'] as const;
export type TRunOutcome = (typeof RUN_OUTCOMES)[number];
export const RUN_OUTCOME_LABELS: Record<TRunOutcome, string> = {
  done: 'Done',
  failed: 'Failed',
  stopped_loop: 'Stopped: loop',
};

/** The ready-made rules a firm can add and switch on. */
export const READY_MADE_KEYS = [
  'start-preparation',
  'review-when-submitted',
  'review-when-prepared',
  'remind-no-reply',
  'invoice-filed',
] as const;
/** Adds a ready-made rule; on a template's page, for that template's projects only. */
export const ZReadyMade = z.object({
  key: z.enum(READY_MADE_KEYS),
  templateId: z.uuid('Choose a template').nullish(),
});
export type TReadyMade = z.output<typeof ZReadyMade>;
export const READY_MADE_RULES: readonly (TRuleInput & { key: (typeof READY_MADE_KEYS)[number] })[] = [
  {
    key: 'start-preparation',
    name: 'Start preparation when the client’s request is complete',
    trigger: { kind: 'request.completed' },
    actions: [{ kind: 'moveStage', stageName: 'Preparation' }],
  },
  {
    key: 'review-when-submitted',
    name: 'Move to Preparation when the client submits a request',
    trigger: { kind: 'request.submitted' },
    actions: [{ kind: 'moveStage', stageName: 'Preparation' }],
  },
  {
    key: 'review-when-prepared',
    name: 'Move to Review when all preparation tasks are done',
    trigger: { kind: 'project.stage_tasks_done', stageName: 'Preparation' },
    actions: [{ kind: 'moveStage', stageName: 'Review' }],
  },
  {
    key: 'remind-no-reply',
    name: 'Remind the client after 3 days without a reply',
    trigger: { kind: 'message.no_reply', days: 3 },
    actions: [
      {
        kind: 'sendMessage',
        text: 'Hello {{contact_name|there}}, a gentle reminder about our last message: could you reply when you have a moment? Thank you, {{firm_name}}',
      },
    ],
  },
  {
    key: 'invoice-filed',
    name: 'Raise the invoice when the project is filed',
    trigger: { kind: 'project.stage_entered', stageName: 'Filed' },
    actions: [{ kind: 'raiseInvoice' }],
  },
];
