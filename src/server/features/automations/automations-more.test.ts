import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TRuleInput } from '../../../domain/automations';
import {
  automationEvents,
  automationRules,
  automationRuns,
  clients,
  messages,
  messageThreads,
  notifications,
  projects,
  systemLog,
  tasks,
} from '../../db/schema';
import { createWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeOf } from '../../test/outcome';
import { seedPortalWorld } from '../../test/portal-world';
import { AUTOMATION_EVENT_JOB, registerAutomationJobs, scanNoReply } from '.';
import { parseRule } from './engine';

// The triggers "all tasks of a stage done" and "no client reply for N days", the action "send the
// client a message", rules on a template's page, and the ids a rule names checked when it is saved.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let templateId: string;
const STAGES = ['Waiting on client', 'Preparation', 'Review', 'Filed'];

const api = () => w.own.api;

async function drain() {
  registerAutomationJobs();
  const runner = createWorker(
    { db: t.db, config: t.config, mailer: t.mailer, log: { info() {}, warn() {}, error() {} } },
    { pollMs: 50, kinds: [AUTOMATION_EVENT_JOB], batchSize: 5 },
  );
  for (let n = await runner.tick(); n > 0; n = await runner.tick()) {}
}

async function rule(input: TRuleInput) {
  const { id } = await api().automations.create.mutate(input);
  await api().automations.setEnabled.mutate({ ruleId: id, enabled: true });
  return id;
}

async function stageNameOf(projectId: string) {
  const [row] = await t.db
    .select({ stageId: projects.stageId })
    .from(projects)
    .where(eq(projects.id, projectId));
  const { stages } = await api().stages.list.query({ templateId });
  return stages.find((s) => s.id === row?.stageId)?.name ?? null;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
  ({ id: templateId } = await api().projectTemplates.create.mutate({ name: 'GST return' }));
  await api().stages.set.mutate({ templateId, stages: STAGES.map((name) => ({ name })) });
}, 400_000);
afterAll(() => t?.close());

describe('all tasks of a stage done', () => {
  it('moves the project to Review once the last preparation task completes, exactly once', async () => {
    const { stages } = await api().stages.list.query({ templateId });
    const preparation = stages.find((s) => s.name === 'Preparation')?.id as string;
    for (const title of ['Reconcile purchases', 'Reconcile sales'])
      await api().projectTemplates.blueprints.add.mutate({
        templateId,
        title,
        dueOffsetDays: 0,
        stageId: preparation,
      });
    await api().projectTemplates.blueprints.add.mutate({ templateId, title: 'File', dueOffsetDays: 5 });
    // Another template's stage is refused on a blueprint.
    const { id: other } = await api().projectTemplates.create.mutate({ name: 'Audit' });
    expect(
      await codeOf(() =>
        api().projectTemplates.blueprints.add.mutate({
          templateId: other,
          title: 'x',
          dueOffsetDays: 0,
          stageId: preparation,
        }),
      ),
    ).toBe('BAD_REQUEST');

    const { id: ruleId } = await api().automations.addReadyMade.mutate({ key: 'review-when-prepared' });
    await api().automations.setEnabled.mutate({ ruleId, enabled: true });
    const { id: projectId } = await api().projects.create.mutate({
      clientId: w.own.client.id,
      name: 'GSTR-3B May',
      templateId,
      ownerId: w.firm.staff.id,
      dueDate: '2099-06-20',
    });
    await api().stages.move.mutate({ projectId, stageId: preparation });
    const made = await t.db
      .select({ id: tasks.id, title: tasks.title, stageId: tasks.stageId })
      .from(tasks)
      .where(eq(tasks.projectId, projectId));
    expect(
      made
        .filter((m) => m.stageId === preparation)
        .map((m) => m.title)
        .sort(),
    ).toEqual(['Reconcile purchases', 'Reconcile sales']);
    const [first, second] = made.filter((m) => m.stageId === preparation);
    await api().tasks.setStatus.mutate({ taskId: first?.id as string, status: 'COMPLETED' });
    await drain();
    expect(await stageNameOf(projectId)).toBe('Preparation');
    // The last one, by the bulk action: the stage is done.
    await api().tasks.bulk.mutate({
      ids: [second?.id as string],
      action: { kind: 'setStatus', status: 'COMPLETED' },
    });
    await drain();
    expect(await stageNameOf(projectId)).toBe('Review');
    const events = await t.db
      .select()
      .from(automationEvents)
      .where(
        and(eq(automationEvents.kind, 'project.stage_tasks_done'), eq(automationEvents.projectId, projectId)),
      );
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ stageName: 'Preparation', current: true });
    const { runs } = await api().automations.runs.query({ ruleId });
    expect(runs.map((r) => r.outcome)).toEqual(['done']);
    await drain();
    expect((await api().automations.runs.query({ ruleId })).runs).toHaveLength(1);
  });

  it('lists the rules on the template’s page, and adds a preset kept to that template', async () => {
    const listed = await api().automations.forTemplate.query({ templateId });
    expect(listed.map((r) => r.name)).toContain('Move to Review when all preparation tasks are done');
    const { id } = await api().automations.addReadyMade.mutate({ key: 'invoice-filed', templateId });
    const got = await api().automations.get.query({ ruleId: id });
    expect(got.name).toBe('Raise the invoice when the project is filed (GST return)');
    expect(got.conditions).toEqual([{ kind: 'projectTemplate', templateIds: [templateId] }]);
    const { id: other } = await api().projectTemplates.create.mutate({ name: 'Payroll' });
    const elsewhere = await api().automations.forTemplate.query({ templateId: other });
    expect(elsewhere.map((r) => r.id)).not.toContain(id);
    expect(
      await codeOf(() => t.client(w.otherFirm.owner.token).automations.forTemplate.query({ templateId })),
    ).toBe('NOT_FOUND');
  });
});

