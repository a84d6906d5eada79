import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays, format } from 'date-fns';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/days';
import { STORED_STATUSES } from '../../../domain/status';
import { TASK_PRIORITIES, type TTaskListInput } from '../../../domain/tasks';
import {
  clients,
  clientTeam,
  notifications,
  orgs,
  projects,
  systemLog,
  taskAssignees,
  tasks,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { membersForSeededRoles } from '../../test/role-members';

let t: TTestApp;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasks-test-'));
beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'OK',
    (e: { data?: { code?: string } }) => e.data?.code ?? String(e),
  );
const message = (p: Promise<unknown>) =>
  p.then(
    () => 'OK',
    (e: Error) => e.message,
  );
const logOf = (orgId: string, action: string) =>
  t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), like(systemLog.action, action)))
    .orderBy(systemLog.at);
const notesOf = (memberId: string, kind: string) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.memberId, memberId), eq(notifications.kind, kind)));

async function firm(name: string, timeZone = 'UTC') {
  const f = await t.seedFirm(name);
  await t.db.update(orgs).set({ timeZone }).where(eq(orgs.id, f.org.id));
  const [acme, bose] = await t.db
    .insert(clients)
    .values([
      { orgId: f.org.id, code: 'A1', name: 'Acme Ltd' },
      { orgId: f.org.id, code: 'B1', name: 'Bose & Sons' },
    ])
    .returning();
  if (!acme || !bose) throw new Error('seed failed');
  return { ...f, api: t.client(f.owner.token), acme, bose };
}

/** A deterministic spread of tasks over statuses, priorities, dates, tags, clients and assignees. */
async function generate(f: Awaited<ReturnType<typeof firm>>, n: number) {
  const base = new Date('2026-01-01T00:00:00Z');
  const rows = Array.from({ length: n }, (_, i) => {
    const status = STORED_STATUSES[i % 4] ?? 'SCHEDULED';
    return {
      orgId: f.org.id,
      title: `Task ${String((i * 37) % n).padStart(3, '0')} ${i % 5 === 0 ? 'GST return' : 'Books'}`,
      status,
      priority: TASK_PRIORITIES[(i * 7) % 4] ?? 'low',
      // Every seventh task has no due date; some share a date so the id breaks ties.
      dueDate: i % 7 === 0 ? null : format(addDays(base, (i * 3) % 40), 'yyyy-MM-dd'),
      completedDate: status === 'COMPLETED' ? new Date() : null,
      tags: i % 3 === 0 ? ['gst'] : i % 3 === 1 ? ['audit', 'gst'] : [],
      clientId: i % 2 === 0 ? f.acme.id : i % 5 === 1 ? null : f.bose.id,
      forClient: i % 9 === 0 && i % 2 === 0,
    };
  });
  const created = await t.db.insert(tasks).values(rows).returning();
  await t.db
    .insert(taskAssignees)
    .values(
      created
        .filter((_, i) => i % 2 === 1)
        .map((task) => ({ orgId: f.org.id, taskId: task.id, memberId: f.staff.id, dueDate: task.dueDate })),
    );
  return created;
}

