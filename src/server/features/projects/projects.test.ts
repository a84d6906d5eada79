import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects, roles, systemLog, taskAssignees, tasks } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { putOnTeam, seedClient } from '../../test/fixtures';
import { seedFirmWithRoles } from '../../test/seeded-firm';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type TApi = ReturnType<TTestApp['client']>;

/** A firm with a template of two blueprints linked to a monthly service, and one client engaged. */
async function firmWithWork(name: string) {
  const firm = await seedFirmWithRoles(t, name);
  const api = t.client(firm.owner.token);
  const { id: templateId } = await api.projectTemplates.create.mutate({ name: 'Monthly GST' });
  const first = await api.projectTemplates.blueprints.add.mutate({
    templateId,
    title: 'Collect invoices',
    dueOffsetDays: 5,
    checklist: ['Sales register'],
    forClient: true,
    tags: ['docs'],
  });
  await api.projectTemplates.blueprints.add.mutate({
    templateId,
    title: 'File the return',
    dueOffsetDays: 20,
    assigneeKind: 'member',
    assigneeMemberId: firm.manager.id,
  });
  const svc = await api.services.create.mutate({
    name: 'GST return',
    code: 'GST',
    frequency: 'monthly',
    dueDateRule: { dayOfMonth: 20, monthsAfterPeriod: 1 },
    projectTemplateId: templateId,
  });
  const client = await seedClient(t, firm.org.id, { name: `${name} client` });
  return { firm, api, templateId, firstBlueprint: first.id, svc, client };
}

async function engage(api: TApi, clientId: string, serviceId: string, assigneeIds: string[] = []) {
  const today = new Date().toISOString().slice(0, 10);
  return api.engagements.create.mutate({ clientId, serviceId, startDate: today, assigneeIds });
}

