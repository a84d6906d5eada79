import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../domain/days';
import {
  clients,
  clientTeam,
  members,
  orgs,
  projects,
  roles,
  systemLog,
  taskAssignees,
  tasks,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedFirmWithRoles } from '../../test/seeded-firm';
import { dashboardSummary } from './service';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type TStatus = 'SCHEDULED' | 'IN_PROGRESS' | 'IN_REVIEW' | 'COMPLETED';

async function addTask(
  orgId: string,
  task: { title: string; due: string; status?: TStatus; clientId?: string; assignees?: string[] },
) {
  const status = task.status ?? 'SCHEDULED';
  const [row] = await t.db
    .insert(tasks)
    .values({
      orgId,
      title: task.title,
      status,
      dueDate: task.due,
      clientId: task.clientId ?? null,
      completedDate: status === 'COMPLETED' ? new Date() : null,
    })
    .returning();
  if (!row) throw new Error('task not created');
  for (const memberId of task.assignees ?? []) {
    await t.db.insert(taskAssignees).values({ orgId, taskId: row.id, memberId, dueDate: task.due });
  }
  return row;
}

async function addProject(
  orgId: string,
  project: { name: string; clientId: string; due: string; status?: TStatus; archived?: boolean },
) {
  const status = project.status ?? 'SCHEDULED';
  const [row] = await t.db
    .insert(projects)
    .values({
      orgId,
      name: project.name,
      clientId: project.clientId,
      dueDate: project.due,
      status,
      completedDate: status === 'COMPLETED' ? new Date() : null,
      archivedAt: project.archived ? new Date() : null,
    })
    .returning();
  if (!row) throw new Error('project not created');
  return row;
}

/**
 * A firm far east of UTC (Kiritimati, UTC+14) with two clients: the staff member (limited to
 * assigned clients) is on the team of X only.
 */
async function seededFirm(name: string) {
  const firm = await seedFirmWithRoles(t, name);
  const orgId = firm.org.id;
  await t.db.update(orgs).set({ timeZone: 'Pacific/Kiritimati' }).where(eq(orgs.id, orgId));
  const today = todayIn('Pacific/Kiritimati');
  const day = (n: number) => addDays(today, n);
  const [x, y] = await t.db
    .insert(clients)
    .values([
      { orgId, code: 'X', name: 'Xavier Exports' },
      { orgId, code: 'Y', name: 'Yamuna Foods' },
    ])
    .returning();
  if (!x || !y) throw new Error('clients not created');
  await t.db.insert(clientTeam).values({ orgId, clientId: x.id, memberId: firm.staff.id });
  const owner = firm.owner.id;
  const staff = firm.staff.id;
  const a = await addTask(orgId, {
    title: 'A late',
    due: day(-1),
    status: 'IN_PROGRESS',
    clientId: x.id,
    assignees: [owner],
  });
  const b = await addTask(orgId, { title: 'B today', due: day(0), clientId: y.id, assignees: [owner] });
  const c = await addTask(orgId, { title: 'C soon', due: day(3), status: 'IN_REVIEW', assignees: [owner] });
  await addTask(orgId, { title: 'D later', due: day(10), assignees: [owner] });
  await addTask(orgId, { title: 'E done', due: day(-5), status: 'COMPLETED', assignees: [owner] });
  await addTask(orgId, { title: 'F staff late', due: day(-2), clientId: x.id, assignees: [staff] });
  await addTask(orgId, { title: 'G nobody late', due: day(-1), clientId: y.id });
  await addTask(orgId, { title: 'H staff next week', due: day(7), clientId: x.id, assignees: [staff] });
  const p1 = await addProject(orgId, { name: 'P1 late', clientId: x.id, due: day(-1) });
  const p2 = await addProject(orgId, { name: 'P2 week', clientId: y.id, due: day(2), status: 'IN_PROGRESS' });
  const p3 = await addProject(orgId, { name: 'P3 fortnight', clientId: x.id, due: day(10) });
  await addProject(orgId, { name: 'P4 far', clientId: x.id, due: day(20) });
  await addProject(orgId, { name: 'P5 done', clientId: y.id, due: day(-3), status: 'COMPLETED' });
  await addProject(orgId, { name: 'P6 archived', clientId: y.id, due: day(-3), archived: true });
  await addProject(orgId, { name: 'P7 done early', clientId: y.id, due: day(1), status: 'COMPLETED' });
  return { firm, orgId, today, x, y, a, b, c, p1, p2, p3 };
}

