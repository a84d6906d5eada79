import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../domain/days';
import { notifications, projects, tasks, timesheetTimers } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { logRows, putOnTeam, seedClient } from '../../test/fixtures';
import { codeAndMessageOf as codeOf } from '../../test/outcome';
import { seedFirmWithRoles } from '../../test/seeded-firm';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const W1 = '2026-03-02';
const HOUR = 60 * 60_000;

/** A firm whose staff member is on a client's team, and a template with budgets. */
async function firm(name: string) {
  const f = await seedFirmWithRoles(t, name);
  const client = await seedClient(t, f.org.id, { name: `${name} client` });
  await putOnTeam(t, f.org.id, client.id, f.staff.id);
  const owner = t.client(f.owner.token);
  const { id: templateId } = await owner.projectTemplates.create.mutate({
    name: 'Year end',
    budgetMinutes: '40',
  });
  await owner.projectTemplates.blueprints.add.mutate({
    templateId,
    title: 'Draft accounts',
    dueOffsetDays: 10,
    budgetMinutes: '12:30',
  });
  await owner.projectTemplates.blueprints.add.mutate({ templateId, title: 'Sign off', dueOffsetDays: 20 });
  return { ...f, client, templateId, owner, me: t.client(f.staff.token) };
}

const budgetNotices = (orgId: string) =>
  t.db
    .select({ memberId: notifications.memberId, title: notifications.title, link: notifications.link })
    .from(notifications)
    .where(and(eq(notifications.orgId, orgId), eq(notifications.kind, 'budget.threshold')))
    .orderBy(notifications.createdAt, notifications.id);

describe('budgets from templates', () => {
  it('a project made by hand takes the template’s budgets unless it is given its own', async () => {
    const f = await firm('Template budgets');
    const template = await f.owner.projectTemplates.get.query({ templateId: f.templateId });
    expect(template.budgetMinutes).toBe(2400);
    expect(template.blueprints.map((b) => b.budgetMinutes)).toEqual([750, null]);

    const { id } = await f.owner.projects.create.mutate({
      name: 'Year end 2026',
      clientId: f.client.id,
      templateId: f.templateId,
      dueDate: '2026-06-30',
    });
    const project = await f.owner.projects.get.query({ projectId: id });
    expect(project.budgetMinutes).toBe(2400);
    expect(project.tasks.map((x) => [x.title, x.budgetMinutes])).toEqual([
      ['Draft accounts', 750],
      ['Sign off', null],
    ]);
    // The breakdown lists tasks with a budget or time, and nothing is logged yet.
    expect(project.budget).toEqual({
      budgetMinutes: 2400,
      actualMinutes: 0,
      tasks: [{ id: project.tasks[0]?.id, title: 'Draft accounts', budgetMinutes: 750, actualMinutes: 0 }],
    });

    const own = await f.owner.projects.create.mutate({
      name: 'Year end, bigger',
      clientId: f.client.id,
      templateId: f.templateId,
      budgetMinutes: '60.5',
    });
    expect((await f.owner.projects.get.query({ projectId: own.id })).budgetMinutes).toBe(3630);
  });

  it('the recurring job gives each generated project and task the template’s budgets', async () => {
    const f = await firm('Recurring budgets');
    const svc = await f.owner.services.create.mutate({
      name: 'Bookkeeping',
      code: 'BK',
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 15, monthsAfterPeriod: 1 },
      projectTemplateId: f.templateId,
    });
    await f.owner.engagements.create.mutate({
      clientId: f.client.id,
      serviceId: svc.id,
      startDate: new Date().toISOString().slice(0, 10),
    });
    const made = await t.db
      .select({ id: projects.id, budget: projects.budgetMinutes })
      .from(projects)
      .where(and(eq(projects.orgId, f.org.id), eq(projects.serviceId, svc.id)));
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((p) => p.budget === 2400)).toBe(true);
    const madeTasks = await t.db
      .select({ title: tasks.title, budget: tasks.budgetMinutes })
      .from(tasks)
      .where(and(eq(tasks.orgId, f.org.id), eq(tasks.projectId, made[0]?.id ?? '')))
      .orderBy(tasks.position);
    expect(madeTasks).toEqual([
      { title: 'Draft accounts', budget: 750 },
      { title: 'Sign off', budget: null },
    ]);
  });
});