describe('list', () => {
  it('filters, sorts and pages (offset and keyset) generated tasks correctly', async () => {
    const f = await firm('Lists');
    const all = await generate(f, 90);
    const mineIds = new Set(all.filter((_, i) => i % 2 === 1).map((x) => x.id));
    const ids = async (input: TTaskListInput) => {
      const out: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 50; i++) {
        const page = await f.api.tasks.list.query({ includeCompleted: true, ...input, pageSize: 7, cursor });
        out.push(...page.rows.map((r) => r.id));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return out;
    };
    const full = (input: TTaskListInput) =>
      f.api.tasks.list.query({ includeCompleted: true, ...input, pageSize: 200 });

    // Filters, against the same predicate in JS.
    const expectIds = (rows: typeof all) => rows.map((r) => r.id).sort();
    const got = async (input: TTaskListInput) => (await full(input)).rows.map((r) => r.id).sort();
    expect(await got({})).toEqual(expectIds(all));
    expect(await got({ priority: ['high', 'urgent'], tag: 'audit' })).toEqual(
      expectIds(all.filter((r) => ['high', 'urgent'].includes(r.priority) && r.tags.includes('audit'))),
    );
    expect(await got({ status: ['IN_REVIEW'], clientId: f.acme.id })).toEqual(
      expectIds(all.filter((r) => r.status === 'IN_REVIEW' && r.clientId === f.acme.id)),
    );
    expect(await got({ dueFrom: '2026-01-10', dueTo: '2026-01-20' })).toEqual(
      expectIds(all.filter((r) => r.dueDate && r.dueDate >= '2026-01-10' && r.dueDate <= '2026-01-20')),
    );
    expect(await got({ search: 'gst ret' })).toEqual(
      expectIds(all.filter((r) => r.title.includes('GST ret'))),
    );
    expect(await got({ search: '%' })).toEqual([]);
    expect(await got({ forClient: true })).toEqual(expectIds(all.filter((r) => r.forClient)));
    expect(await got({ assigneeId: f.staff.id })).toEqual([...mineIds].sort());
    expect(await got({ view: 'mine' })).toEqual([]);

    // The total counts every match; the page holds the page.
    const page = await f.api.tasks.list.query({ includeCompleted: true, pageSize: 10, page: 2, tag: 'gst' });
    expect(page.rows).toHaveLength(10);
    expect(page.total).toBe(all.filter((r) => r.tags.includes('gst')).length);
    expect(page.totalCapped).toBe(false);

    // Sorts: the order is right, and keyset pages walk exactly the offset order.
    const rank = (values: readonly string[], v: string) => values.indexOf(v);
    for (const field of ['dueDate', 'priority', 'createdAt', 'title', 'status'] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const sorted = (await full({ sort: { field, dir } })).rows;
        expect(sorted).toHaveLength(90);
        for (let i = 1; i < sorted.length; i++) {
          const a = sorted[i - 1];
          const b = sorted[i];
          if (!a || !b) continue;
          const cmp =
            field === 'dueDate'
              ? a.dueDate === b.dueDate
                ? 0
                : a.dueDate === null
                  ? 1
                  : b.dueDate === null
                    ? -1
                    : a.dueDate < b.dueDate
                      ? -1
                      : 1
              : field === 'priority'
                ? rank(TASK_PRIORITIES, a.priority) - rank(TASK_PRIORITIES, b.priority)
                : field === 'status'
                  ? rank(STORED_STATUSES, a.status) - rank(STORED_STATUSES, b.status)
                  : field === 'title'
                    ? 0
                    : a.createdAt.getTime() - b.createdAt.getTime();
          expect(dir === 'asc' ? cmp <= 0 : cmp >= 0 || (field === 'dueDate' && a.dueDate === null)).toBe(
            true,
          );
        }
        expect(await ids({ sort: { field, dir } })).toEqual(sorted.map((r) => r.id));
      }
    }
    // The staff member's own list, driven from their assignments, pages the same way.
    const staffApi = t.client(f.staff.token);
    for (const dir of ['asc', 'desc'] as const) {
      const mine = (
        await staffApi.tasks.list.query({
          view: 'mine',
          includeCompleted: true,
          sort: { field: 'dueDate', dir },
          pageSize: 200,
        })
      ).rows;
      expect(new Set(mine.map((r) => r.id))).toEqual(mineIds);
      const walked: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 20; i++) {
        const p = await staffApi.tasks.list.query({
          view: 'mine',
          includeCompleted: true,
          sort: { field: 'dueDate', dir },
          pageSize: 6,
          cursor,
        });
        walked.push(...p.rows.map((r) => r.id));
        if (!p.nextCursor) break;
        cursor = p.nextCursor;
      }
      expect(walked).toEqual(mine.map((r) => r.id));
      expect(mine[0]?.assignees).toEqual([{ id: f.staff.id, name: 'Sam Staff' }]);
    }
    expect(await code(f.api.tasks.list.query({ cursor: 'bm90LWEtY3Vyc29y' }))).toBe('BAD_REQUEST');
  });

  it('opens on open work: overdue first, then due soonest; completed only on request', async () => {
    const f = await firm('Open first');
    const today = todayIn('UTC');
    const day = (n: number) => format(addDays(new Date(`${today}T12:00:00Z`), n), 'yyyy-MM-dd');
    // Months-old completed work sorts first by due date: the default must not open on it.
    const done = await f.api.tasks.create.mutate({
      title: 'May return',
      dueDate: day(-180),
      status: 'COMPLETED',
      assigneeIds: [f.owner.id],
    });
    const soon = await f.api.tasks.create.mutate({
      title: 'Due soon',
      dueDate: day(3),
      status: 'IN_PROGRESS',
    });
    const late = await f.api.tasks.create.mutate({
      title: 'Late',
      dueDate: day(-2),
      assigneeIds: [f.owner.id],
    });
    const undated = await f.api.tasks.create.mutate({ title: 'Undated', status: 'IN_REVIEW' });
    const ids = async (input: TTaskListInput) => (await f.api.tasks.list.query(input)).rows.map((r) => r.id);

    const first = await f.api.tasks.list.query({});
    expect(first.rows.map((r) => r.id)).toEqual([late.id, soon.id, undated.id]);
    expect(first.rows[0]?.displayStatus).toBe('OVERDUE');
    expect(first.total).toBe(3);
    // The same for "My tasks" (driven from the assignments).
    expect(await ids({ view: 'mine' })).toEqual([late.id]);
    // Completed on request, in the same order.
    expect(await ids({ includeCompleted: true })).toEqual([done.id, late.id, soon.id, undated.id]);
    // A status filter names exactly what to show.
    expect(await ids({ status: ['COMPLETED'] })).toEqual([done.id]);
    expect(await ids({ status: ['COMPLETED'], includeCompleted: false })).toEqual([done.id]);
  });

  it('serves the default open list from tasks_org_open_due_idx', async () => {
    const f = await firm('Open index');
    await generate(f, 40);
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const result = await tx.execute(sql`explain select id from tasks
        where org_id = ${f.org.id} and status <> 'COMPLETED' order by due_date, id limit 25`);
      return JSON.stringify(result);
    });
    expect(plan).toContain('tasks_org_open_due_idx');
    expect(plan).not.toContain('Sort');
  });

  it("counts exactly up to 1,000 matches, then reports the planner's estimate", async () => {
    const f = await firm('Counts');
    await t.db.insert(tasks).values(
      Array.from({ length: 1200 }, (_, i) => ({
        orgId: f.org.id,
        title: `Bulk ${i}`,
        priority: i < 1100 ? ('high' as const) : ('low' as const),
      })),
    );
    await t.db.execute(sql`analyze tasks`);
    const high = await f.api.tasks.list.query({ priority: ['high'], pageSize: 5 });
    expect(high.totalCapped).toBe(true);
    expect(high.total).toBeGreaterThan(1000);
    expect(high.rows).toHaveLength(5);
    const low = await f.api.tasks.list.query({ priority: ['low'] });
    expect(low).toMatchObject({ total: 100, totalCapped: false });
  });

  it('mine, team and all', async () => {
    const f = await firm('Views');
    await t.db.insert(clientTeam).values({ orgId: f.org.id, clientId: f.acme.id, memberId: f.owner.id });
    const a = await f.api.tasks.create.mutate({ title: 'Acme VAT', clientId: f.acme.id });
    const b = await f.api.tasks.create.mutate({
      title: 'Bose audit',
      clientId: f.bose.id,
      assigneeIds: [f.owner.id],
    });
    const c = await f.api.tasks.create.mutate({ title: 'Internal' });
    const view = async (v: 'mine' | 'team' | 'all') =>
      (await f.api.tasks.list.query({ view: v, sort: { field: 'title', dir: 'asc' } })).rows.map((r) => r.id);
    expect(await view('mine')).toEqual([b.id]);
    expect(await view('team')).toEqual([a.id]);
    expect(await view('all')).toEqual([a.id, b.id, c.id]);
  });

  it('OVERDUE is "not completed and due before today in the firm\'s time zone"', async () => {
    // Kiritimati is UTC+14: its today is often a day ahead of UTC's.
    const f = await firm('Overdue', 'Pacific/Kiritimati');
    const today = todayIn('Pacific/Kiritimati');
    const yesterday = format(addDays(new Date(`${today}T12:00:00Z`), -1), 'yyyy-MM-dd');
    const late = await f.api.tasks.create.mutate({
      title: 'Late',
      dueDate: yesterday,
      status: 'IN_PROGRESS',
    });
    const dueToday = await f.api.tasks.create.mutate({ title: 'Today', dueDate: today });
    const doneLate = await f.api.tasks.create.mutate({
      title: 'Done late',
      dueDate: yesterday,
      status: 'COMPLETED',
    });
    await f.api.tasks.create.mutate({ title: 'No date' });
    const list = await f.api.tasks.list.query({ status: ['OVERDUE'] });
    expect(list.today).toBe(today);
    expect(list.rows.map((r) => r.id)).toEqual([late.id]);
    expect(list.rows[0]?.displayStatus).toBe('OVERDUE');
    const both = await f.api.tasks.list.query({
      status: ['OVERDUE', 'COMPLETED'],
      sort: { field: 'title', dir: 'asc' },
    });
    expect(both.rows.map((r) => r.id)).toEqual([doneLate.id, late.id]);
    expect((await f.api.tasks.get.query({ taskId: dueToday.id })).displayStatus).toBe('SCHEDULED');
    expect((await f.api.tasks.get.query({ taskId: doneLate.id })).displayStatus).toBe('COMPLETED');
  });
});