describe('dashboard.summary', () => {
  it("answers the owner's counts, this week's tasks and the upcoming deadlines in the firm's time zone", async () => {
    const s = await seededFirm('Counts');
    const summary = await t.client(s.firm.owner.token).dashboard.summary.query();
    expect(summary.today).toBe(s.today);
    expect(summary.weekEnd).toBe(addDays(s.today, 6));
    expect(summary.timeZone).toBe('Pacific/Kiritimati');
    expect(summary.tasks).toMatchObject({ myOverdue: 1, myOpen: 4, firmOverdue: 3 });
    expect(summary.tasks?.dueToday.rows.map((r) => r.title)).toEqual(['B today']);
    expect(summary.tasks?.dueToday.rows[0]).toMatchObject({ clientName: 'Yamuna Foods', dueDate: s.today });
    expect(summary.tasks?.dueThisWeek).toMatchObject({ total: 1, rows: [{ id: s.c.id, title: 'C soon' }] });
    // Due this week counts every status (the list it opens shows them all); upcoming is open work.
    expect(summary.projects).toMatchObject({ overdue: 1, dueThisWeek: 2 });
    expect(summary.projects?.upcoming.total).toBe(2);
    expect(summary.projects?.upcoming.rows.map((r) => [r.name, r.clientName])).toEqual([
      ['P2 week', 'Yamuna Foods'],
      ['P3 fortnight', 'Xavier Exports'],
    ]);
  });

  it('limits a member with "assigned clients only" to their clients and their own tasks', async () => {
    const s = await seededFirm('Assigned');
    const summary = await t.client(s.firm.staff.token).dashboard.summary.query();
    expect(summary.assignedClientsOnly).toBe(true);
    // A (client X, the owner's) and F (X, theirs); G is on client Y.
    expect(summary.tasks).toMatchObject({ myOverdue: 1, myOpen: 2, firmOverdue: 2 });
    expect(summary.tasks?.dueToday.total).toBe(0);
    expect(summary.tasks?.dueThisWeek.total).toBe(0);
    expect(summary.projects).toMatchObject({ overdue: 1, dueThisWeek: 0 });
    expect(summary.projects?.upcoming.rows.map((r) => r.name)).toEqual(['P3 fortnight']);
    // A manager (clients.all) sees the whole firm.
    const manager = await t.client(s.firm.manager.token).dashboard.summary.query();
    expect(manager.assignedClientsOnly).toBe(false);
    expect(manager.tasks?.firmOverdue).toBe(3);
    expect(manager.projects?.overdue).toBe(1);
  });

  it('turns a task overdue exactly at midnight in the firm time zone', async () => {
    const firm = await t.seedFirm('Boundary');
    await t.db.update(orgs).set({ timeZone: 'Asia/Kolkata' }).where(eq(orgs.id, firm.org.id));
    await addTask(firm.org.id, { title: 'Due on the 21st', due: '2026-11-21', assignees: [firm.owner.id] });
    const scope = {
      orgId: firm.org.id,
      memberId: firm.owner.id,
      isOwner: true,
      permissions: [],
      assignedClientsOnly: false,
    };
    // 18:29:59Z is 23:59:59 on the 21st in Kolkata (UTC+05:30); in UTC it is still the 21st either way.
    const before = await dashboardSummary(t.db, scope, new Date('2026-11-21T18:29:59Z'));
    expect(before.today).toBe('2026-11-21');
    expect(before.tasks).toMatchObject({ myOverdue: 0, firmOverdue: 0, dueToday: { total: 1 } });
    const after = await dashboardSummary(t.db, scope, new Date('2026-11-21T18:30:00Z'));
    expect(after.today).toBe('2026-11-22');
    expect(after.tasks).toMatchObject({ myOverdue: 1, firmOverdue: 1, dueToday: { total: 0 } });
  });

  it('answers only the sections the member has the view right for', async () => {
    const s = await seededFirm('Rights');
    const [role] = await t.db
      .insert(roles)
      .values({ orgId: s.orgId, name: 'Clients only', permissions: ['clients.view'] })
      .returning();
    if (!role) throw new Error('role not created');
    await t.db.update(members).set({ roleId: role.id }).where(eq(members.id, s.firm.admin.id));
    await t.db.insert(systemLog).values([
      {
        orgId: s.orgId,
        actorKind: 'member',
        actorMemberId: s.firm.admin.id,
        action: 'client.update',
        recordType: 'client',
        summary: 'Updated Xavier Exports',
      },
      {
        orgId: s.orgId,
        actorKind: 'member',
        actorMemberId: s.firm.owner.id,
        action: 'client.create',
        recordType: 'client',
        summary: 'Created Yamuna Foods',
      },
    ]);
    const limited = await t.client(s.firm.admin.token).dashboard.summary.query();
    expect(limited.tasks).toBeNull();
    expect(limited.projects).toBeNull();
    // No system-log right: only what they did themselves.
    expect(limited.activity.scope).toBe('mine');
    expect(limited.activity.rows.map((r) => r.summary)).toEqual(['Updated Xavier Exports']);
    const owner = await t.client(s.firm.owner.token).dashboard.summary.query();
    expect(owner.activity.scope).toBe('firm');
    expect(owner.activity.rows.map((r) => r.summary)).toEqual([
      'Created Yamuna Foods',
      'Updated Xavier Exports',
    ]);
    expect(owner.activity.rows[0]?.actorName).toBe('Olivia Owner');
  });

  it('shows a member limited to their clients only their own activity, even with the right to read the log', async () => {
    const s = await seededFirm('Log rights');
    const [role] = await t.db
      .insert(roles)
      .values({
        orgId: s.orgId,
        name: 'Limited auditor',
        permissions: ['clients.view', 'systemLog.view'],
        assignedClientsOnly: true,
      })
      .returning();
    if (!role) throw new Error('role not created');
    await t.db.update(members).set({ roleId: role.id }).where(eq(members.id, s.firm.admin.id));
    await t.db.insert(systemLog).values([
      {
        orgId: s.orgId,
        actorKind: 'member',
        actorMemberId: s.firm.admin.id,
        action: 'client.update',
        recordType: 'client',
        summary: 'Updated Mine Ltd',
      },
      {
        orgId: s.orgId,
        actorKind: 'member',
        actorMemberId: s.firm.owner.id,
        action: 'client.create',
        recordType: 'client',
        summary: 'Created Not Yours Ltd',
      },
    ]);
    const api = t.client(s.firm.admin.token);
    const limited = await api.dashboard.summary.query();
    expect(limited.activity.scope).toBe('mine');
    expect(limited.activity.rows.map((r) => r.summary)).toEqual(['Updated Mine Ltd']);
    // The log screen and its filters follow the same rule, whatever filter is asked for.
    const log = await api.systemLog.list.query({ actorId: s.firm.owner.id });
    expect(log.rows.map((r) => r.summary)).not.toContain('Created Not Yours Ltd');
    const all = await api.systemLog.list.query({});
    expect(all.rows.map((r) => r.summary)).toEqual(['Updated Mine Ltd']);
    expect((await api.systemLog.facets.query()).actors.map((a) => a.id)).toEqual([s.firm.admin.id]);
  });

  it("leaves out the product setting up a client's documents: opening a screen is not activity", async () => {
    const firm = await t.seedFirm('Opening');
    const api = t.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'O1', name: 'Opened Traders' });
    await api.documents.open.mutate({ clientId: client.id });
    await api.documents.open.mutate({ clientId: null });
    const summary = await api.dashboard.summary.query();
    expect(summary.activity.scope).toBe('firm');
    expect(summary.activity.rows.map((r) => r.summary)).toEqual(['Created client Opened Traders (O1)']);
    // The system log still has the set-up, as the product's doing rather than the member's.
    const setUp = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'documents.tree.create')))
      .orderBy(systemLog.at);
    expect(setUp.map((l) => [l.actorKind, l.actorMemberId, l.summary])).toEqual([
      ['system', null, "Set up Opened Traders's documents"],
      ['system', null, 'Set up the firm vault'],
    ]);
  });

  it('asks the same few statements whatever the firm holds', async () => {
    const s = await seededFirm('Statements');
    const empty = await t.seedFirm('No work');
    const statements = async (orgId: string, memberId: string) => {
      let n = 0;
      const counting = new Proxy(t.db, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (typeof value !== 'function') return value;
          if (prop === 'execute' || prop === 'select') {
            return (...args: unknown[]) => {
              n++;
              return value.apply(target, args);
            };
          }
          return value.bind(target);
        },
      });
      const scope = { orgId, memberId, isOwner: true, permissions: [], assignedClientsOnly: false };
      await dashboardSummary(counting, scope);
      return n;
    };
    expect(await statements(s.orgId, s.firm.owner.id)).toBe(5);
    expect(await statements(empty.org.id, empty.owner.id)).toBe(5);
  });

  it('needs a signed-in member', async () => {
    await expect(t.client().dashboard.summary.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('cross-org', () => {
  it("never counts another firm's work", async () => {
    await seededFirm('Busy');
    const empty = await t.seedFirm('Empty');
    const summary = await t.client(empty.owner.token).dashboard.summary.query();
    expect(summary.tasks).toMatchObject({
      myOverdue: 0,
      myOpen: 0,
      firmOverdue: 0,
      dueToday: { rows: [], total: 0 },
      dueThisWeek: { rows: [], total: 0 },
    });
    expect(summary.projects).toMatchObject({ overdue: 0, dueThisWeek: 0, upcoming: { rows: [], total: 0 } });
    expect(summary.activity.rows).toEqual([]);
  });
});
