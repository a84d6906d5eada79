import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays, todayIn } from '../../../domain/days';
import { orgs, projectTemplates, tasks, templateTasks } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedPortalUser } from '../../test/portal';
import { seedFirmWithRoles } from '../../test/seeded-firm';
import { dashboardSummary } from './service';

// The home page's counts read copies and partial indexes (assignee rows carry their task's status and
// due date, kept by triggers), and a member's summary is cached until the firm changes something it
// shows. After every kind of change, through the product's own procedures, each figure must equal what
// a plain query over the tasks and projects themselves says: for the owner and for a member limited
// to assigned clients. Each check asks twice, so the second answer is the cached one.

let t: TTestApp;
let world: Awaited<ReturnType<typeof seedWorld>>;
beforeAll(async () => {
  t = await createTestApp();
  world = await seedWorld();
});
afterAll(() => t?.close());

const TZ = 'Asia/Kolkata';

async function seedWorld() {
  const firm = await seedFirmWithRoles(t, 'Counting Co');
  const orgId = firm.org.id;
  await t.db.update(orgs).set({ timeZone: TZ }).where(eq(orgs.id, orgId));
  const today = todayIn(TZ);
  const day = (n: number) => addDays(today, n);
  const owner = t.client(firm.owner.token);
  const x = await owner.clients.create.mutate({ code: 'X', name: 'Xavier Exports' });
  const y = await owner.clients.create.mutate({ code: 'Y', name: 'Yamuna Foods' });
  await owner.clients.team.add.mutate({ clientId: x.id, memberId: firm.staff.id, responsibility: 'Manager' });
  const px = await owner.projects.create.mutate({ clientId: x.id, name: 'X audit', dueDate: day(-2) });
  const py = await owner.projects.create.mutate({ clientId: y.id, name: 'Y returns', dueDate: day(3) });
  const task = (title: string, due: string | null, more: Record<string, unknown> = {}) =>
    owner.tasks.create.mutate({ title, dueDate: due, assigneeIds: [firm.owner.id], ...more });
  const late = await task('Late on X', day(-3), { clientId: x.id, projectId: px.id });
  const soon = await task('Soon on Y', day(2), {
    clientId: y.id,
    projectId: py.id,
    assigneeIds: [firm.owner.id, firm.staff.id],
  });
  const today1 = await task('Today', day(0), { clientId: x.id });
  const undated = await task('Undated', null);
  const nobody = await task('Nobody late on Y', day(-1), { clientId: y.id, assigneeIds: [] });
  return { firm, orgId, day, owner, x, y, px, py, late, soon, today1, undated, nobody };
}

type TFigures = {
  myOverdue: number;
  myOpen: number;
  firmOverdue: number;
  dueToday: number;
  dueThisWeek: number;
  projectsOverdue: number;
  projectsWeek: number;
  projectsUpcoming: number;
};

const OPEN = sql.raw(`('SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW')`);

/** The figures from the tasks and projects themselves: the task's own status and due date, no copies. */
async function truth(memberId: string, limited: boolean): Promise<TFigures> {
  const { orgId, day } = world;
  const today = day(0);
  const onTeam = (clientId: ReturnType<typeof sql>) =>
    limited
      ? sql`and ${clientId} in (select client_id from client_team where org_id = ${orgId} and member_id = ${memberId})`
      : sql``;
  const mine = sql`exists (select 1 from task_assignees a where a.org_id = t.org_id and a.task_id = t.id and a.member_id = ${memberId})`;
  const [row] = rowsOf<Record<string, string>>(
    await t.db.execute(sql`select
      (select count(*) from tasks t where t.org_id = ${orgId} and t.status in ${OPEN} and ${mine}
        and t.due_date < ${today}) as my_overdue,
      (select count(*) from tasks t where t.org_id = ${orgId} and t.status in ${OPEN} and ${mine}) as my_open,
      (select count(*) from tasks t where t.org_id = ${orgId} and t.status in ${OPEN} and t.due_date < ${today}
        ${limited ? sql`and (${mine} or t.client_id in (select client_id from client_team where org_id = ${orgId} and member_id = ${memberId}))` : sql``}) as firm_overdue,
      (select count(*) from tasks t where t.org_id = ${orgId} and t.status in ${OPEN} and ${mine}
        and t.due_date = ${today}) as due_today,
      (select count(*) from tasks t where t.org_id = ${orgId} and t.status in ${OPEN} and ${mine}
        and t.due_date > ${today} and t.due_date <= ${day(6)}) as due_week,
      (select count(*) from projects p where p.org_id = ${orgId} and p.archived_at is null and p.status in ${OPEN}
        and p.due_date < ${today} ${onTeam(sql`p.client_id`)}) as p_overdue,
      (select count(*) from projects p where p.org_id = ${orgId} and p.archived_at is null
        and p.due_date between ${today} and ${day(6)} ${onTeam(sql`p.client_id`)}) as p_week,
      (select count(*) from projects p where p.org_id = ${orgId} and p.archived_at is null and p.status in ${OPEN}
        and p.due_date between ${today} and ${day(13)} ${onTeam(sql`p.client_id`)}) as p_upcoming`),
  );
  const n = (k: string) => Number(row?.[k]);
  return {
    myOverdue: n('my_overdue'),
    myOpen: n('my_open'),
    firmOverdue: n('firm_overdue'),
    dueToday: n('due_today'),
    dueThisWeek: n('due_week'),
    projectsOverdue: n('p_overdue'),
    projectsWeek: n('p_week'),
    projectsUpcoming: n('p_upcoming'),
  };
}