describe('no client reply for N days', () => {
  it('reminds the client in the same conversation once per waiting spell', async () => {
    const { id: ruleId } = await api().automations.addReadyMade.mutate({ key: 'remind-no-reply' });
    await api().automations.setEnabled.mutate({ ruleId, enabled: true });
    const { id: threadId } = await api().messages.create.mutate({
      clientId: w.own.client.id,
      subject: 'Your GST documents',
      body: 'Please send the May invoices.',
      clientUserIds: [w.portal.user.id],
      memberIds: [],
    });
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    const backdate = async (days: number) =>
      t.db
        .update(messageThreads)
        .set({ lastPublicAt: ago(days) })
        .where(eq(messageThreads.id, threadId));
    const orgId = w.firm.org.id;

    await backdate(2);
    expect((await scanNoReply(t.db, { orgId })).events).toBe(0);
    await backdate(3.1);
    expect((await scanNoReply(t.db, { orgId })).events).toBe(1);
    expect((await scanNoReply(t.db, { orgId })).events).toBe(0);
    await drain();
    const posted = await t.db
      .select()
      .from(messages)
      .where(eq(messages.threadId, threadId))
      .orderBy(messages.seq);
    expect(posted).toHaveLength(2);
    expect(posted[1]?.authorMemberId).toBe(w.firm.owner.id);
    expect(posted[1]?.body).toMatch(/^Hello .+, a gentle reminder about our last message/);
    expect(posted[1]?.body).not.toContain('{{');
    const [log] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.action, 'message.add'), eq(systemLog.recordId, threadId)));
    expect(log?.summary).toMatch(/\(by rule Remind the client after 3 days without a reply\)$/);
    // The reminder is the firm's last word now: three days on, the same spell does not fire again.
    await backdate(3.5);
    expect((await scanNoReply(t.db, { orgId })).events).toBe(0);
    // The client answers, the firm writes back and waits again: a new spell, one more reminder.
    await w.portal.client.clientPortalMessages.post.mutate({
      clientId: w.own.client.id,
      threadId,
      body: 'Sent them.',
      attachmentIds: [],
    });
    await api().messages.post.mutate({
      threadId,
      body: 'Thanks, one more: June?',
      internal: false,
      mentions: [],
      attachmentIds: [],
    });
    await backdate(4);
    expect((await scanNoReply(t.db, { orgId })).events).toBe(1);
    await drain();
    const [{ n } = { n: 0 }] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(eq(messages.threadId, threadId));
    expect(n).toBe(5);
    const { runs } = await api().automations.runs.query({ ruleId });
    expect(runs.map((r) => r.outcome)).toEqual(['done', 'done']);
  });

  it('sends from a broadcast template into a new conversation when the event has none', async () => {
    const template = await api().broadcastTemplates.create.mutate({
      name: 'Welcome',
      subject: 'Welcome, {{client_name}}',
      bodyHtml: '<p>Dear {{contact_name|client}}, welcome to {{firm_name}}.</p>',
    });
    await rule({
      name: 'Welcome on a new project',
      trigger: { kind: 'project.created' },
      actions: [{ kind: 'sendMessage', templateId: template.id }],
    });
    await api().projects.create.mutate({ clientId: w.own.client.id, name: 'Welcome project' });
    await drain();
    const [thread] = await t.db
      .select()
      .from(messageThreads)
      .where(eq(messageThreads.subject, 'Welcome, Mehta Traders'));
    expect(thread?.clientId).toBe(w.own.client.id);
    const [message] = await t.db
      .select()
      .from(messages)
      .where(eq(messages.threadId, thread?.id as string));
    expect(message?.body).toContain('welcome to');
    expect(message?.body).not.toContain('{{');
  });
});

