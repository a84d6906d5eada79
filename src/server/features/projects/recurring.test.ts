import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type TDatabase } from '../../db/client';
import {
  clientServiceAssignees,
  clientServices,
  clients,
  members,
  orgs,
  projectMembers,
  projects,
  projectTemplates,
  roles,
  services,
  systemLog,
  taskAssignees,
  tasks,
  templateTasks,
} from '../../db/schema';
import { createTestDatabase } from '../../test/database';
import { generateRecurringProjects, RECURRING_HORIZON_DAYS } from './recurring';

let database: TDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const now = new Date('2026-03-05T10:00:00Z');

/** A firm with two roles, three members, a template of three blueprints and a monthly service. */
async function seed(name: string, options: { fiscalYearStartMonth?: number; engagements?: number } = {}) {
  const db = database.db;
  const [org] = await db
    .insert(orgs)
    .values({ name, fiscalYearStartMonth: options.fiscalYearStartMonth ?? 1, timeZone: 'Asia/Kolkata' })
    .returning();
  if (!org) throw new Error('no org');
  const [preparer, reviewer] = await db
    .insert(roles)
    .values([
      { orgId: org.id, name: 'Preparer' },
      { orgId: org.id, name: 'Reviewer' },
    ])
    .returning();
  if (!preparer || !reviewer) throw new Error('no roles');
  const [ann, bob, cat] = await db
    .insert(members)
    .values([
      { orgId: org.id, email: `ann-${org.id}@x.test`, firstName: 'Ann', roleId: preparer.id },
      { orgId: org.id, email: `bob-${org.id}@x.test`, firstName: 'Bob', roleId: reviewer.id },
      { orgId: org.id, email: `cat-${org.id}@x.test`, firstName: 'Cat', roleId: preparer.id },
    ])
    .returning();
  if (!ann || !bob || !cat) throw new Error('no members');
  const [template] = await db.insert(projectTemplates).values({ orgId: org.id, name: 'GST' }).returning();
  if (!template) throw new Error('no template');
  await db.insert(templateTasks).values([
    {
      orgId: org.id,
      templateId: template.id,
      position: 1,
      title: 'Collect invoices',
      dueOffsetDays: 5,
      assigneeRoleId: preparer.id,
      checklist: ['Sales', 'Purchases'],
      forClient: true,
      tags: ['docs'],
    },
    {
      orgId: org.id,
      templateId: template.id,
      position: 2,
      title: 'Review',
      dueOffsetDays: 15,
      assigneeRoleId: reviewer.id,
    },
    {
      orgId: org.id,
      templateId: template.id,
      position: 3,
      title: 'File',
      dueOffsetDays: -2,
      assigneeMemberId: cat.id,
    },
  ]);
  const [service] = await db
    .insert(services)
    .values({
      orgId: org.id,
      name: 'GST return',
      code: 'GST',
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 20, monthsAfterPeriod: 1 },
      projectTemplateId: template.id,
    })
    .returning();
  if (!service) throw new Error('no service');
  const clientRows = await db
    .insert(clients)
    .values(
      Array.from({ length: options.engagements ?? 3 }, (_, i) => ({
        orgId: org.id,
        code: `C${i}`,
        name: `Client ${i}`,
      })),
    )
    .returning();
  const engagements = await db
    .insert(clientServices)
    .values(
      clientRows.map((c) => ({
        orgId: org.id,
        clientId: c.id,
        serviceId: service.id,
        startDate: '2026-01-01',
      })),
    )
    .returning();
  await db.insert(clientServiceAssignees).values(
    engagements.flatMap((e) => [
      { orgId: org.id, clientServiceId: e.id, memberId: ann.id },
      { orgId: org.id, clientServiceId: e.id, memberId: bob.id },
    ]),
  );
  return {
    org,
    members: { ann, bob, cat },
    roles: { preparer, reviewer },
    template,
    service,
    clients: clientRows,
    engagements,
  };
}

const projectsOf = (orgId: string) =>
  database.db
    .select()
    .from(projects)
    .where(eq(projects.orgId, orgId))
    .orderBy(asc(projects.clientServiceId), asc(projects.periodKey));

