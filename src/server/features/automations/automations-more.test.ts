import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuleInput } from '../../../domain/automations';
import { automationEvents, messages, messageThreads, projects, systemLog, tasks } from '../../db/schema';
import { createWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeOf } from '../../test/outcome';
import { seedPortalWorld } from '../../test/portal-world';
import { AUTOMATION_EVENT_JOB, registerAutomationJobs, scanNoReply } from '.';

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