describe('a task', () => {
  it('sets completedDate on COMPLETED, clears it on leaving, and enforces the checklist rule when set', async () => {
    const f = await firm('Complete');
    const task = await f.api.tasks.create.mutate({
      title: 'File return',
      checklist: [{ text: 'Collect invoices' }],
    });
    const done = await f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'COMPLETED' });
    expect(done.completedDate).toBeInstanceOf(Date);
    const back = await f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'IN_REVIEW' });
    expect(back.completedDate).toBeNull();
    expect((await f.api.tasks.get.query({ taskId: task.id })).completedDate).toBeNull();

    await f.api.tasks.updateSettings.mutate({ requireChecklistToComplete: true });
    expect(await message(f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'COMPLETED' }))).toBe(
      'Finish the checklist before completing this task: 1 of 1 item is still open',
    );
    expect(await code(f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'COMPLETED' }))).toBe(
      'BAD_REQUEST',
    );
    expect((await f.api.tasks.get.query({ taskId: task.id })).status).toBe('IN_REVIEW');
    expect(
      await code(
        f.api.tasks.bulk.mutate({ ids: [task.id], action: { kind: 'setStatus', status: 'COMPLETED' } }),
      ),
    ).toBe('BAD_REQUEST');
    const item = (await f.api.tasks.get.query({ taskId: task.id })).checklist[0];
    if (!item) throw new Error('no item');
    await f.api.tasks.checklist.toggle.mutate({ taskId: task.id, itemId: item.id, done: true });
    expect(
      (await f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'COMPLETED' })).completedDate,
    ).toBeInstanceOf(Date);
    // Any stored status may move to any other.
    await f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'SCHEDULED' });
    expect((await logOf(f.org.id, 'task.status')).length).toBe(4);
    expect((await logOf(f.org.id, 'org.settings.tasks')).length).toBe(1);
  });

  it("edits fields, keeps the assignees' due date copy in sync, checklist add/toggle/remove, delete", async () => {
    const f = await firm('Edit');
    const [project] = await t.db
      .insert(projects)
      .values({ orgId: f.org.id, clientId: f.bose.id, name: 'Audit 2026' })
      .returning();
    if (!project) throw new Error('seed');
    const task = await f.api.tasks.create.mutate({
      title: 'Reconcile',
      clientId: f.acme.id,
      projectId: project.id,
      dueDate: '2026-03-31',
      assigneeIds: [f.staff.id],
      tags: ['GST', 'gst'],
    });
    let got = await f.api.tasks.get.query({ taskId: task.id });
    // The project decides the client.
    expect(got.client?.id).toBe(f.bose.id);
    expect(got.project?.id).toBe(project.id);
    expect(got.tags).toEqual(['gst']);
    await f.api.tasks.update.mutate({
      taskId: task.id,
      patch: { dueDate: '2026-04-15', priority: 'urgent' },
    });
    const copies = await t.db.select().from(taskAssignees).where(eq(taskAssignees.taskId, task.id));
    expect(copies.map((c) => c.dueDate)).toEqual(['2026-04-15']);
    await f.api.tasks.update.mutate({ taskId: task.id, patch: { assigneeIds: [f.owner.id, f.staff.id] } });
    const added = await t.db.select().from(taskAssignees).where(eq(taskAssignees.taskId, task.id));
    expect(added.map((c) => c.dueDate)).toEqual(['2026-04-15', '2026-04-15']);
    // Another client takes the task out of the project.
    await f.api.tasks.update.mutate({ taskId: task.id, patch: { clientId: f.acme.id } });
    got = await f.api.tasks.get.query({ taskId: task.id });
    expect(got).toMatchObject({
      client: { id: f.acme.id },
      project: null,
      priority: 'urgent',
      dueDate: '2026-04-15',
    });

    const a = await f.api.tasks.checklist.add.mutate({ taskId: task.id, text: 'Bank statements' });
    const b = await f.api.tasks.checklist.add.mutate({ taskId: task.id, text: 'Sales register' });
    expect(b.checklist.map((i) => i.text)).toEqual(['Bank statements', 'Sales register']);
    const first = a.checklist[0];
    if (!first) throw new Error('no item');
    await f.api.tasks.checklist.toggle.mutate({ taskId: task.id, itemId: first.id, done: true });
    const removed = await f.api.tasks.checklist.remove.mutate({ taskId: task.id, itemId: first.id });
    expect(removed.checklist.map((i) => i.text)).toEqual(['Sales register']);
    expect(await code(f.api.tasks.checklist.remove.mutate({ taskId: task.id, itemId: first.id }))).toBe(
      'NOT_FOUND',
    );

    await f.api.tasks.delete.mutate({ taskId: task.id });
    expect(await code(f.api.tasks.get.query({ taskId: task.id }))).toBe('NOT_FOUND');
    const actions = (await logOf(f.org.id, 'task.%')).map((r) => r.action).sort();
    expect(actions).toEqual(
      [
        'task.create',
        'task.update',
        'task.update',
        'task.update',
        'task.checklist.add',
        'task.checklist.add',
        'task.checklist.toggle',
        'task.checklist.remove',
        'task.delete',
      ].sort(),
    );
  });

  it('notifies on assignment, on IN_REVIEW (the reviewer) and on @mentions', async () => {
    const f = await firm('Notify');
    const task = await f.api.tasks.create.mutate({
      title: 'GST March',
      assigneeIds: [f.staff.id, f.owner.id],
      reviewerId: f.staff.id,
    });
    const assigned = await notesOf(f.staff.id, 'task.assigned');
    expect(assigned.map((n) => [n.title, n.link])).toEqual([
      ['Olivia Owner assigned you “GST March”', `/tasks?task=${task.id}`],
    ]);
    // The actor is not notified of their own doing.
    expect(await notesOf(f.owner.id, 'task.assigned')).toEqual([]);
    await f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'IN_REVIEW' });
    expect((await notesOf(f.staff.id, 'task.review')).map((n) => n.title)).toEqual([
      'Olivia Owner sent “GST March” for your review',
    ]);
    const comment = await f.api.tasks.comments.add.mutate({
      taskId: task.id,
      body: '@Sam Staff please check the ITC figures',
      mentions: [f.staff.id],
    });
    expect(comment.mentions).toEqual([f.staff.id]);
    const mentioned = await notesOf(f.staff.id, 'task.mentioned');
    expect(mentioned.map((n) => n.body)).toEqual(['@Sam Staff please check the ITC figures']);
    // A mention removed from the text before sending notifies nobody.
    await f.api.tasks.comments.add.mutate({ taskId: task.id, body: 'never mind', mentions: [f.staff.id] });
    expect(await notesOf(f.staff.id, 'task.mentioned')).toHaveLength(1);
    const comments = await f.api.tasks.comments.list.query({ taskId: task.id });
    expect(comments.map((c) => c.body)).toEqual(['@Sam Staff please check the ITC figures', 'never mind']);
    expect(comments[0]?.authorName).toBe('Olivia Owner');

    // Each notification's mail was queued with its change and goes out by the job queue, once.
    // (The worker sends a batch side by side: the outbox's order is not the changes' order.)
    const mailed = (await t.outbox()).filter((m) => m.to === f.staff.email);
    expect(mailed.map((m) => [m.subject, m.notes.link]).sort()).toEqual([
      ['Olivia Owner assigned you “GST March”', `http://127.0.0.1/tasks?task=${task.id}`],
      ['Olivia Owner mentioned you on “GST March”', `http://127.0.0.1/tasks?task=${task.id}`],
      ['Olivia Owner sent “GST March” for your review', `http://127.0.0.1/tasks?task=${task.id}`],
    ]);
    expect(mailed.find((m) => m.subject.includes('mentioned'))?.text).toContain(
      '@Sam Staff please check the ITC figures',
    );
    expect((await t.outbox()).filter((m) => m.to === f.owner.email)).toEqual([]);
  });

  it('bulk status and assignee changes over the chosen rows', async () => {
    const f = await firm('Bulk');
    const a = await f.api.tasks.create.mutate({ title: 'A', dueDate: '2026-05-01' });
    const b = await f.api.tasks.create.mutate({ title: 'B', status: 'COMPLETED' });
    const ids = [a.id, b.id];
    expect(
      await f.api.tasks.bulk.mutate({ ids, action: { kind: 'setStatus', status: 'COMPLETED' } }),
    ).toEqual({ affected: 1 });
    expect((await f.api.tasks.get.query({ taskId: a.id })).completedDate).toBeInstanceOf(Date);
    expect(await f.api.tasks.bulk.mutate({ ids, action: { kind: 'assign', memberId: f.staff.id } })).toEqual({
      affected: 2,
    });
    const copy = await t.db.select().from(taskAssignees).where(eq(taskAssignees.taskId, a.id));
    expect(copy.map((c) => c.dueDate)).toEqual(['2026-05-01']);
    expect((await notesOf(f.staff.id, 'task.assigned')).map((n) => n.title)).toEqual([
      'Olivia Owner assigned you 2 tasks',
    ]);
    expect(
      await f.api.tasks.bulk.mutate({ ids, action: { kind: 'unassign', memberId: f.staff.id } }),
    ).toEqual({ affected: 2 });
    expect((await logOf(f.org.id, 'task.bulk.%')).map((r) => r.summary)).toEqual([
      'Moved 1 task to COMPLETED',
      'Assigned Sam Staff to 2 tasks',
      'Removed Sam Staff from 2 tasks',
    ]);
  });

  it('rejects bad input with BAD_REQUEST and changes nothing', async () => {
    const f = await firm('Validation');
    expect(await code(f.api.tasks.create.mutate({ title: '   ' }))).toBe('BAD_REQUEST');
    expect(await message(f.api.tasks.create.mutate({ title: 'x', dueDate: '2026-02-30' }))).toContain(
      'This date does not exist',
    );
    expect(await message(f.api.tasks.create.mutate({ title: 'x', forClient: true }))).toBe(
      'A task for the client to do needs a client: choose one',
    );
    expect(await code(f.api.tasks.list.query({ dueFrom: '2026-05-01', dueTo: '2026-04-01' }))).toBe(
      'BAD_REQUEST',
    );
    expect(await code(f.api.tasks.create.mutate({ title: 'x', assigneeIds: [crypto.randomUUID()] }))).toBe(
      'BAD_REQUEST',
    );
    expect(await code(f.api.tasks.comments.add.mutate({ taskId: crypto.randomUUID(), body: '' }))).toBe(
      'BAD_REQUEST',
    );
    expect((await f.api.tasks.list.query({})).total).toBe(0);
  });
});

