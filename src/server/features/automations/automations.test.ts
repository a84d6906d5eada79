import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuleInput } from '../../../domain/automations';
import {
  automationEvents,
  automationRuns,
  clients,
  invoiceLines,
  notifications,
  orgs,
  projects,
  requests,
  systemLog,
  tasks,
} from '../../db/schema';
import { createWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedInvoice, seedReceipt } from '../../test/billing';
import { codeOf } from '../../test/outcome';
import { seedPortalWorld } from '../../test/portal-world';
import {
  AUTOMATION_EVENT_JOB,
  emitAutomationEvent,
  processEvent,
  registerAutomationJobs,
  scanDueDates,
} from '.';

// Automations through the router: a template's stages and its board; rules that the features'
// events start, run by the job queue once per rule and event, marked as the rule's doing, and
// stopped when rules would chase each other.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let templateId: string;
let projectId: string;
const STAGES = ['Waiting on client', 'Preparation', 'Review', 'Client approval', 'Filed', 'Billed'];

const api = () => w.own.api;
const staffApi = () => t.client(w.firm.staff.token);

function worker() {
  registerAutomationJobs();
  return createWorker(
    { db: t.db, config: t.config, mailer: t.mailer, log: { info() {}, warn() {}, error() {} } },
    { pollMs: 50, kinds: [AUTOMATION_EVENT_JOB], batchSize: 5 },
  );
}
async function drain() {
  const runner = worker();
  for (let n = await runner.tick(); n > 0; n = await runner.tick()) {}
}

async function stageOf(id: string) {
  const [row] = await t.db.select({ stageId: projects.stageId }).from(projects).where(eq(projects.id, id));
  const { stages } = await api().stages.list.query({ templateId });
  return stages.find((s) => s.id === row?.stageId)?.name ?? null;
}

async function rule(input: TRuleInput) {
  const { id } = await api().automations.create.mutate(input);
  await api().automations.setEnabled.mutate({ ruleId: id, enabled: true });
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
  ({ id: templateId } = await api().projectTemplates.create.mutate({ name: 'Income tax return' }));
  await api().stages.set.mutate({ templateId, stages: STAGES.map((name) => ({ name })) });
  ({ id: projectId } = await api().projects.create.mutate({
    clientId: w.own.client.id,
    name: 'ITR 2026',
    templateId,
    ownerId: w.firm.staff.id,
    dueDate: '2099-07-31',
  }));
}, 120_000);
afterAll(() => t?.close());

describe('stages', () => {
  it('keeps a template’s ordered stages; a project made from it starts in the first', async () => {
    const { stages } = await api().stages.list.query({ templateId });
    expect(stages.map((s) => s.name)).toEqual(STAGES);
    expect(await stageOf(projectId)).toBe('Waiting on client');
    expect(
      await codeOf(() => api().stages.set.mutate({ templateId, stages: [{ name: 'A' }, { name: 'a' }] })),
    ).toBe('BAD_REQUEST');
  });

  it('moves a project on the board: logged, its owner told, the board shows it in its column', async () => {
    const { stages } = await api().stages.list.query({ templateId });
    const review = stages.find((s) => s.name === 'Review');
    await api().stages.move.mutate({ projectId, stageId: review?.id ?? null });
    expect(await stageOf(projectId)).toBe('Review');
    const [log] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.action, 'project.stage'), eq(systemLog.recordId, projectId)));
    expect(log?.summary).toBe('Moved the project ITR 2026 from Waiting on client to Review');
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.memberId, w.firm.staff.id), eq(notifications.kind, 'project.stage')));
    expect(told.map((n) => n.title)).toEqual(['ITR 2026 moved to Review']);
    const board = await api().stages.board.query({ templateId });
    expect(board.columns.map((c) => [c.name, c.total])).toEqual(
      STAGES.map((s) => [s, s === 'Review' ? 1 : 0]),
    );
    // A stage of another template, or another firm's project, is refused.
    expect(await codeOf(() => api().stages.move.mutate({ projectId, stageId: w.own.project.id }))).toBe(
      'BAD_REQUEST',
    );
    expect(
      await codeOf(() => t.client(w.otherFirm.owner.token).stages.move.mutate({ projectId, stageId: null })),
    ).toBe('NOT_FOUND');
  });
});

