import { describe, expect, it } from 'vitest';
import {
  conditionsHold,
  MAX_AUTOMATION_DEPTH,
  READY_MADE_RULES,
  stopsForLoop,
  type TMatchContext,
  triggerMatches,
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
