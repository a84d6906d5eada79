import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../domain/days';
import type { TRequestTemplateSave } from '../../../domain/requests/schemas';
import { requestRecipients, requests, systemLog, taskStatusChanges, tasks } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeAndMessageOf, codeOf } from '../../test/outcome';
import { seedPortalUser } from '../../test/portal';
import { seedPortalWorld } from '../../test/portal-world';
import { sendDueProjectRequests } from './auto-send';

// Client requests in the flow of work (issue 36): a project template's request sent by itself once
// per project, sending from a project, the bulk send from the client list, and what waits on
// clients. Through the router (and the job's own function), on PGlite and on PostgreSQL.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let today: string;
let requestTemplateId: string;
let projectTemplateId: string;

const SECTIONS: TRequestTemplateSave['sections'] = [
  {
    title: 'Documents',
    items: [
      { key: 'bank', kind: 'file', label: 'Bank statements' },
      { key: 'rent', kind: 'yes_no', label: 'Did you pay rent?' },
    ],
  },
];

const api = () => w.own.api;
const requestsOfProject = (projectId: string) =>
  t.db
    .select()
    .from(requests)
    .where(and(eq(requests.orgId, w.firm.org.id), eq(requests.projectId, projectId)));

beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
  today = todayIn(w.firm.org.timeZone);
  requestTemplateId = (
    await api().requests.templates.save.mutate({ name: 'Year-end documents', sections: SECTIONS })
  ).id;
  projectTemplateId = (await api().projectTemplates.create.mutate({ name: 'Annual return' })).id;
}, 120_000);
afterAll(() => t?.close());