describe('rules', () => {
  it('a request submitted in the portal moves the project to Preparation, marked as the rule’s doing', async () => {
    const ruleId = await rule({
      name: 'Prepare when submitted',
      trigger: { kind: 'request.submitted' },
      actions: [{ kind: 'moveStage', stageName: 'Preparation' }],
    });
    const sent = await api().requests.create.mutate({
      clientId: w.own.client.id,
      projectId,
      title: 'Documents for ITR 2026',
      dueDate: '2099-06-30',
      recipientIds: [w.portal.user.id],
      sections: [{ title: 'Docs', items: [{ key: 'pan', kind: 'short_text', label: 'PAN' }] }],
    });
    const portal = w.portal.client.clientPortalRequests;
    const ref = { clientId: w.own.client.id, requestId: sent.id };
    const item = (await portal.get.query(ref)).items[0];
    await portal.answer.mutate({ ...ref, itemId: item?.id as string, value: 'ABCDE1234F' });
    await portal.submit.mutate(ref);
    await drain();
    expect(await stageOf(projectId)).toBe('Preparation');
    const [log] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.action, 'project.stage'), eq(systemLog.actorKind, 'automation')));
    expect(log?.summary).toBe(
      'Moved the project ITR 2026 from Review to Preparation (by rule Prepare when submitted)',
    );
    const { runs } = await api().automations.runs.query({ ruleId });
    expect(runs.map((r) => [r.outcome, r.projectName])).toEqual([['done', 'ITR 2026']]);
    await api().automations.setEnabled.mutate({ ruleId, enabled: false });
  });

  it('a project entering Filed creates the invoice task and tells the owner', async () => {
    await rule({
      name: 'Bill when filed',
      trigger: { kind: 'project.stage_entered', stageName: 'filed' },
      conditions: [{ kind: 'clientType', types: ['individual', 'company'] }],
      actions: [
        { kind: 'createTask', title: 'Raise the invoice', dueInDays: 2 },
        { kind: 'notifyMembers', owner: true, memberIds: [], message: 'Filed: invoice it' },
      ],
    });
    const { stages } = await api().stages.list.query({ templateId });
    await api().stages.move.mutate({
      projectId,
      stageId: stages.find((s) => s.name === 'Filed')?.id ?? null,
    });
    await drain();
    const made = await t.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.projectId, projectId), eq(tasks.title, 'Raise the invoice')));
    expect(made).toHaveLength(1);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.memberId, w.firm.staff.id), eq(notifications.kind, 'automation.notice')));
    expect(told.map((n) => [n.title, n.body])).toEqual([
      ['ITR 2026: Filed: invoice it', 'By rule Bill when filed'],
    ]);
  });

  it('a project of an engagement entering Filed has its period’s invoice raised, once', async () => {
    const svc = await api().services.create.mutate({
      name: 'Income tax return',
      code: 'ITR',
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 20, monthsAfterPeriod: 1 },
      projectTemplateId: templateId,
      defaultFee: '5000',
      billingMode: 'fixed',
      feeTrigger: 'manual',
    });
    const today = new Date().toISOString().slice(0, 10);
    const start = `${today.slice(0, 7)}-01`;
    const engagement = await api().engagements.create.mutate({
      clientId: w.own.client.id,
      serviceId: svc.id,
      startDate: start,
      fee: '5000',
    });
    const [period] = await t.db
      .select()
      .from(projects)
      .where(eq(projects.clientServiceId, engagement.id))
      .orderBy(projects.periodStart);
    expect(period).toBeDefined();
    const id = period?.id as string;
    expect(await stageOf(id)).toBe('Waiting on client');
    await rule({
      name: 'Invoice when filed',
      trigger: { kind: 'project.stage_entered', stageName: 'Filed' },
      actions: [{ kind: 'raiseInvoice' }],
    });
    const { stages } = await api().stages.list.query({ templateId });
    const filed = stages.find((s) => s.name === 'Filed')?.id ?? null;
    await api().stages.move.mutate({ projectId: id, stageId: filed });
    await drain();
    const lines = await t.db.select().from(invoiceLines).where(eq(invoiceLines.engagementId, engagement.id));
    expect(lines.map((l) => [l.kind, l.periodStart])).toEqual([['fee', period?.periodStart]]);
    // Out of Filed and back: a new event, but the period is billed already.
    await api().stages.move.mutate({ projectId: id, stageId: null });
    await api().stages.move.mutate({ projectId: id, stageId: filed });
    await drain();
    expect(
      await t.db.select().from(invoiceLines).where(eq(invoiceLines.engagementId, engagement.id)),
    ).toHaveLength(1);
    const [log] = await t.db.select().from(systemLog).where(eq(systemLog.action, 'invoice.raise'));
    expect(log?.summary).toMatch(/^Raised the invoice of .*’s period \(by rule Invoice when filed\)$/);
  });

  it('an invoice issued tags the client; paid in full, it tells the members named', async () => {
    await rule({
      name: 'Tag invoiced clients',
      trigger: { kind: 'invoice.issued' },
      actions: [{ kind: 'setClientTag', tag: 'invoiced' }],
    });
    await rule({
      name: 'Say when paid',
      trigger: { kind: 'invoice.paid' },
      actions: [
        { kind: 'notifyMembers', owner: false, memberIds: [w.firm.owner.id], message: 'Paid in full' },
      ],
    });
    const invoice = await seedInvoice(t, w.firm.org.id, {
      clientId: w.own.client.id,
      lines: [{ description: 'Return filing', rate: 100_000 }],
    });
    await drain();
    const [client] = await t.db.select().from(clients).where(eq(clients.id, w.own.client.id));
    expect(client?.tags).toContain('invoiced');
    await seedReceipt(t, w.firm.org.id, {
      clientId: w.own.client.id,
      receivedOn: '2026-11-20',
      amount: invoice.total,
      allocate: [{ invoiceId: invoice.id, amount: invoice.total }],
    });
    await drain();
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.memberId, w.firm.owner.id), eq(notifications.title, 'Paid in full')));
    expect(told).toHaveLength(1);
  });

  it('N days after the due date: the hourly pass records one event a project and day', async () => {
    await rule({
      name: 'Chase overdue',
      trigger: { kind: 'project.due', days: 2 },
      actions: [{ kind: 'notifyMembers', owner: true, memberIds: [], message: 'Two days overdue' }],
    });
    const [{ day } = { day: '' }] = await t.db
      .select({ day: sql<string>`to_char((now() at time zone ${orgs.timeZone})::date - 2, 'YYYY-MM-DD')` })
      .from(orgs)
      .where(eq(orgs.id, w.firm.org.id));
    await api().projects.create.mutate({
      clientId: w.own.client.id,
      name: 'Late 2026',
      ownerId: w.firm.staff.id,
      dueDate: day,
    });
    expect(await scanDueDates(t.db, { orgId: w.firm.org.id })).toEqual({ events: 1 });
    expect(await scanDueDates(t.db, { orgId: w.firm.org.id })).toEqual({ events: 0 });
    await drain();
    const told = await t.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.memberId, w.firm.staff.id),
          eq(notifications.title, 'Late 2026: Two days overdue'),
        ),
      );
    expect(told).toHaveLength(1);
  });

  it('a task completed notifies the members the rule names', async () => {
    await rule({
      name: 'Tell the owner about done tasks',
      trigger: { kind: 'task.completed' },
      conditions: [{ kind: 'assignee', memberIds: [w.firm.staff.id] }],
      actions: [
        { kind: 'notifyMembers', owner: false, memberIds: [w.firm.owner.id], message: 'A task is done' },
      ],
    });
    const task = await api().tasks.create.mutate({
      title: 'Compute tax',
      clientId: w.own.client.id,
      projectId,
    });
    await api().tasks.setStatus.mutate({ taskId: task.id, status: 'COMPLETED' });
    await drain();
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.memberId, w.firm.owner.id), eq(notifications.kind, 'automation.notice')));
    expect(told.map((n) => n.title).filter((title) => title.endsWith('A task is done'))).toEqual([
      'ITR 2026: A task is done',
    ]);
  });

  it('runs once per rule and event when two runners race', async () => {
    const ruleId = await rule({
      name: 'Tag on creation',
      trigger: { kind: 'project.created' },
      actions: [{ kind: 'notifyMembers', owner: true, memberIds: [], message: 'New project' }],
    });
    const { id } = await api().projects.create.mutate({
      clientId: w.own.client.id,
      name: 'Race 2026',
      templateId,
      ownerId: w.firm.staff.id,
    });
    const [event] = await t.db.select().from(automationEvents).where(eq(automationEvents.projectId, id));
    await Promise.all([
      processEvent(t.db, event?.id as string),
      processEvent(t.db, event?.id as string),
      worker().tick(),
      worker().tick(),
    ]);
    const runs = await t.db.select().from(automationRuns).where(eq(automationRuns.ruleId, ruleId));
    expect(runs).toHaveLength(1);
    const told = await t.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.memberId, w.firm.staff.id), eq(notifications.title, 'Race 2026: New project')),
      );
    expect(told).toHaveLength(1);
  });

  it('stops rules that chase each other at depth 3, and says so in the run history', async () => {
    const toFiled = await rule({
      name: 'Review → Client approval',
      trigger: { kind: 'project.stage_entered', stageName: 'Review' },
      actions: [{ kind: 'moveStage', stageName: 'Client approval' }],
    });
    await rule({
      name: 'Client approval → Review',
      trigger: { kind: 'project.stage_entered', stageName: 'Client approval' },
      actions: [{ kind: 'moveStage', stageName: 'Review' }],
    });
    const { stages } = await api().stages.list.query({ templateId });
    await api().stages.move.mutate({
      projectId,
      stageId: stages.find((s) => s.name === 'Review')?.id ?? null,
    });
    await drain();
    const { runs } = await api().automations.runs.query({ ruleId: toFiled });
    expect(runs.map((r) => r.outcome).sort()).toEqual(['done', 'done']);
    const stopped = await t.db
      .select()
      .from(automationRuns)
      .where(eq(automationRuns.outcome, 'stopped_loop'));
    expect(stopped.map((r) => r.detail)).toEqual(['stopped: loop']);
  });

  it('records a failing action and tells the rule’s owner', async () => {
    const ruleId = await rule({
      name: 'Move to a stage that does not exist',
      trigger: { kind: 'project.created' },
      actions: [{ kind: 'moveStage', stageName: 'Nowhere' }],
    });
    await api().projects.create.mutate({ clientId: w.own.client.id, name: 'Fail 2026', templateId });
    await drain();
    const { runs } = await api().automations.runs.query({ ruleId });
    expect(runs.map((r) => [r.outcome, r.detail])).toEqual([
      ['failed', 'The project’s template has no stage Nowhere'],
    ]);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.memberId, w.firm.owner.id), eq(notifications.kind, 'automation.failed')));
    expect(told.map((n) => n.title)).toEqual(['The rule Move to a stage that does not exist failed']);
  });

  it('previews which projects a rule would have fired for in the last 30 days', async () => {
    const preview = await api().automations.preview.query({
      name: 'Preview',
      trigger: { kind: 'project.stage_entered', stageName: 'Filed' },
      conditions: [],
      actions: [{ kind: 'moveStage', stageName: 'Billed' }],
    });
    // The hand-made project and the engagement's period, both moved to Filed above.
    expect(preview.projects.map((p) => p.name)).toContain('ITR 2026');
    expect(preview.projectCount).toBe(2);
  });

  it('keeps rules to those who manage automations, and to their own firm', async () => {
    expect(await codeOf(() => staffApi().automations.list.query())).toBe('FORBIDDEN');
    const [one] = await api().automations.list.query();
    expect(
      await codeOf(() =>
        t.client(w.otherFirm.owner.token).automations.get.query({ ruleId: one?.id as string }),
      ),
    ).toBe('NOT_FOUND');
  });

  it('records events inside the caller’s transaction only (emit is a plain insert)', async () => {
    const before = (await t.db.select().from(automationEvents)).length;
    await t.db
      .transaction(async (tx) => {
        await emitAutomationEvent(tx, { orgId: w.firm.org.id, kind: 'project.created', projectId });
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect((await t.db.select().from(automationEvents)).length).toBe(before);
  });
});