describe('generateRecurringProjects', () => {
  it('creates one project per engagement and period still due, with tasks, members, assignees and a log row', async () => {
    const firm = await seed('Gen & Co', { engagements: 2 });
    const result = await generateRecurringProjects(database.db, {
      orgId: firm.org.id,
      through: '2026-04-05',
      now,
    });
    // On 5 March (Kolkata): February (due 20 March), March and April (starts before 5 April).
    expect(result).toEqual({ projects: 6, tasks: 18 });
    const rows = await projectsOf(firm.org.id);
    expect(rows).toHaveLength(6);
    const first = rows.find(
      (p) => p.clientServiceId === firm.engagements[0]?.id && p.periodKey === '2026-03',
    );
    expect(first).toMatchObject({
      name: 'GST return · Mar 2026',
      periodStart: '2026-03-01',
      periodEnd: '2026-03-31',
      startDate: '2026-03-01',
      dueDate: '2026-04-20',
      status: 'SCHEDULED',
      templateId: firm.template.id,
      serviceId: firm.service.id,
      ownerId: firm.members.ann.id,
    });
    if (!first) throw new Error('no project');
    const keys = rows.filter((p) => p.clientServiceId === firm.engagements[0]?.id).map((p) => p.periodKey);
    expect(keys).toEqual(['2026-02', '2026-03', '2026-04']);

    const memberRows = await database.db
      .select()
      .from(projectMembers)
      .where(eq(projectMembers.projectId, first.id));
    expect(memberRows.map((m) => m.memberId).sort()).toEqual(
      [firm.members.ann.id, firm.members.bob.id].sort(),
    );

    const taskRows = await database.db
      .select()
      .from(tasks)
      .where(eq(tasks.projectId, first.id))
      .orderBy(asc(tasks.position));
    expect(taskRows.map((t) => [t.title, t.dueDate, t.forClient, t.tags, t.clientId])).toEqual([
      ['Collect invoices', '2026-04-05', true, ['docs'], first.clientId],
      ['Review', '2026-04-15', false, [], first.clientId],
      ['File', '2026-03-29', false, [], first.clientId],
    ]);
    expect(taskRows[0]?.checklist.map((c) => [c.text, c.done])).toEqual([
      ['Sales', false],
      ['Purchases', false],
    ]);
    const assignees = await database.db
      .select()
      .from(taskAssignees)
      .where(
        inArray(
          taskAssignees.taskId,
          taskRows.map((t) => t.id),
        ),
      );
    const who = (taskId: string | undefined) =>
      assignees.filter((a) => a.taskId === taskId).map((a) => a.memberId);
    // By role among the engagement's assignees, by member, and the due date copied.
    expect(who(taskRows[0]?.id)).toEqual([firm.members.ann.id]);
    expect(who(taskRows[1]?.id)).toEqual([firm.members.bob.id]);
    expect(who(taskRows[2]?.id)).toEqual([firm.members.cat.id]);
    expect(assignees.find((a) => a.taskId === taskRows[2]?.id)?.dueDate).toBe('2026-03-29');

    const log = await database.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, first.id)));
    expect(log.map((l) => [l.action, l.actorKind])).toEqual([['project.generate', 'system']]);
  });

  it('is a no-op on re-run, and exactly once under two concurrent runs', async () => {
    const firm = await seed('Once & Co', { engagements: 5 });
    const [a, b] = await Promise.all([
      generateRecurringProjects(database.db, { orgId: firm.org.id, through: '2026-04-05', now }),
      generateRecurringProjects(database.db, { orgId: firm.org.id, through: '2026-04-05', now }),
    ]);
    expect((a?.projects ?? 0) + (b?.projects ?? 0)).toBe(15);
    expect((a?.tasks ?? 0) + (b?.tasks ?? 0)).toBe(45);
    expect(
      await generateRecurringProjects(database.db, { orgId: firm.org.id, through: '2026-04-05', now }),
    ).toEqual({
      projects: 0,
      tasks: 0,
    });
    const rows = await projectsOf(firm.org.id);
    expect(rows).toHaveLength(15);
    expect(new Set(rows.map((p) => `${p.clientServiceId}/${p.periodKey}`)).size).toBe(15);
    const taskCount = await database.db.$count(tasks, eq(tasks.orgId, firm.org.id));
    expect(taskCount).toBe(45);
    // A later horizon adds only the new period.
    expect(
      await generateRecurringProjects(database.db, { orgId: firm.org.id, through: '2026-05-01', now }),
    ).toEqual({ projects: 5, tasks: 15 });
  });

  it.runIf(process.env.DATABASE_URL)(
    'is exactly once with two workers on separate connection pools',
    async () => {
      const firm = await seed('Two pools & Co', { engagements: 40 });
      // The test database's name, reached through a second, independent pool.
      const [{ name }] = (
        (await database.db.execute(sql`select current_database() as name`)) as unknown as {
          rows: { name: string }[];
        }
      ).rows as [{ name: string }];
      const url = new URL(process.env.DATABASE_URL as string);
      url.pathname = `/${name}`;
      const other = await openPostgres(url.toString(), { max: 2 });
      try {
        const options = { orgId: firm.org.id, through: '2026-04-05', now };
        const results = await Promise.all([
          generateRecurringProjects(database.db, options),
          generateRecurringProjects(other.db, options),
          generateRecurringProjects(database.db, options),
          generateRecurringProjects(other.db, options),
        ]);
        expect(results.reduce((n, r) => n + r.projects, 0)).toBe(120);
        expect(results.reduce((n, r) => n + r.tasks, 0)).toBe(360);
        expect(await projectsOf(firm.org.id)).toHaveLength(120);
        expect(await database.db.$count(tasks, eq(tasks.orgId, firm.org.id))).toBe(360);
      } finally {
        await other.close();
      }
    },
  );

  it('respects the engagement’s dates, archived clients and services, and templates', async () => {
    const firm = await seed('Rules & Co', { engagements: 4 });
    const [e0, e1, e2, e3] = firm.engagements;
    if (!e0 || !e1 || !e2 || !e3) throw new Error('no engagements');
    await database.db
      .update(clientServices)
      .set({ startDate: '2026-04-02' })
      .where(eq(clientServices.id, e0.id));
    await database.db
      .update(clientServices)
      .set({ endDate: '2026-02-15' })
      .where(eq(clientServices.id, e1.id));
    await database.db.update(clients).set({ archivedAt: new Date() }).where(eq(clients.id, e2.clientId));
    await generateRecurringProjects(database.db, { orgId: firm.org.id, through: '2026-04-05', now });
    const keysOf = async (id: string) =>
      (await projectsOf(firm.org.id)).filter((p) => p.clientServiceId === id).map((p) => p.periodKey);
    expect(await keysOf(e0.id)).toEqual(['2026-04']);
    expect(await keysOf(e1.id)).toEqual(['2026-02']);
    expect(await keysOf(e2.id)).toEqual([]);
    expect(await keysOf(e3.id)).toEqual(['2026-02', '2026-03', '2026-04']);

    const other = await seed('Archived & Co', { engagements: 1 });
    await database.db
      .update(services)
      .set({ archivedAt: new Date() })
      .where(eq(services.id, other.service.id));
    expect(
      await generateRecurringProjects(database.db, { orgId: other.org.id, through: '2026-04-05', now }),
    ).toEqual({
      projects: 0,
      tasks: 0,
    });
    await database.db
      .update(services)
      .set({ archivedAt: null, projectTemplateId: null })
      .where(eq(services.id, other.service.id));
    expect(
      (await generateRecurringProjects(database.db, { orgId: other.org.id, through: '2026-04-05', now }))
        .projects,
    ).toBe(0);
  });

  it('creates a one-time service’s project once, and counts fiscal quarters from the firm’s year start', async () => {
    const firm = await seed('Fiscal & Co', { fiscalYearStartMonth: 4, engagements: 1 });
    await database.db
      .update(services)
      .set({ frequency: 'quarterly', dueDateRule: { dayOfMonth: 31, monthsAfterPeriod: 1 } })
      .where(eq(services.id, firm.service.id));
    await generateRecurringProjects(database.db, { orgId: firm.org.id, through: '2026-04-05', now });
    expect(
      (await projectsOf(firm.org.id)).map((p) => [
        p.periodKey,
        p.name,
        p.periodStart,
        p.periodEnd,
        p.dueDate,
      ]),
    ).toEqual([
      ['2025-Q4', 'GST return · Q4 FY2025-26', '2026-01-01', '2026-03-31', '2026-04-30'],
      ['2026-Q1', 'GST return · Q1 FY2026-27', '2026-04-01', '2026-06-30', '2026-07-31'],
    ]);

    const once = await seed('Once only & Co', { engagements: 2 });
    await database.db
      .update(services)
      .set({ frequency: 'one_time', dueDateRule: { dayOfMonth: 31, monthsAfterPeriod: 1 } })
      .where(eq(services.id, once.service.id));
    await database.db
      .update(clientServices)
      .set({ startDate: '2026-01-10' })
      .where(eq(clientServices.orgId, once.org.id));
    for (let i = 0; i < 2; i++) {
      await generateRecurringProjects(database.db, { orgId: once.org.id, through: '2026-04-05', now });
    }
    expect((await projectsOf(once.org.id)).map((p) => [p.periodKey, p.name, p.dueDate])).toEqual([
      ['once', 'GST return', '2026-02-28'],
      ['once', 'GST return', '2026-02-28'],
    ]);
  });

  it('generates for one engagement only when asked', async () => {
    const firm = await seed('Single & Co', { engagements: 3 });
    const target = firm.engagements[1];
    if (!target) throw new Error('no engagement');
    const result = await generateRecurringProjects(database.db, {
      orgId: firm.org.id,
      engagementId: target.id,
      through: '2026-03-05',
      now,
    });
    expect(result.projects).toBe(2);
    expect(new Set((await projectsOf(firm.org.id)).map((p) => p.clientServiceId))).toEqual(
      new Set([target.id]),
    );
    expect(RECURRING_HORIZON_DAYS).toBeGreaterThanOrEqual(28);
  });
});