describe("a project template's request", () => {
  it('is set on the project template, checked and logged', async () => {
    const ref = { projectTemplateId };
    expect(await api().requests.projectTemplate.query(ref)).toBeNull();
    expect(
      await codeAndMessageOf(() =>
        api().requests.setProjectTemplate.mutate({
          ...ref,
          requestTemplateId,
          leadDays: 10,
          dueDaysBefore: 10,
        }),
      ),
    ).toMatch(/^BAD_REQUEST: .*use fewer days than the lead time/);
    const theirs = await t.client(w.otherFirm.owner.token).requests.templates.save.mutate({
      name: 'Theirs',
      sections: SECTIONS,
    });
    expect(
      await codeOf(() =>
        api().requests.setProjectTemplate.mutate({
          ...ref,
          requestTemplateId: theirs.id,
          leadDays: 30,
          dueDaysBefore: 10,
        }),
      ),
    ).toBe('NOT_FOUND');
    // Another firm cannot read or set this firm's project template.
    const other = t.client(w.otherFirm.owner.token).requests;
    expect(await codeOf(() => other.projectTemplate.query(ref))).toBe('NOT_FOUND');
    expect(
      await codeOf(() =>
        other.setProjectTemplate.mutate({
          ...ref,
          requestTemplateId: theirs.id,
          leadDays: 30,
          dueDaysBefore: 10,
        }),
      ),
    ).toBe('NOT_FOUND');

    await api().requests.setProjectTemplate.mutate({
      ...ref,
      requestTemplateId,
      leadDays: 30,
      dueDaysBefore: 10,
    });
    expect(await api().requests.projectTemplate.query(ref)).toEqual({
      requestTemplateId,
      requestTemplateName: 'Year-end documents',
      leadDays: 30,
      dueDaysBefore: 10,
    });
    const [log] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.action, 'projectTemplate.request.set')));
    expect(log?.summary).toContain('Sent 30 days before each project’s due date'.toLowerCase());
  });

  it('is sent by itself once per project, with two job runs at once, inside its lead time only', async () => {
    const project = (name: string, clientId: string, dueDate: string) =>
      api().projects.create.mutate({ clientId, name, dueDate, templateId: projectTemplateId });
    const soon = await project('ITR 2026 (soon)', w.own.client.id, addDays(today, 20));
    const later = await project('ITR 2027 (later)', w.own.client.id, addDays(today, 60));
    const tooLate = await project('ITR 2025 (too late)', w.own.client.id, addDays(today, 5));
    // Nobody uses the portal for the sibling: its request waits as a draft.
    const noPortal = await project('ITR 2026 (sibling)', w.sibling.client.id, addDays(today, 20));

    const orgId = w.firm.org.id;
    const runs = await Promise.all([
      sendDueProjectRequests(t.db, t, { orgId }),
      sendDueProjectRequests(t.db, t, { orgId }),
      sendDueProjectRequests(t.db, t, { orgId }),
    ]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + r.drafts, 0)).toBe(1);
    expect(await sendDueProjectRequests(t.db, t, { orgId })).toEqual({ sent: 0, drafts: 0 });

    const [sent, ...more] = await requestsOfProject(soon.id);
    expect(more).toHaveLength(0);
    expect(sent).toMatchObject({
      status: 'sent',
      origin: 'project_template',
      clientId: w.own.client.id,
      dueDate: addDays(today, 10),
      title: 'Year-end documents: ITR 2026 (soon)',
      templateName: 'Year-end documents',
    });
    expect(await requestsOfProject(later.id)).toHaveLength(0);
    expect(await requestsOfProject(tooLate.id)).toHaveLength(0);
    const [draft] = await requestsOfProject(noPortal.id);
    expect(draft?.status).toBe('draft');

    // Sent to the client's portal users (both of them), mailed, with a portal to-do in the project.
    const recipients = await t.db
      .select()
      .from(requestRecipients)
      .where(and(eq(requestRecipients.orgId, orgId), eq(requestRecipients.requestId, sent?.id ?? '')));
    expect(recipients.map((r) => r.clientUserId)).toEqual([w.portal.user.id]);
    // This run's mail only: the outbox directory outlives test runs; the addresses do not.
    const mail = (await t.outbox()).filter(
      (m) => m.subject.includes('ITR 2026 (soon)') && m.to.includes(w.portal.user.email),
    );
    expect(mail).toHaveLength(1);
    const [todo] = await t.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.orgId, orgId), eq(tasks.id, sent?.taskId ?? '')));
    expect(todo).toMatchObject({ projectId: soon.id, forClient: true, dueDate: addDays(today, 10) });
    const portalTasks = await w.portal.client.clientPortalTasks.list.query({ clientId: w.own.client.id });
    expect(JSON.stringify(portalTasks)).toContain('Year-end documents: ITR 2026 (soon)');

    const logs = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, orgId), eq(systemLog.recordId, sent?.id ?? '')));
    expect(logs.map((l) => [l.action, l.actorKind])).toEqual([['request.send', 'system']]);

    // Forty days on, the later project's turn comes.
    const now = new Date(Date.now() + 40 * 86_400_000);
    expect(await sendDueProjectRequests(t.db, t, { orgId, now })).toEqual({ sent: 1, drafts: 0 });
    expect(await requestsOfProject(later.id)).toHaveLength(1);
  });

  it('a draft for a client without portal users is sent once someone is invited, and gets its to-do', async () => {
    const [draft] = await t.db
      .select()
      .from(requests)
      .where(and(eq(requests.orgId, w.firm.org.id), eq(requests.clientId, w.sibling.client.id)));
    if (!draft) throw new Error('no draft');
    expect(await codeAndMessageOf(() => api().requests.send.mutate({ requestId: draft.id }))).toMatch(
      /^BAD_REQUEST: Nobody uses the portal for this client yet/,
    );
    const person = await seedPortalUser(t, { orgId: w.firm.org.id, clientIds: [w.sibling.client.id] });
    expect(await api().requests.send.mutate({ requestId: draft.id })).toMatchObject({
      status: 'sent',
      mailed: [person.user.email],
    });
    const [after] = await t.db.select().from(requests).where(eq(requests.id, draft.id));
    expect(after?.taskId).toBeTruthy();
  });
});

