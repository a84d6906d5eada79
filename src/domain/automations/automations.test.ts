import { describe, expect, it } from 'vitest';
import {
  conditionsHold,
  MAX_AUTOMATION_DEPTH,
  READY_MADE_RULES,
  stageNamesOf,
  stopsForLoop,
  type TMatchContext,
  triggerMatches,
  triggerSummary,
  ZRuleInput,
  ZStagesSet,
} from '.';

const ctx: TMatchContext = {
  clientType: 'company',
  groupId: '0190a0a0-0000-7000-8000-000000000001',
  tags: ['VIP', 'gst'],
  serviceId: '0190a0a0-0000-7000-8000-000000000002',
  ownerId: '0190a0a0-0000-7000-8000-000000000003',
  memberIds: ['0190a0a0-0000-7000-8000-000000000004'],
  templateId: null,
  periodKey: '2026-Q4',
  periodEnd: '2027-03-31',
};

describe('conditions', () => {
  it('holds when every condition holds, and with none', () => {
    expect(conditionsHold([], ctx)).toBe(true);
    expect(
      conditionsHold(
        [
          { kind: 'clientType', types: ['company', 'llp'] },
          { kind: 'clientTag', tag: 'vip' },
          { kind: 'clientGroup', groupIds: [ctx.groupId as string] },
          { kind: 'service', serviceIds: [ctx.serviceId as string] },
        ],
        ctx,
      ),
    ).toBe(true);
  });

  it('fails on any condition that does not hold', () => {
    expect(conditionsHold([{ kind: 'clientType', types: ['individual'] }], ctx)).toBe(false);
    expect(conditionsHold([{ kind: 'clientTag', tag: 'audit' }], ctx)).toBe(false);
    expect(conditionsHold([{ kind: 'service', serviceIds: [ctx.ownerId as string] }], ctx)).toBe(false);
    expect(
      conditionsHold([{ kind: 'clientGroup', groupIds: [ctx.serviceId as string] }], {
        ...ctx,
        groupId: null,
      }),
    ).toBe(false);
  });

  it('matches an assignee who owns the project or is on it', () => {
    expect(conditionsHold([{ kind: 'assignee', memberIds: [ctx.ownerId as string] }], ctx)).toBe(true);
    expect(conditionsHold([{ kind: 'assignee', memberIds: [ctx.memberIds[0] as string] }], ctx)).toBe(true);
    expect(conditionsHold([{ kind: 'assignee', memberIds: [ctx.groupId as string] }], ctx)).toBe(false);
  });
});

describe('triggers', () => {
  it('matches the event kind, and a stage by name whatever its case', () => {
    expect(triggerMatches({ kind: 'request.submitted' }, { kind: 'request.submitted', data: {} })).toBe(true);
    expect(triggerMatches({ kind: 'request.submitted' }, { kind: 'request.completed', data: {} })).toBe(
      false,
    );
    const filed = { kind: 'project.stage_entered', stageName: 'Filed' } as const;
    expect(triggerMatches(filed, { kind: 'project.stage_entered', data: { stageName: ' filed ' } })).toBe(
      true,
    );
    expect(triggerMatches(filed, { kind: 'project.stage_entered', data: { stageName: 'Review' } })).toBe(
      false,
    );
  });
});

describe('new triggers and actions', () => {
  it('matches "all tasks of a stage done" by name, or the current stage when none is named', () => {
    const named = { kind: 'project.stage_tasks_done', stageName: 'Preparation' } as const;
    const current = { kind: 'project.stage_tasks_done', stageName: null } as const;
    const event = (stageName: string, isCurrent: boolean) => ({
      kind: 'project.stage_tasks_done',
      data: { stageName, current: isCurrent },
    });
    expect(triggerMatches(named, event('preparation', false))).toBe(true);
    expect(triggerMatches(named, event('Review', true))).toBe(false);
    expect(triggerMatches(current, event('Review', true))).toBe(true);
    expect(triggerMatches(current, event('Review', false))).toBe(false);
  });

  it('matches "no reply" by its days, and keeps a rule to a template', () => {
    const trigger = { kind: 'message.no_reply', days: 3 } as const;
    expect(triggerMatches(trigger, { kind: 'message.no_reply', data: { days: 3 } })).toBe(true);
    expect(triggerMatches(trigger, { kind: 'message.no_reply', data: { days: 5 } })).toBe(false);
    const templateId = '0190a0a0-0000-7000-8000-000000000009';
    expect(conditionsHold([{ kind: 'projectTemplate', templateIds: [templateId] }], ctx)).toBe(false);
    expect(
      conditionsHold([{ kind: 'projectTemplate', templateIds: [templateId] }], { ...ctx, templateId }),
    ).toBe(true);
  });

  it('refuses a message with neither template nor text, or an unknown placeholder', () => {
    const rule = (action: Record<string, unknown>) =>
      ZRuleInput.safeParse({ name: 'x', trigger: { kind: 'project.created' }, actions: [action] });
    expect(rule({ kind: 'sendMessage' }).success).toBe(false);
    const unknown = rule({ kind: 'sendMessage', text: 'Hi {{nickname}}' });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.message).toBe('Unknown placeholder: nickname');
    expect(rule({ kind: 'sendMessage', text: 'Hi {{contact_name|there}}' }).success).toBe(true);
  });

  it('names the stages a rule acts on', () => {
    expect(
      stageNamesOf({
        trigger: { kind: 'project.stage_tasks_done', stageName: 'Preparation' },
        actions: [{ kind: 'moveStage', stageName: ' Review ' }, { kind: 'raiseInvoice' }],
      }),
    ).toEqual(['preparation', 'review']);
  });
});