// Last: it moves the shared project to Review, which the tests above do not expect.
describe('actions on the client', () => {
  it('a project entering Review sends the client a request from a template, marked as the rule’s', async () => {
    const template = await api().requests.templates.save.mutate({
      name: 'Documents for the review',
      sections: [{ title: 'Bank', items: [{ key: 'bank', kind: 'file', label: 'Bank statements' }] }],
    });
    const ruleId = await rule({
      name: 'Ask before review',
      trigger: { kind: 'project.stage_entered', stageName: 'review' },
      conditions: [],
      actions: [{ kind: 'sendRequest', requestTemplateId: template.id, dueInDays: 10 }],
    });
    const { stages } = await api().stages.list.query({ templateId });
    await api().stages.move.mutate({
      projectId,
      stageId: stages.find((s) => s.name === 'Review')?.id ?? null,
    });
    await drain();
    const sent = await t.db
      .select()
      .from(requests)
      .where(and(eq(requests.clientId, w.own.client.id), eq(requests.title, 'Documents for the review')));
    // (Earlier tests' Review entries still waiting in the queue meet the new rule too: one request a run.)
    const { runs } = await api().automations.runs.query({ ruleId });
    expect(sent.length).toBe(runs.filter((r) => r.outcome === 'done').length);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.status === 'sent')).toBe(true);
    expect(
      runs.some((r) => r.outcome === 'done' && /Sent a request to 1 portal user/.test(r.detail ?? '')),
    ).toBe(true);
  });
});