describe('access', () => {
  it("cross-org: another firm's task answers NOT_FOUND everywhere", async () => {
    const a = await firm('Firm A');
    const b = await firm('Firm B');
    const task = await a.api.tasks.create.mutate({ title: 'Secret', clientId: a.acme.id });
    const ref = { taskId: task.id };
    expect(await code(b.api.tasks.get.query(ref))).toBe('NOT_FOUND');
    expect(await code(b.api.tasks.update.mutate({ ...ref, patch: { title: 'Mine now' } }))).toBe('NOT_FOUND');
    expect(await code(b.api.tasks.setStatus.mutate({ ...ref, status: 'COMPLETED' }))).toBe('NOT_FOUND');
    expect(await code(b.api.tasks.delete.mutate(ref))).toBe('NOT_FOUND');
    expect(await code(b.api.tasks.comments.list.query(ref))).toBe('NOT_FOUND');
    expect(await code(b.api.tasks.checklist.add.mutate({ ...ref, text: 'x' }))).toBe('NOT_FOUND');
    expect(
      await b.api.tasks.bulk.mutate({ ids: [task.id], action: { kind: 'setStatus', status: 'COMPLETED' } }),
    ).toEqual({
      affected: 0,
    });
    // Nor can a task point at another firm's client or member.
    expect(await code(b.api.tasks.create.mutate({ title: 'x', clientId: a.acme.id }))).toBe('NOT_FOUND');
    expect(await code(b.api.tasks.create.mutate({ title: 'x', assigneeIds: [a.owner.id] }))).toBe(
      'BAD_REQUEST',
    );
    expect((await b.api.tasks.list.query({})).total).toBe(0);
    expect((await a.api.tasks.get.query(ref)).title).toBe('Secret');
  });

  it('permissions: FORBIDDEN without the right', async () => {
    const f = await firm('Perms');
    // seedFirm's staff role holds clients.view and tasks.view only.
    const staff = t.client(f.staff.token);
    const task = await f.api.tasks.create.mutate({ title: 'Owner made' });
    expect((await staff.tasks.list.query({})).total).toBe(1);
    expect(await code(staff.tasks.create.mutate({ title: 'x' }))).toBe('FORBIDDEN');
    expect(await code(staff.tasks.setStatus.mutate({ taskId: task.id, status: 'COMPLETED' }))).toBe(
      'FORBIDDEN',
    );
    expect(await code(staff.tasks.delete.mutate({ taskId: task.id }))).toBe('FORBIDDEN');
    expect(await code(staff.tasks.updateSettings.mutate({ requireChecklistToComplete: true }))).toBe(
      'FORBIDDEN',
    );
    expect(await code(t.client().tasks.list.query({}))).toBe('UNAUTHORIZED');
  });

  it("assigned clients only: the seeded Staff role sees its clients' tasks, internal ones and its own", async () => {
    const f = await firm('Assigned');
    const roleMembers = await membersForSeededRoles(t, f);
    const staffMember = roleMembers.find((m) => m.role === 'Staff');
    if (!staffMember) throw new Error('no staff');
    await t.db.insert(clientTeam).values({ orgId: f.org.id, clientId: f.acme.id, memberId: staffMember.id });
    const onAcme = await f.api.tasks.create.mutate({ title: 'Acme work', clientId: f.acme.id });
    const onBose = await f.api.tasks.create.mutate({ title: 'Bose work', clientId: f.bose.id });
    const boseMine = await f.api.tasks.create.mutate({
      title: 'Bose, assigned',
      clientId: f.bose.id,
      assigneeIds: [staffMember.id],
    });
    const internal = await f.api.tasks.create.mutate({ title: 'Internal' });
    const api = t.client(staffMember.token);
    const seen = (await api.tasks.list.query({ sort: { field: 'title', dir: 'asc' } })).rows.map((r) => r.id);
    expect(seen).toEqual([onAcme.id, boseMine.id, internal.id]);
    expect(await code(api.tasks.get.query({ taskId: onBose.id }))).toBe('NOT_FOUND');
    expect(await code(api.tasks.setStatus.mutate({ taskId: onBose.id, status: 'IN_PROGRESS' }))).toBe(
      'NOT_FOUND',
    );
    expect(await code(api.tasks.create.mutate({ title: 'x', clientId: f.bose.id }))).toBe('NOT_FOUND');
    expect(await code(api.tasks.projects.query({ clientId: f.bose.id }))).toBe('NOT_FOUND');
    expect(await api.tasks.projects.query({ clientId: f.acme.id })).toEqual([]);
    expect((await api.tasks.list.query({ clientId: f.bose.id })).rows.map((r) => r.id)).toEqual([
      boseMine.id,
    ]);
    const created = await api.tasks.create.mutate({ title: 'Staff made', clientId: f.acme.id });
    expect((await api.tasks.setStatus.mutate({ taskId: created.id, status: 'IN_PROGRESS' })).status).toBe(
      'IN_PROGRESS',
    );
  });
});