describe('sending from a project', () => {
  let requestId: string;
  const input = () => ({
    clientId: w.own.client.id,
    projectId: w.own.project.id,
    templateId: requestTemplateId,
    title: 'Bank statements for the annual accounts',
    dueDate: addDays(today, 14),
    recipientIds: [w.portal.user.id],
    sections: SECTIONS,
  });

  it('links the request to the project, and its portal to-do to both', async () => {
    requestId = (await api().requests.create.mutate(input())).id;
    const list = await api().requests.list.query({ projectId: w.own.project.id });
    expect(list.rows.map((r) => [r.id, r.projectId])).toEqual([[requestId, w.own.project.id]]);
    const taskId = list.rows[0]?.taskId;
    expect(taskId).toBeTruthy();
    const byTask = await api().requests.list.query({ taskId: taskId as string });
    expect(byTask.rows.map((r) => r.id)).toEqual([requestId]);
    const [todo] = await t.db
      .select()
      .from(tasks)
      .where(eq(tasks.id, taskId as string));
    expect(todo).toMatchObject({ projectId: w.own.project.id, forClient: true, status: 'SCHEDULED' });
  });

  it("refuses another firm's project as NOT_FOUND and another client's project as BAD_REQUEST", async () => {
    expect(
      await codeOf(() => api().requests.create.mutate({ ...input(), projectId: w.far.project.id })),
    ).toBe('NOT_FOUND');
    expect(
      await codeAndMessageOf(() =>
        api().requests.create.mutate({ ...input(), projectId: w.sibling.project.id }),
      ),
    ).toBe('BAD_REQUEST: This project is for another client');
    // Another firm listing by this firm's project sees nothing.
    const theirs = await t
      .client(w.otherFirm.owner.token)
      .requests.list.query({ projectId: w.own.project.id });
    expect(theirs.rows).toEqual([]);
  });

  it('completing the request completes its portal to-do, with the status history', async () => {
    await api().requests.complete.mutate({ requestId });
    const [request] = await t.db.select().from(requests).where(eq(requests.id, requestId));
    const [todo] = await t.db
      .select()
      .from(tasks)
      .where(eq(tasks.id, request?.taskId ?? ''));
    expect(todo?.status).toBe('COMPLETED');
    expect(todo?.completedDate).toBeInstanceOf(Date);
    const history = await t.db
      .select()
      .from(taskStatusChanges)
      .where(eq(taskStatusChanges.taskId, todo?.id ?? ''));
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.memberId])).toEqual([
      ['SCHEDULED', 'COMPLETED', w.firm.owner.id],
    ]);
  });
});