describe('ids a rule names are checked when it is saved', () => {
  it('refuses another firm’s or unknown ids with a clear 400', async () => {
    const far = w.far.api;
    const group = await far.clientGroups.create.mutate({ name: 'Far group' });
    const reqTemplate = await far.requests.templates.save.mutate({
      name: 'Far docs',
      sections: [{ title: 'A', items: [{ key: 'a', kind: 'short_text', label: 'A' }] }],
    });
    const mailTemplate = await far.broadcastTemplates.create.mutate({
      name: 'Far',
      subject: 'Hi',
      bodyHtml: '<p>Hi</p>',
    });
    const farTemplate = await far.projectTemplates.create.mutate({ name: 'Far template' });
    const base = { name: 'Bad', trigger: { kind: 'project.created' } } as const;
    const cases: [TRuleInput, RegExp][] = [
      [{ ...base, actions: [{ kind: 'assignOwner', memberId: w.otherFirm.owner.id }] }, /member/],
      [
        {
          ...base,
          actions: [{ kind: 'notifyMembers', owner: false, memberIds: [crypto.randomUUID()], message: 'x' }],
        },
        /member/,
      ],
      [
        {
          ...base,
          conditions: [{ kind: 'clientGroup', groupIds: [group.id] }],
          actions: [{ kind: 'raiseInvoice' }],
        },
        /client group/,
      ],
      [
        {
          ...base,
          conditions: [{ kind: 'projectTemplate', templateIds: [farTemplate.id] }],
          actions: [{ kind: 'raiseInvoice' }],
        },
        /project template/,
      ],
      [
        { ...base, actions: [{ kind: 'sendRequest', requestTemplateId: reqTemplate.id }] },
        /request template/,
      ],
      [{ ...base, actions: [{ kind: 'sendMessage', templateId: mailTemplate.id }] }, /message template/],
    ];
    for (const [input, message] of cases) {
      const error = await api()
        .automations.create.mutate(input)
        .then(
          () => null,
          (e: Error) => e,
        );
      expect(error?.message).toMatch(message);
      expect(await codeOf(() => api().automations.create.mutate(input))).toBe('BAD_REQUEST');
    }
    const [one] = await api().automations.list.query();
    expect(
      await codeOf(() =>
        api().automations.update.mutate({
          ruleId: one?.id as string,
          ...base,
          actions: [{ kind: 'assignOwner', memberId: w.otherFirm.owner.id }],
        }),
      ),
    ).toBe('BAD_REQUEST');
  });
});