describe('task status and period', () => {
  it('matches any status change, or a change to the status named', () => {
    const any = ZRuleInput.parse({
      name: 'x',
      trigger: { kind: 'task.status_changed' },
      actions: [{ kind: 'raiseInvoice' }],
    }).trigger;
    expect(any).toEqual({ kind: 'task.status_changed', toStatus: null });
    const event = (to: string) => ({ kind: 'task.status_changed', data: { from: 'SCHEDULED', to } });
    expect(triggerMatches(any, event('IN_PROGRESS'))).toBe(true);
    const review = { kind: 'task.status_changed', toStatus: 'IN_REVIEW' } as const;
    expect(triggerMatches(review, event('IN_REVIEW'))).toBe(true);
    expect(triggerMatches(review, event('COMPLETED'))).toBe(false);
    expect(triggerMatches(review, { kind: 'task.completed', data: { to: 'IN_REVIEW' } })).toBe(false);
    expect(
      ZRuleInput.safeParse({
        name: 'x',
        trigger: { kind: 'task.status_changed', toStatus: 'OVERDUE' },
        actions: [{ kind: 'raiseInvoice' }],
      }).success,
    ).toBe(false);
  });

  it('matches the period by its kind and the month it ends in', () => {
    const period = (frequencies: string[], endMonths: number[]) =>
      ZRuleInput.parse({
        name: 'x',
        trigger: { kind: 'project.created' },
        conditions: [{ kind: 'period', frequencies, endMonths }],
        actions: [{ kind: 'raiseInvoice' }],
      }).conditions;
    expect(conditionsHold(period(['quarterly'], []), ctx)).toBe(true);
    expect(conditionsHold(period(['monthly', 'yearly'], []), ctx)).toBe(false);
    expect(conditionsHold(period([], [3]), ctx)).toBe(true);
    expect(conditionsHold(period(['quarterly'], [6, 9]), ctx)).toBe(false);
    // Each key format the periods module makes.
    const kinds: [string, string][] = [
      ['2026-03', 'monthly'],
      ['2026-Q1', 'quarterly'],
      ['2026-H2', 'half_yearly'],
      ['2026', 'yearly'],
      ['FY2026-27', 'yearly'],
      ['once', 'one_time'],
    ];
    for (const [periodKey, frequency] of kinds)
      expect(conditionsHold(period([frequency], []), { ...ctx, periodKey })).toBe(true);
    // A project without a period, or with a key typed by hand, is no period's kind.
    expect(conditionsHold(period(['monthly'], []), { ...ctx, periodKey: null, periodEnd: null })).toBe(false);
    expect(conditionsHold(period([], [3]), { ...ctx, periodKey: null, periodEnd: null })).toBe(false);
    expect(conditionsHold(period(['monthly'], []), { ...ctx, periodKey: 'March run' })).toBe(false);
  });

  it('refuses a period condition that chooses nothing, or a month that is none', () => {
    const parse = (condition: Record<string, unknown>) =>
      ZRuleInput.safeParse({
        name: 'x',
        trigger: { kind: 'project.created' },
        conditions: [condition],
        actions: [{ kind: 'raiseInvoice' }],
      });
    const empty = parse({ kind: 'period', frequencies: [], endMonths: [] });
    expect(empty.error?.issues[0]?.message).toBe('Choose the kind of period or the month it ends in');
    expect(parse({ kind: 'period', endMonths: [13] }).success).toBe(false);
    expect(parse({ kind: 'period', frequencies: ['weekly'] }).success).toBe(false);
  });
});

describe('trigger summary', () => {
  it('says the trigger with its details', () => {
    expect(triggerSummary({ kind: 'task.status_changed', toStatus: 'IN_REVIEW' })).toBe(
      'A task of the project moves to In Review',
    );
    expect(triggerSummary({ kind: 'task.status_changed', toStatus: null })).toBe(
      'A task of the project changes status',
    );
    expect(triggerSummary({ kind: 'project.due', days: -3 })).toBe('3 days before a project’s due date');
    expect(triggerSummary({ kind: 'project.due', days: 1 })).toBe('1 day after a project’s due date');
    expect(triggerSummary({ kind: 'project.stage_entered', stageName: 'Filed' })).toBe(
      'A project enters Filed',
    );
    expect(triggerSummary({ kind: 'message.no_reply', days: 3 })).toBe('No client reply for 3 days');
    expect(triggerSummary({ kind: 'invoice.paid' })).toBe('An invoice is paid in full');
  });
});

describe('loop depth', () => {
  it('stops at depth 3: an event a person caused is 0, each rule adds one', () => {
    expect(MAX_AUTOMATION_DEPTH).toBe(3);
    expect([0, 1, 2, 3, 4].map(stopsForLoop)).toEqual([false, false, false, true, true]);
  });
});

describe('schemas', () => {
  it('refuses a rule without actions and stages with the same name', () => {
    expect(
      ZRuleInput.safeParse({ name: 'x', trigger: { kind: 'project.created' }, actions: [] }).success,
    ).toBe(false);
    const stages = ZStagesSet.safeParse({
      templateId: '0190a0a0-0000-7000-8000-000000000001',
      stages: [{ name: 'Review' }, { name: 'review' }],
    });
    expect(stages.success).toBe(false);
  });

  it('keeps the ready-made rules valid', () => {
    for (const rule of READY_MADE_RULES) expect(ZRuleInput.safeParse(rule).success).toBe(true);
  });
});