describe('budget against actual, and its notices', () => {
  it('counts the project’s and its tasks’ time and notifies once at 80 % and at 100 %', async () => {
    const f = await firm('Thresholds');
    const { id: projectId } = await f.owner.projects.create.mutate({
      name: 'Audit 2026',
      clientId: f.client.id,
      ownerId: f.manager.id,
      memberIds: [f.staff.id],
      budgetMinutes: '10',
    });
    const { id: taskId } = await f.owner.tasks.create.mutate({
      title: 'Bank reconciliation',
      clientId: f.client.id,
      projectId,
      assigneeIds: [f.staff.id],
      budgetMinutes: '4',
    });

    // 7 hours on the project, 3 of them on the task: 70 % of the project, 75 % of the task.
    await f.me.timesheets.setCell.mutate({ date: W1, minutes: '4', clientId: f.client.id, projectId });
    await f.me.timesheets.setCell.mutate({ date: W1, minutes: '3', taskId });
    expect(await budgetNotices(f.org.id)).toEqual([]);

    // An hour more on the task: the task is at 100 %, the project at 80 %.
    await f.me.timesheets.setCell.mutate({ date: W1, minutes: '4', taskId });
    let notices = await budgetNotices(f.org.id);
    expect(notices.map((n) => [n.title, n.link]).sort()).toEqual(
      [
        ['Audit 2026 has used 80% of its budget', `/projects/${projectId}`],
        ['Audit 2026 has used 80% of its budget', `/projects/${projectId}`],
        ['“Bank reconciliation” has used its whole budget', `/tasks?task=${taskId}`],
        ['“Bank reconciliation” has used its whole budget', `/tasks?task=${taskId}`],
      ].sort(),
    );
    // The project's owner and members; the task's assignees and its project's owner.
    expect(
      notices
        .filter((n) => n.link?.startsWith('/projects'))
        .map((n) => n.memberId)
        .sort(),
    ).toEqual([f.manager.id, f.staff.id].sort());
    expect(
      notices
        .filter((n) => n.link?.startsWith('/tasks'))
        .map((n) => n.memberId)
        .sort(),
    ).toEqual([f.manager.id, f.staff.id].sort());

    // Saving the same cell again, or more time under the next threshold, notifies nobody again.
    await f.me.timesheets.setCell.mutate({ date: W1, minutes: '4', taskId });
    const { id: entryId } = await f.me.timesheets.create.mutate({
      date: addDays(W1, 1),
      minutes: '1',
      clientId: f.client.id,
      projectId,
    });
    expect(await budgetNotices(f.org.id)).toHaveLength(4);

    // The timer takes the project past its budget: one more notice each, 100 %.
    const timer = await f.me.timesheets.timer.start.mutate({ taskId });
    await t.db
      .update(timesheetTimers)
      .set({ startedAt: new Date(Date.now() - 2 * HOUR) })
      .where(eq(timesheetTimers.id, timer.id));
    await f.me.timesheets.timer.stop.mutate();
    notices = await budgetNotices(f.org.id);
    expect(notices.slice(4).map((n) => n.title)).toEqual([
      'Audit 2026 has used its whole budget',
      'Audit 2026 has used its whole budget',
    ]);
    expect(notices[4]).toMatchObject({ link: `/projects/${projectId}` });

    const project = await f.owner.projects.get.query({ projectId });
    expect(project.budget.actualMinutes).toBe(11 * 60);
    expect(project.budget.tasks).toEqual([
      { id: taskId, title: 'Bank reconciliation', budgetMinutes: 240, actualMinutes: 6 * 60 },
    ]);
    const task = await f.owner.tasks.get.query({ taskId });
    expect(task.budget).toEqual({ budgetMinutes: 240, actualMinutes: 6 * 60 });

    // Back under 80 % forgets the notices; crossing again announces again.
    await f.me.timesheets.delete.mutate({ entryId });
    await f.me.timesheets.setCell.mutate({ date: W1, minutes: 0, clientId: f.client.id, projectId });
    const [under] = await t.db
      .select({ level: projects.budgetNotified })
      .from(projects)
      .where(eq(projects.id, projectId));
    expect(under?.level).toBe(0);
    await f.me.timesheets.setCell.mutate({
      date: addDays(W1, 2),
      minutes: '2',
      clientId: f.client.id,
      projectId,
    });
    notices = await budgetNotices(f.org.id);
    expect(notices.slice(6).map((n) => n.title)).toEqual([
      'Audit 2026 has used 80% of its budget',
      'Audit 2026 has used 80% of its budget',
    ]);
  });

  it('a changed budget is logged and starts from what is already logged, without a notice', async () => {
    const f = await firm('Budget edits');
    const { id: projectId } = await f.owner.projects.create.mutate({
      name: 'Payroll',
      clientId: f.client.id,
      ownerId: f.manager.id,
    });
    await f.me.timesheets.setCell.mutate({ date: W1, minutes: '9', clientId: f.client.id, projectId });
    await f.owner.projects.update.mutate({
      projectId,
      name: 'Payroll',
      ownerId: f.manager.id,
      budgetMinutes: '10',
    });
    const [row] = await t.db
      .select({ budget: projects.budgetMinutes, level: projects.budgetNotified })
      .from(projects)
      .where(eq(projects.id, projectId));
    expect(row).toEqual({ budget: 600, level: 80 });
    expect(await budgetNotices(f.org.id)).toEqual([]);
    const log = (await logRows(t, f.org.id, projectId)).find((r) => r.action === 'project.update');
    expect(log?.changes).toMatchObject({ budgetMinutes: { from: null, to: 600 } });
    expect(log?.summary).toBe('Updated the project Payroll: hours budget none → 10:00');

    // The next crossing (100 %) is the one that notifies.
    await f.me.timesheets.setCell.mutate({
      date: addDays(W1, 1),
      minutes: '1',
      clientId: f.client.id,
      projectId,
    });
    expect((await budgetNotices(f.org.id)).map((n) => n.title)).toEqual([
      'Payroll has used its whole budget',
    ]);

    const { id: taskId } = await f.owner.tasks.create.mutate({ title: 'Payslips', clientId: f.client.id });
    await f.owner.tasks.update.mutate({ taskId, patch: { budgetMinutes: '2:30' } });
    expect((await f.owner.tasks.get.query({ taskId })).budget).toEqual({
      budgetMinutes: 150,
      actualMinutes: 0,
    });
    const taskLog = (await logRows(t, f.org.id, taskId)).find((r) => r.action === 'task.update');
    expect(taskLog?.changes).toMatchObject({ budgetMinutes: { from: null, to: 150 } });
    expect(taskLog?.summary).toBe('Updated task “Payslips”: hours budget none → 2:30');

    expect(await codeOf(f.owner.tasks.update.mutate({ taskId, patch: { budgetMinutes: 'lots' } }))).toBe(
      'BAD_REQUEST: Type hours like 40, 12:30 or 7.5',
    );
    expect(
      await codeOf(
        f.owner.projectTemplates.update.mutate({
          templateId: f.templateId,
          name: 'Year end',
          budgetMinutes: '10001',
        }),
      ),
    ).toBe('BAD_REQUEST: A budget is at most 10,000 hours');
  });
});