describe('project templates', () => {
  it('keeps ordered blueprints that can be edited, moved and removed, each change audited', async () => {
    const { firm, api, templateId, firstBlueprint } = await firmWithWork('Templates & Co');
    const third = await api.projectTemplates.blueprints.add.mutate({
      templateId,
      title: 'Review',
      dueOffsetDays: -3,
      assigneeKind: 'role',
      assigneeRoleId: firm.roles.manager.id,
    });
    let detail = await api.projectTemplates.get.query({ templateId });
    expect(detail.blueprints.map((b) => b.title)).toEqual(['Collect invoices', 'File the return', 'Review']);
    expect(detail.blueprints[2]).toMatchObject({ assigneeRoleId: firm.roles.manager.id, dueOffsetDays: -3 });

    await api.projectTemplates.blueprints.move.mutate({ blueprintId: third.id, direction: 'up' });
    await api.projectTemplates.blueprints.move.mutate({ blueprintId: third.id, direction: 'up' });
    expect(
      (await api.projectTemplates.blueprints.move.mutate({ blueprintId: third.id, direction: 'up' })).moved,
    ).toBe(false);
    await api.projectTemplates.blueprints.update.mutate({
      blueprintId: firstBlueprint,
      title: 'Collect sales invoices',
      dueOffsetDays: 3,
      checklist: ['Sales register', 'Credit notes'],
      tags: ['docs'],
    });
    await api.projectTemplates.blueprints.remove.mutate({ blueprintId: third.id });
    detail = await api.projectTemplates.get.query({ templateId });
    expect(detail.blueprints.map((b) => [b.title, b.checklist])).toEqual([
      ['Collect sales invoices', ['Sales register', 'Credit notes']],
      ['File the return', []],
    ]);
    expect(detail.services.map((s) => s.code)).toEqual(['GST']);
    const list = await api.projectTemplates.list.query({});
    expect(list.map((l) => [l.name, l.taskCount, l.serviceCount])).toEqual([['Monthly GST', 2, 1]]);

    const log = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, templateId)))
      .orderBy(systemLog.at);
    expect(log.map((l) => l.action)).toEqual([
      'projectTemplate.create',
      'projectTemplate.task.add',
      'projectTemplate.task.add',
      'projectTemplate.task.add',
      'projectTemplate.task.move',
      'projectTemplate.task.move',
      'projectTemplate.task.update',
      'projectTemplate.task.remove',
    ]);

    await api.projectTemplates.delete.mutate({ templateId });
    expect(
      (await api.services.get.query({ serviceId: detail.services[0]?.id as string })).projectTemplateId,
    ).toBe(null);
  });

  it('validates blueprints and names, and refuses another firm’s roles and templates', async () => {
    const { api, templateId } = await firmWithWork('Checks & Co');
    const other = await seedFirmWithRoles(t, 'Checks Other');
    await expect(
      api.projectTemplates.blueprints.add.mutate({ templateId, title: '', dueOffsetDays: 0 }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('Enter the task title'),
    });
    await expect(
      api.projectTemplates.blueprints.add.mutate({ templateId, title: 'X', dueOffsetDays: 1000 }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    await expect(
      api.projectTemplates.blueprints.add.mutate({
        templateId,
        title: 'X',
        dueOffsetDays: 0,
        assigneeKind: 'role',
      }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('Choose the role'),
    });
    await expect(
      api.projectTemplates.blueprints.add.mutate({
        templateId,
        title: 'X',
        dueOffsetDays: 0,
        assigneeKind: 'role',
        assigneeRoleId: other.roles.manager.id,
      }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    await expect(api.projectTemplates.create.mutate({ name: 'Monthly GST' })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
    const theirs = await t.client(other.owner.token).projectTemplates.create.mutate({ name: 'Theirs' });
    await expect(api.projectTemplates.get.query({ templateId: theirs.id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(
      api.services.create.mutate({
        name: 'Audit',
        code: 'AUD',
        frequency: 'yearly',
        projectTemplateId: theirs.id,
      }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('projectTemplateId'),
    });
  });

  it('needs the templates rights', async () => {
    const { firm, templateId } = await firmWithWork('Rights & Co');
    const staff = t.client(firm.staff.token);
    await expect(staff.projectTemplates.list.query({})).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    const manager = t.client(firm.manager.token);
    expect((await manager.projectTemplates.get.query({ templateId })).name).toBe('Monthly GST');
    await expect(manager.projectTemplates.create.mutate({ name: 'Mine' })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
  });
});

describe('projects', () => {
  it('appears when a client is engaged to a service with a template, with its tasks', async () => {
    const { firm, api, svc, client } = await firmWithWork('Engaged & Co');
    await engage(api, client.id, svc.id, [firm.owner.id, firm.staff.id]);
    const list = await api.projects.list.query({ clientId: client.id });
    expect(list.total).toBeGreaterThanOrEqual(1);
    const row = list.rows[0];
    if (!row) throw new Error('no project');
    expect(row).toMatchObject({
      client: { id: client.id },
      service: { id: svc.id, name: 'GST return' },
      status: 'SCHEDULED',
      owner: { id: firm.owner.id },
      progress: { done: 0, total: 2 },
    });
    expect(row.name).toMatch(/^GST return · /);
    const detail = await api.projects.get.query({ projectId: row.id });
    expect(detail.tasks.map((task) => task.title)).toEqual(['Collect invoices', 'File the return']);
    expect(detail.tasks[1]?.assignees.map((a) => a.id)).toEqual([firm.manager.id]);
    expect(detail.tasks[0]?.assignees.map((a) => a.id).sort()).toEqual([firm.owner.id, firm.staff.id].sort());
    expect(detail.members.map((m) => m.id).sort()).toEqual([firm.owner.id, firm.staff.id].sort());
    expect(detail.activity.map((a) => a.action)).toEqual(['project.generate']);
  });

  it('changes status (completed date set and cleared), members, and archives and deletes', async () => {
    const { firm, api, client, templateId } = await firmWithWork('Status & Co');
    const { id } = await api.projects.create.mutate({
      clientId: client.id,
      templateId,
      name: 'Year-end accounts',
      startDate: '2026-04-01',
      dueDate: '2026-09-30',
      ownerId: firm.manager.id,
      memberIds: [firm.staff.id],
    });
    let detail = await api.projects.get.query({ projectId: id });
    expect(detail.tasks.map((task) => [task.title, task.dueDate])).toEqual([
      ['Collect invoices', '2026-10-05'],
      ['File the return', '2026-10-20'],
    ]);
    expect(detail.members.map((m) => m.id).sort()).toEqual([firm.manager.id, firm.staff.id].sort());

    const done = await api.projects.setStatus.mutate({ projectId: id, status: 'COMPLETED' });
    expect(done.completedDate).toBeInstanceOf(Date);
    const back = await api.projects.setStatus.mutate({ projectId: id, status: 'IN_REVIEW' });
    expect(back.completedDate).toBe(null);
    const [stored] = await t.db.select().from(projects).where(eq(projects.id, id));
    expect(stored).toMatchObject({ status: 'IN_REVIEW', completedDate: null });

    await api.projects.addMember.mutate({ projectId: id, memberId: firm.admin.id });
    await api.projects.removeMember.mutate({ projectId: id, memberId: firm.staff.id });
    await expect(
      api.projects.removeMember.mutate({ projectId: id, memberId: firm.manager.id }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    detail = await api.projects.get.query({ projectId: id });
    expect(detail.members.map((m) => m.id).sort()).toEqual([firm.admin.id, firm.manager.id].sort());
    expect(detail.activity.map((a) => a.action)).toEqual([
      'project.member.remove',
      'project.member.add',
      'project.status',
      'project.status',
      'project.create',
    ]);

    await api.projects.archive.mutate({ projectId: id });
    expect((await api.projects.list.query({ clientId: client.id })).total).toBe(0);
    expect((await api.projects.list.query({ clientId: client.id, archived: true })).total).toBe(1);
    await api.projects.delete.mutate({ projectId: id });
    await expect(api.projects.get.query({ projectId: id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect(await t.db.$count(tasks, eq(tasks.projectId, id))).toBe(0);
  });

  it('filters by status including OVERDUE, member, period and due range, sorts, and counts progress', async () => {
    const { firm, api, client } = await firmWithWork('Filters & Co');
    const make = (name: string, dueDate: string | null, ownerId: string | null = null) =>
      api.projects.create.mutate({ clientId: client.id, name, dueDate, ownerId, memberIds: [] });
    const late = await make('Late', '2020-01-31', firm.staff.id);
    const soon = await make('Soon', '2099-01-31');
    const done = await make('Done', '2020-02-28');
    await api.projects.setStatus.mutate({ projectId: done.id, status: 'COMPLETED' });
    await api.projects.setStatus.mutate({ projectId: soon.id, status: 'IN_PROGRESS' });
    await t.db.update(projects).set({ periodKey: '2099-01' }).where(eq(projects.id, soon.id));
    await t.db.insert(tasks).values([
      { orgId: firm.org.id, projectId: soon.id, title: 'a', status: 'COMPLETED' },
      { orgId: firm.org.id, projectId: soon.id, title: 'b' },
      { orgId: firm.org.id, projectId: soon.id, title: 'c' },
    ]);

    const names = async (input: Parameters<TApi['projects']['list']['query']>[0]) =>
      (await api.projects.list.query({ clientId: client.id, ...input })).rows.map((r) => r.name);
    expect(await names({ status: 'OVERDUE' })).toEqual(['Late']);
    expect(await names({ status: 'SCHEDULED' })).toEqual([]);
    expect(await names({ status: 'IN_PROGRESS' })).toEqual(['Soon']);
    expect(await names({ status: 'COMPLETED' })).toEqual(['Done']);
    expect(await names({ memberId: firm.staff.id })).toEqual(['Late']);
    expect(await names({ periodKey: '2099-01' })).toEqual(['Soon']);
    expect(await names({ dueFrom: '2020-02-01', dueTo: '2020-12-31' })).toEqual([]);
    expect(await names({ dueFrom: '2020-02-01', dueTo: '2020-12-31', includeCompleted: true })).toEqual([
      'Done',
    ]);
    // Open work by default (overdue first, then due soonest); completed only on request.
    expect(await names({})).toEqual(['Late', 'Soon']);
    expect(await names({ sort: 'dueDate', direction: 'asc', includeCompleted: true })).toEqual([
      'Late',
      'Done',
      'Soon',
    ]);
    expect(await names({ sort: 'name', direction: 'desc' })).toEqual(['Soon', 'Late']);
    expect(await names({ sort: 'name', direction: 'desc', includeCompleted: true })).toEqual([
      'Soon',
      'Late',
      'Done',
    ]);
    expect(await names({ search: 'oo' })).toEqual(['Soon']);
    const page = await api.projects.list.query({
      clientId: client.id,
      includeCompleted: true,
      pageSize: 2,
      page: 2,
      sort: 'name',
    });
    expect([page.total, page.rows.map((r) => r.name)]).toEqual([3, ['Soon']]);
    expect(page.rows[0]?.progress).toEqual({ done: 1, total: 3 });

    const board = await api.projects.board.query({ clientId: client.id });
    expect(board.columns.map((c) => [c.status, c.rows.map((r) => r.name)])).toEqual([
      ['SCHEDULED', ['Late']],
      ['IN_PROGRESS', ['Soon']],
      ['IN_REVIEW', []],
      ['COMPLETED', ['Done']],
    ]);

    await expect(
      api.projects.list.query({ dueFrom: '2026-02-01', dueTo: '2026-01-01' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    await expect(api.projects.list.query({ status: 'LATE' as never })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    expect(late.id).toBeTruthy();
  });

  it('validates a new project and answers without changing anything', async () => {
    const { firm, api, client } = await firmWithWork('Valid & Co');
    const other = await seedFirmWithRoles(t, 'Valid Other');
    await expect(api.projects.create.mutate({ clientId: client.id, name: ' ' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('Enter the project name'),
    });
    await expect(
      api.projects.create.mutate({
        clientId: client.id,
        name: 'X',
        startDate: '2026-05-01',
        dueDate: '2026-04-01',
      }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' }, message: expect.stringContaining('due date') });
    await expect(
      api.projects.create.mutate({ clientId: client.id, name: 'X', memberIds: [other.owner.id] }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    await expect(
      api.projects.setStatus.mutate({ projectId: crypto.randomUUID(), status: 'DONE' as never }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    expect(await t.db.$count(projects, eq(projects.orgId, firm.org.id))).toBe(0);
  });

  describe('cross-org and permissions', () => {
    it('answers NOT_FOUND for another firm’s project, client or template', async () => {
      const mine = await firmWithWork('Mine & Co');
      const theirs = await firmWithWork('Theirs & Co');
      const { id } = await theirs.api.projects.create.mutate({ clientId: theirs.client.id, name: 'Theirs' });
      const api = mine.api;
      await expect(api.projects.get.query({ projectId: id })).rejects.toMatchObject({
        data: { code: 'NOT_FOUND' },
      });
      await expect(
        api.projects.setStatus.mutate({ projectId: id, status: 'COMPLETED' }),
      ).rejects.toMatchObject({
        data: { code: 'NOT_FOUND' },
      });
      await expect(api.projects.delete.mutate({ projectId: id })).rejects.toMatchObject({
        data: { code: 'NOT_FOUND' },
      });
      await expect(
        api.projects.create.mutate({ clientId: theirs.client.id, name: 'X' }),
      ).rejects.toMatchObject({
        data: { code: 'NOT_FOUND' },
      });
      await expect(
        api.projects.create.mutate({ clientId: mine.client.id, name: 'X', templateId: theirs.templateId }),
      ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
      expect((await api.projects.list.query({})).rows.map((r) => r.name)).not.toContain('Theirs');
      const [stored] = await t.db.select().from(projects).where(eq(projects.id, id));
      expect(stored?.status).toBe('SCHEDULED');
    });

    it('needs projects rights: FORBIDDEN without them', async () => {
      const { firm, client } = await firmWithWork('Forbidden & Co');
      await t.db
        .update(roles)
        .set({ permissions: ['clients.view'] })
        .where(eq(roles.id, firm.roles.staff.id));
      const staff = t.client(firm.staff.token);
      await expect(staff.projects.list.query({})).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
      const manager = t.client(firm.manager.token);
      const { id } = await manager.projects.create.mutate({ clientId: client.id, name: 'Managed' });
      const admin = t.client(firm.admin.token);
      await t.db
        .update(roles)
        .set({ permissions: ['projects.view'] })
        .where(eq(roles.id, firm.roles.admin.id));
      await expect(
        admin.projects.setStatus.mutate({ projectId: id, status: 'COMPLETED' }),
      ).rejects.toMatchObject({
        data: { code: 'FORBIDDEN' },
      });
      await expect(admin.projects.delete.mutate({ projectId: id })).rejects.toMatchObject({
        data: { code: 'FORBIDDEN' },
      });
    });

    it('shows an assigned-clients-only member only their clients’ projects', async () => {
      const { firm, api, client } = await firmWithWork('Assigned & Co');
      const mineClient = await seedClient(t, firm.org.id, { name: 'Assigned client' });
      await putOnTeam(t, firm.org.id, mineClient.id, firm.staff.id);
      const hidden = await api.projects.create.mutate({ clientId: client.id, name: 'Hidden' });
      await api.projects.create.mutate({ clientId: mineClient.id, name: 'Visible' });
      const staff = t.client(firm.staff.token);
      expect((await staff.projects.list.query({})).rows.map((r) => r.name)).toEqual(['Visible']);
      await expect(staff.projects.get.query({ projectId: hidden.id })).rejects.toMatchObject({
        data: { code: 'NOT_FOUND' },
      });
      const board = await staff.projects.board.query({});
      expect(board.columns.flatMap((c) => c.rows.map((r) => r.name))).toEqual(['Visible']);
      expect((await staff.projects.clients.query({})).map((c) => c.name)).toEqual(['Assigned client']);
    });
  });

  it('copies task assignees with their due date', async () => {
    const { firm, api, svc, client } = await firmWithWork('Copy & Co');
    await engage(api, client.id, svc.id, [firm.staff.id]);
    const rows = await t.db.select().from(taskAssignees).where(eq(taskAssignees.orgId, firm.org.id));
    const taskRows = await t.db.select().from(tasks).where(eq(tasks.orgId, firm.org.id));
    for (const a of rows) expect(a.dueDate).toBe(taskRows.find((x) => x.id === a.taskId)?.dueDate);
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });
});