async function shown(token: string): Promise<TFigures> {
  const s = await t.client(token).dashboard.summary.query();
  if (!s.tasks || !s.projects) throw new Error('sections missing');
  return {
    myOverdue: s.tasks.myOverdue,
    myOpen: s.tasks.myOpen,
    firmOverdue: s.tasks.firmOverdue,
    dueToday: s.tasks.dueToday.total,
    dueThisWeek: s.tasks.dueThisWeek.total,
    projectsOverdue: s.projects.overdue,
    projectsWeek: s.projects.dueThisWeek,
    projectsUpcoming: s.projects.upcoming.total,
  };
}

/**
 * Both members' figures equal the plain queries'; returns the owner's. Polled: a summary cached before
 * the change is dropped when the change's notification reaches the server, a moment after its commit.
 */
async function check(): Promise<TFigures> {
  const { firm } = world;
  const owner = await truth(firm.owner.id, false);
  await expect.poll(() => shown(firm.owner.token), { timeout: 3000 }).toEqual(owner);
  const staff = await truth(firm.staff.id, true);
  await expect.poll(() => shown(firm.staff.token), { timeout: 3000 }).toEqual(staff);
  expect(await shown(firm.owner.token)).toEqual(owner);
  expect(await shown(firm.staff.token)).toEqual(staff);
  return owner;
}