describe('concurrent time', () => {
  it('two members crossing the same threshold at once make one notice, not two or a deadlock', async () => {
    const f = await firm('Races');
    const { id: projectId } = await f.owner.projects.create.mutate({
      name: 'Race',
      clientId: f.client.id,
      ownerId: f.manager.id,
      budgetMinutes: '10',
    });
    await Promise.all(
      [f.me, f.owner].map((api) =>
        api.timesheets.setCell.mutate({ date: W1, minutes: '4', clientId: f.client.id, projectId }),
      ),
    );
    expect((await budgetNotices(f.org.id)).map((n) => [n.memberId, n.title])).toEqual([
      [f.manager.id, 'Race has used 80% of its budget'],
    ]);
  });
});

describe('cross-org', () => {
  it('another firm’s project, task or template answers NOT_FOUND, budget and all', async () => {
    const a = await firm('Budget firm A');
    const b = await firm('Budget firm B');
    const { id: projectId } = await a.owner.projects.create.mutate({
      name: 'A only',
      clientId: a.client.id,
      budgetMinutes: '5',
    });
    const { id: taskId } = await a.owner.tasks.create.mutate({
      title: 'A task',
      clientId: a.client.id,
      projectId,
    });
    expect(await codeOf(b.owner.projects.get.query({ projectId }))).toBe('NOT_FOUND: Project not found');
    expect(
      await codeOf(b.owner.projects.update.mutate({ projectId, name: 'Mine', budgetMinutes: '1' })),
    ).toBe('NOT_FOUND: Project not found');
    expect(await codeOf(b.owner.tasks.update.mutate({ taskId, patch: { budgetMinutes: '1' } }))).toMatch(
      /^NOT_FOUND/,
    );
    expect(await codeOf(b.owner.tasks.get.query({ taskId }))).toMatch(/^NOT_FOUND/);
    expect(
      await codeOf(
        b.owner.projects.create.mutate({ name: 'X', clientId: b.client.id, templateId: a.templateId }),
      ),
    ).toBe('NOT_FOUND: Template not found');
    // Time logged against another firm's project is refused before any budget is touched.
    expect(
      await codeOf(b.owner.timesheets.setCell.mutate({ date: W1, minutes: '1', projectId, note: 'x' })),
    ).toBe('NOT_FOUND: Project not found');
    expect((await a.owner.projects.get.query({ projectId })).budgetMinutes).toBe(300);
  });
});