describe('a task changes status', () => {
  it('starts the rules of any change or of the status named, from the drawer, bulk and the portal', async () => {
    const service = await api().services.create.mutate({
      name: 'GST quarterly',
      code: 'gst-q',
      frequency: 'quarterly',
    });
    const group = await api().clientGroups.create.mutate({ name: 'Retail' });
    await t.db.update(clients).set({ groupId: group.id }).where(eq(clients.id, w.own.client.id));
    // Sent for review, a year-end quarterly return of a Retail client moves to Review.
    const reviewRule = await rule({
      name: 'Review when a task is sent for review',
      trigger: { kind: 'task.status_changed', toStatus: 'IN_REVIEW' },
      conditions: [
        { kind: 'clientGroup', groupIds: [group.id] },
        { kind: 'service', serviceIds: [service.id] },
        { kind: 'period', frequencies: ['quarterly'], endMonths: [3] },
      ],
      actions: [{ kind: 'moveStage', stageName: 'Review' }],
    });
    const anyRule = await rule({
      name: 'Tell the owner of every status change',
      trigger: { kind: 'task.status_changed' },
      actions: [{ kind: 'notifyMembers', owner: true, memberIds: [], message: 'A task moved' }],
    });
    const make = async (name: string, periodKey: string, periodEnd: string) => {
      const { id } = await api().projects.create.mutate({
        clientId: w.own.client.id,
        name,
        templateId,
        serviceId: service.id,
        ownerId: w.firm.staff.id,
        dueDate: '2099-06-20',
      });
      await t.db.update(projects).set({ periodKey, periodEnd }).where(eq(projects.id, id));
      const task = await api().tasks.create.mutate({
        title: `Prepare ${name}`,
        clientId: w.own.client.id,
        projectId: id,
        forClient: true,
      });
      return { id, taskId: task.id };
    };
    const yearEnd = await make('GST Q4', '2026-Q4', '2027-03-31');
    const midYear = await make('GST Q1', '2026-Q1', '2026-06-30');
    const runsOf = async (ruleId: string) => (await api().automations.runs.query({ ruleId })).runs;

    // The drawer: a change to In progress starts the "any change" rule only.
    await api().tasks.setStatus.mutate({ taskId: yearEnd.taskId, status: 'IN_PROGRESS' });
    await drain();
    expect((await runsOf(anyRule)).map((r) => r.outcome)).toEqual(['done']);
    expect(await runsOf(reviewRule)).toHaveLength(0);
    expect(await stageNameOf(yearEnd.id)).toBe('Waiting on client');

    // Bulk, both to In review: the year-end quarter moves; the mid-year one is not the period.
    await api().tasks.bulk.mutate({
      ids: [yearEnd.taskId, midYear.taskId],
      action: { kind: 'setStatus', status: 'IN_REVIEW' },
    });
    await drain();
    expect(await stageNameOf(yearEnd.id)).toBe('Review');
    expect(await stageNameOf(midYear.id)).toBe('Waiting on client');
    expect((await runsOf(reviewRule)).map((r) => r.projectName)).toEqual(['GST Q4']);
    expect(await runsOf(anyRule)).toHaveLength(3);

    // The portal's "done": a change (to Completed) and a completion, from In review.
    await w.portal.client.clientPortalTasks.complete.mutate({
      clientId: w.own.client.id,
      taskId: yearEnd.taskId,
    });
    await drain();
    expect(await runsOf(anyRule)).toHaveLength(4);
    const events = await t.db
      .select({ kind: automationEvents.kind, data: automationEvents.data })
      .from(automationEvents)
      .where(
        and(
          eq(automationEvents.projectId, yearEnd.id),
          inArray(automationEvents.kind, ['task.status_changed', 'task.completed']),
        ),
      )
      .orderBy(automationEvents.createdAt, automationEvents.kind);
    expect(events.map((e) => [e.kind, (e.data as { to: string }).to])).toEqual([
      ['task.status_changed', 'IN_PROGRESS'],
      ['task.status_changed', 'IN_REVIEW'],
      ['task.completed', 'COMPLETED'],
      ['task.status_changed', 'COMPLETED'],
    ]);
    expect(events[3]?.data).toMatchObject({
      taskId: yearEnd.taskId,
      title: 'Prepare GST Q4',
      from: 'IN_REVIEW',
      to: 'COMPLETED',
    });
    const told = await t.db
      .select({ title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.memberId, w.firm.staff.id), eq(notifications.kind, 'automation.notice')));
    expect(told.filter((n) => n.title.endsWith('A task moved'))).toHaveLength(4);

    // A task made with a status has not changed one; a rule switched off records no run.
    await api().automations.setEnabled.mutate({ ruleId: anyRule, enabled: false });
    const made = await api().tasks.create.mutate({
      title: 'Born in progress',
      clientId: w.own.client.id,
      projectId: midYear.id,
      status: 'IN_PROGRESS',
    });
    const [{ n } = { n: -1 }] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(automationEvents)
      .where(sql`${automationEvents.data}->>'taskId' = ${made.id}`);
    expect(n).toBe(0);
    await api().tasks.setStatus.mutate({ taskId: made.id, status: 'COMPLETED' });
    await drain();
    const [{ runs } = { runs: -1 }] = await t.db
      .select({ runs: sql<number>`count(*)::int` })
      .from(automationRuns)
      .where(eq(automationRuns.ruleId, anyRule));
    expect(runs).toBe(4);
    // The list says when each rule last ran, and its trigger with the status.
    const listed = await api().automations.list.query();
    const review = listed.find((r) => r.id === reviewRule);
    expect(review?.lastRun?.outcome).toBe('done');
    expect(review?.triggerLabel).toBe('A task of the project moves to In Review');
  });

  it('previews a status rule over the events recorded', async () => {
    const preview = await api().automations.preview.query({
      name: 'Preview',
      trigger: { kind: 'task.status_changed', toStatus: 'IN_REVIEW' },
      conditions: [{ kind: 'period', frequencies: ['quarterly'], endMonths: [] }],
      actions: [{ kind: 'raiseInvoice' }],
    });
    expect(preview.events).toBe(2);
    expect(preview.projects.map((p) => p.name).sort()).toEqual(['GST Q1', 'GST Q4']);
  });
});