describe('dashboard figures after each kind of change', () => {
  it('start right', async () => {
    expect(await check()).toEqual({
      myOverdue: 1,
      myOpen: 4,
      firmOverdue: 2,
      dueToday: 1,
      dueThisWeek: 1,
      projectsOverdue: 1,
      projectsWeek: 1,
      projectsUpcoming: 1,
    });
  });

  it('follow a task status change, both ways', async () => {
    const before = await check();
    await world.owner.tasks.setStatus.mutate({ taskId: world.late.id, status: 'COMPLETED' });
    const done = await check();
    expect(done).toMatchObject({ myOverdue: before.myOverdue - 1, myOpen: before.myOpen - 1 });
    await world.owner.tasks.setStatus.mutate({ taskId: world.late.id, status: 'IN_REVIEW' });
    expect(await check()).toEqual(before);
  });

  it('follow a due date moved into the past, out of it and cleared', async () => {
    const before = await check();
    await world.owner.tasks.update.mutate({ taskId: world.soon.id, patch: { dueDate: world.day(-5) } });
    expect(await check()).toMatchObject({
      myOverdue: before.myOverdue + 1,
      dueThisWeek: before.dueThisWeek - 1,
    });
    await world.owner.tasks.update.mutate({ taskId: world.soon.id, patch: { dueDate: null } });
    expect(await check()).toMatchObject({ myOverdue: before.myOverdue, myOpen: before.myOpen });
    await world.owner.tasks.update.mutate({ taskId: world.soon.id, patch: { dueDate: world.day(2) } });
    expect(await check()).toEqual(before);
  });

  it('follow assignees added and removed, one by one and in bulk', async () => {
    const before = await check();
    await world.owner.tasks.update.mutate({
      taskId: world.nobody.id,
      patch: { assigneeIds: [world.firm.owner.id] },
    });
    expect(await check()).toMatchObject({ myOverdue: before.myOverdue + 1, myOpen: before.myOpen + 1 });
    await world.owner.tasks.update.mutate({ taskId: world.nobody.id, patch: { assigneeIds: [] } });
    expect(await check()).toEqual(before);
    const ids = [world.nobody.id, world.undated.id];
    await world.owner.tasks.bulk.mutate({ ids, action: { kind: 'assign', memberId: world.firm.staff.id } });
    await check();
    await world.owner.tasks.bulk.mutate({ ids, action: { kind: 'unassign', memberId: world.firm.staff.id } });
    expect(await check()).toEqual(before);
  });

  it('follow a bulk status change', async () => {
    const before = await check();
    const ids = [world.late.id, world.today1.id, world.nobody.id];
    await world.owner.tasks.bulk.mutate({ ids, action: { kind: 'setStatus', status: 'COMPLETED' } });
    expect(await check()).toMatchObject({
      firmOverdue: before.firmOverdue - 2,
      dueToday: before.dueToday - 1,
    });
    await world.owner.tasks.bulk.mutate({ ids, action: { kind: 'setStatus', status: 'SCHEDULED' } });
    expect(await check()).toEqual(before);
  });

  it('follow a task moved to another client and project (what a limited member counts)', async () => {
    const before = await check();
    await world.owner.tasks.update.mutate({
      taskId: world.late.id,
      patch: { clientId: world.y.id, projectId: world.py.id },
    });
    await check();
    await world.owner.tasks.update.mutate({
      taskId: world.late.id,
      patch: { clientId: world.x.id, projectId: world.px.id },
    });
    expect(await check()).toEqual(before);
  });

  it("follow the client's own completion in the portal", async () => {
    const { firm, orgId, x, day } = world;
    const before = await check();
    const forClient = await world.owner.tasks.create.mutate({
      title: 'Send the invoices',
      clientId: x.id,
      forClient: true,
      dueDate: day(-1),
      assigneeIds: [firm.owner.id, firm.staff.id],
    });
    expect(await check()).toMatchObject({
      myOverdue: before.myOverdue + 1,
      firmOverdue: before.firmOverdue + 1,
    });
    const portal = await seedPortalUser(t, { orgId, clientIds: [x.id] });
    await portal.client.clientPortalTasks.complete.mutate({ clientId: x.id, taskId: forClient.id });
    expect(await check()).toEqual(before);
  });

  it('follow project status, due date, archive, restore and a project made from a template', async () => {
    const { firm, orgId, owner, px, py, day } = world;
    const before = await check();
    await owner.projects.setStatus.mutate({ projectId: px.id, status: 'COMPLETED' });
    expect(await check()).toMatchObject({ projectsOverdue: before.projectsOverdue - 1 });
    await owner.projects.setStatus.mutate({ projectId: px.id, status: 'IN_PROGRESS' });
    await owner.projects.update.mutate({ projectId: py.id, name: 'Y returns', dueDate: day(10) });
    expect(await check()).toMatchObject({ projectsWeek: before.projectsWeek - 1 });
    await owner.projects.update.mutate({ projectId: py.id, name: 'Y returns', dueDate: day(3) });
    await owner.projects.archive.mutate({ projectId: px.id });
    expect(await check()).toMatchObject({ projectsOverdue: before.projectsOverdue - 1 });
    await owner.projects.restore.mutate({ projectId: px.id });
    expect(await check()).toEqual(before);

    const [template] = await t.db.insert(projectTemplates).values({ orgId, name: 'Filing' }).returning();
    if (!template) throw new Error('template not created');
    await t.db.insert(templateTasks).values([
      { orgId, templateId: template.id, position: 1, title: 'Collect', dueOffsetDays: -4 },
      { orgId, templateId: template.id, position: 2, title: 'File', dueOffsetDays: 0 },
    ]);
    const made = await owner.projects.create.mutate({
      clientId: world.x.id,
      name: 'X filing',
      dueDate: day(1),
      templateId: template.id,
      memberIds: [firm.owner.id, firm.staff.id],
    });
    const withTemplate = await check();
    expect(withTemplate).toMatchObject({
      myOverdue: before.myOverdue + 1,
      projectsWeek: before.projectsWeek + 1,
    });
    await owner.projects.delete.mutate({ projectId: made.id });
    expect(await check()).toEqual(before);
  });

  it('follow a task deleted and any statement that changes tasks directly', async () => {
    const { orgId } = world;
    const before = await check();
    await world.owner.tasks.delete.mutate({ taskId: world.soon.id });
    expect(await check()).toMatchObject({ myOpen: before.myOpen - 1, dueThisWeek: before.dueThisWeek - 1 });
    // A statement outside the task services (as the recurring run or a repair would send) is followed too.
    await t.db.update(tasks).set({ status: 'COMPLETED' }).where(eq(tasks.orgId, orgId));
    expect(await check()).toMatchObject({ myOpen: 0, myOverdue: 0, firmOverdue: 0 });
    await t.db
      .update(tasks)
      .set({ status: 'SCHEDULED', dueDate: world.day(-9) })
      .where(eq(tasks.orgId, orgId));
    const after = await check();
    expect(after.myOverdue).toBe(after.myOpen);
  });
});