describe('the bulk send from the client list', () => {
  it('sends one request per client with portal users and lists the others as skipped', async () => {
    const lonely = await api().clients.create.mutate({ code: 'LONE1', name: 'Lonely Traders' });
    const result = await api().requests.sendBulk.mutate({
      clientIds: [w.own.client.id, lonely.id],
      templateId: requestTemplateId,
      dueDate: addDays(today, 21),
      message: 'Please upload by the 21st.',
    });
    expect(result.sent.map((s) => s.clientId)).toEqual([w.own.client.id]);
    expect(result.skipped).toEqual([
      {
        clientId: lonely.id,
        clientName: 'Lonely Traders',
        reason: 'no_portal_user',
        message: 'No portal user: invite someone to the portal first',
      },
    ]);
    const detail = await api().requests.get.query({ requestId: result.sent[0]?.requestId as string });
    expect(detail).toMatchObject({
      title: 'Year-end documents',
      status: 'sent',
      message: 'Please upload by the 21st.',
    });
    expect(detail.recipients.map((r) => r.id)).toEqual([w.portal.user.id]);
    expect(detail.items.map((i) => i.key)).toEqual(['bank', 'rent']);
    const mail = (await t.outbox()).filter(
      (m) => m.to.includes(w.portal.user.email) && m.text.includes('Please upload by the 21st.'),
    );
    expect(mail).toHaveLength(1);
  });

  it("refuses another firm's client as NOT_FOUND and sends nothing; Staff may not send", async () => {
    const before = await t.db.$count(requests, eq(requests.orgId, w.firm.org.id));
    expect(
      await codeOf(() =>
        api().requests.sendBulk.mutate({
          clientIds: [w.own.client.id, w.far.client.id],
          templateId: requestTemplateId,
          dueDate: addDays(today, 21),
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(await t.db.$count(requests, eq(requests.orgId, w.firm.org.id))).toBe(before);
    expect(
      await codeOf(() =>
        t.client(w.firm.staff.token).requests.sendBulk.mutate({
          clientIds: [w.own.client.id],
          templateId: requestTemplateId,
          dueDate: addDays(today, 21),
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeAndMessageOf(() =>
        api().requests.sendBulk.mutate({ clientIds: [], templateId: requestTemplateId, dueDate: 'soon' }),
      ),
    ).toMatch(/^BAD_REQUEST: /);
  });
});

describe('what waits on clients', () => {
  it('lists requests sent and not yet submitted, overdue first, inside the firm', async () => {
    const overdue = await api().requests.create.mutate({
      clientId: w.own.client.id,
      title: 'Rent receipts (late)',
      dueDate: addDays(today, -3),
      recipientIds: [w.portal.user.id],
      sections: SECTIONS,
    });
    const draft = await api().requests.create.mutate({
      clientId: w.own.client.id,
      title: 'Not sent yet',
      dueDate: addDays(today, -5),
      recipientIds: [w.portal.user.id],
      sections: SECTIONS,
      send: false,
    });
    const waiting = await api().requests.waiting.query({ limit: 50 });
    expect(waiting.rows[0]).toMatchObject({
      id: overdue.id,
      displayStatus: 'overdue',
      clientName: 'Mehta Traders',
    });
    const ids = waiting.rows.map((r) => r.id);
    expect(ids).not.toContain(draft.id);
    // Soonest due first, and only the states that wait on the client.
    expect(waiting.rows.map((r) => r.dueDate)).toEqual([...waiting.rows.map((r) => r.dueDate)].sort());
    expect(new Set(waiting.rows.map((r) => r.status))).toEqual(new Set(['sent']));
    expect(waiting.overdue).toBe(1);
    expect(waiting.total).toBe(waiting.rows.length);
    // The completed one from the project is not waiting.
    const completed = await api().requests.list.query({ projectId: w.own.project.id });
    expect(ids).not.toContain(completed.rows[0]?.id);
    // Another firm sees none of them.
    expect((await t.client(w.otherFirm.owner.token).requests.waiting.query({ limit: 50 })).total).toBe(0);

    const summary = await api().requests.clientSummary.query({ clientId: w.own.client.id });
    expect(summary).toMatchObject({ overdue: 1, oldestDue: addDays(today, -3) });
    expect(summary.waiting).toBe(waiting.rows.filter((r) => r.clientId === w.own.client.id).length);
    expect(
      await codeOf(() =>
        t.client(w.otherFirm.owner.token).requests.clientSummary.query({ clientId: w.own.client.id }),
      ),
    ).toBe('NOT_FOUND');
  });
});

describe('the compliance grid', () => {
  it('marks the cell whose project has a request waiting on the client, until it is done', async () => {
    const service = await api().services.create.mutate({
      name: 'Audit support',
      code: 'AUDS',
      frequency: 'one_time',
      projectTemplateId,
    });
    await api().engagements.create.mutate({
      clientId: w.own.client.id,
      serviceId: service.id,
      startDate: today,
    });
    const period = { from: addDays(today, -30), to: addDays(today, 30) };
    const cell = async () => {
      const grid = await api().reports.complianceGrid.query({ ...period, serviceId: service.id });
      return grid.rows.find((r) => r.clientId === w.own.client.id)?.cells[0];
    };
    const before = await cell();
    expect(before?.projectId).toBeTruthy();
    expect(before?.waitingOnClient).toBe(false);
    const { id } = await api().requests.create.mutate({
      clientId: w.own.client.id,
      projectId: before?.projectId as string,
      title: 'Audit papers',
      dueDate: addDays(today, 7),
      recipientIds: [w.portal.user.id],
      sections: SECTIONS,
    });
    expect((await cell())?.waitingOnClient).toBe(true);
    await api().requests.complete.mutate({ requestId: id });
    expect((await cell())?.waitingOnClient).toBe(false);
  });
});