describe('a rule changed twice within one millisecond', () => {
  it('is parsed again after each change, whatever the application clock says', async () => {
    const input = (name: string): TRuleInput => ({
      name,
      trigger: { kind: 'project.created' },
      actions: [{ kind: 'setClientTag', tag: 'x' }],
    });
    const id = await rule(input('Tag new projects'));
    const parsedName = async () => {
      const [row] = await t.db.select().from(automationRules).where(eq(automationRules.id, id));
      if (!row) throw new Error('no rule');
      return parseRule(row)?.name;
    };
    expect(await parsedName()).toBe('Tag new projects');
    // The application's clock stands still, as two changes inside one millisecond would see it
    // (every instance keeps parsed rules by id and updated_at to the millisecond).
    vi.useFakeTimers({ toFake: ['Date'], now: new Date() });
    try {
      await api().automations.update.mutate({ ruleId: id, ...input('First name') });
      expect(await parsedName()).toBe('First name');
      await api().automations.update.mutate({ ruleId: id, ...input('Second name') });
      expect(await parsedName()).toBe('Second name');
      await api().automations.setEnabled.mutate({ ruleId: id, enabled: false });
      await api().automations.setEnabled.mutate({ ruleId: id, enabled: true });
      const [row] = await t.db.select().from(automationRules).where(eq(automationRules.id, id));
      expect(row?.enabled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