describe('the cache', () => {
  it('answers a repeat in one statement and recomputes after a change of the firm, from any connection', async () => {
    const { firm, orgId } = world;
    const scope = {
      orgId,
      memberId: firm.owner.id,
      isOwner: true,
      permissions: [],
      assignedClientsOnly: false,
    };
    const execute = vi.spyOn(t.db, 'execute');
    const select = vi.spyOn(t.db, 'select');
    const statements = async () => {
      execute.mockClear();
      select.mockClear();
      const summary = await dashboardSummary(t.db, scope);
      return { n: execute.mock.calls.length + select.mock.calls.length, summary };
    };
    try {
      // Once the earlier tests' last notifications are in, a repeat is one statement (the firm's day).
      await expect.poll(async () => (await statements()).n, { timeout: 3000 }).toBe(1);
      // A rolled-back change notifies nobody: the cached summary stands.
      await t.db
        .transaction(async (tx) => {
          await tx.update(tasks).set({ title: 'Never' }).where(eq(tasks.orgId, orgId));
          throw new Error('roll back');
        })
        .catch(() => {});
      // Another firm's change leaves this firm's summaries alone.
      const other = await t.seedFirm('Elsewhere');
      await t.client(other.owner.token).tasks.create.mutate({ title: 'Theirs', dueDate: world.day(-1) });
      expect((await statements()).n).toBe(1);
      // A statement from outside the app (another instance) is seen once its notification arrives.
      await t.db.update(tasks).set({ status: 'IN_PROGRESS' }).where(eq(tasks.id, world.undated.id));
      await expect.poll(async () => (await statements()).n, { timeout: 3000 }).toBe(5);
      // (A summary begun before the notification arrived is not kept, so this may take one more round.)
      await expect.poll(async () => (await statements()).n, { timeout: 3000 }).toBe(1);
    } finally {
      execute.mockRestore();
      select.mockRestore();
    }
  });

  it.runIf(process.env.DATABASE_URL)(
    'recomputes at once when its LISTEN connection is lost, and caches until changes again once it is back',
    async () => {
      const { firm, orgId } = world;
      const scope = {
        orgId,
        memberId: firm.owner.id,
        isOwner: true,
        permissions: [],
        assignedClientsOnly: false,
      };
      const select = vi.spyOn(t.db, 'select');
      const execute = vi.spyOn(t.db, 'execute');
      const statements = async () => {
        select.mockClear();
        execute.mockClear();
        await dashboardSummary(t.db, scope);
        return select.mock.calls.length + execute.mock.calls.length;
      };
      try {
        await expect.poll(statements, { timeout: 3000 }).toBe(1);
        const [cut] = rowsOf<{ n: number }>(
          await t.db.execute(sql`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
          where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`),
        );
        expect(cut?.n).toBeGreaterThan(0);
        // Changes made now reach nobody; the server must not answer from what it kept before (while
        // down it keeps a summary for seconds only: cache.test.ts).
        await t.db.update(tasks).set({ status: 'SCHEDULED' }).where(eq(tasks.id, world.undated.id));
        await expect.poll(statements, { timeout: 3000 }).toBe(5);
        // It listens again after a couple of seconds, and caches again.
        await expect.poll(statements, { timeout: 10_000, interval: 250 }).toBe(1);
      } finally {
        select.mockRestore();
        execute.mockRestore();
      }
    },
  );
});
