import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../domain/days';
import {
  catalogueRelease,
  FIRST_CATALOGUE_VERSION,
  filingsOf,
  findFiling,
} from '../../../domain/statutory/catalogue';
import { factsOf } from '../../../domain/statutory/registrations';
import { applicableFilings, filingDueDate, filingYear } from '../../../domain/statutory/rules';
import {
  broadcastDeliveries,
  broadcastSuppressions,
  broadcasts,
  clients,
  members,
  orgs,
  projects,
  reminders,
  requests,
  roles,
  systemLog,
  tasks,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { logRows, seedClient } from '../../test/fixtures';
import { codeAndMessageOf } from '../../test/outcome';
import { seedPortalUser } from '../../test/portal';
import { bearer, importUpload } from '../../test/tenancy';
import { generateRecurringProjects } from '../projects';

async function codeOf(call: Promise<unknown>) {
  const [code, ...rest] = (await codeAndMessageOf(call)).split(': ');
  return { code, message: rest.join(': ') };
}

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const GSTIN_MH = '27AAPFU0939F1ZV';
const GSTIN_DL = '07AAACI1681G1ZR';

async function firm(name: string) {
  const f = await t.seedFirm(name);
  const api = t.client(f.owner.token);
  const template = await api.projectTemplates.create.mutate({ name: `${name} returns` });
  await api.projectTemplates.blueprints.add.mutate({
    templateId: template.id,
    title: 'Collect data',
    dueOffsetDays: 5,
  });
  await api.projectTemplates.blueprints.add.mutate({
    templateId: template.id,
    title: 'File return',
    dueOffsetDays: 18,
  });
  return { ...f, api, templateId: template.id };
}

describe('client registrations', () => {
  it('saves checked identifiers, logs the change, and refuses bad ones and another firm’s client', async () => {
    const f = await firm('Registrations');
    const client = await seedClient(t, f.org.id, { name: 'Mehta Traders' });
    expect(await f.api.statutory.registrations.query({ clientId: client.id })).toMatchObject({
      gstin: null,
      pan: null,
    });
    await f.api.statutory.setRegistrations.mutate({
      clientId: client.id,
      data: {
        gstin: GSTIN_MH.toLowerCase(),
        gstScheme: 'qrmp',
        pan: 'AAPFU0939F',
        tan: 'MUMA12345B',
        taxAudit: true,
      },
    });
    expect(await f.api.statutory.registrations.query({ clientId: client.id })).toMatchObject({
      gstin: GSTIN_MH,
      gstScheme: 'qrmp',
      pan: 'AAPFU0939F',
      tan: 'MUMA12345B',
      taxAudit: true,
    });
    const bad = await codeOf(
      f.api.statutory.setRegistrations.mutate({
        clientId: client.id,
        data: { gstin: '27AAPFU0939F1ZW', gstScheme: 'regular' },
      }),
    );
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/check character/);
    const log = await logRows(t, f.org.id, client.id);
    expect(log.map((r) => r.action)).toEqual(['client.registrations']);
    expect(log[0]?.changes).toMatchObject({ gstin: { from: null, to: GSTIN_MH } });

    const other = await firm('Other registrations');
    expect((await codeOf(other.api.statutory.registrations.query({ clientId: client.id }))).code).toBe(
      'NOT_FOUND',
    );
    expect(
      (
        await codeOf(
          other.api.statutory.setRegistrations.mutate({ clientId: client.id, data: { pan: 'AAPFU0939F' } }),
        )
      ).code,
    ).toBe('NOT_FOUND');
  });
});

describe('services linked to a filing', () => {
  it('never make a second project for a period when a firm whose year starts in January links a service', async () => {
    // Issue 39: the firm's fiscal quarters (from January) keyed its projects '2026-Q4' for Oct-Dec;
    // the filing's (from April) call that quarter '2026-Q3' and Jan-Mar 2027 '2026-Q4'.
    const f = await firm('Calendar year');
    await t.db.update(orgs).set({ fiscalYearStartMonth: 1 }).where(eq(orgs.id, f.org.id));
    const client = await seedClient(t, f.org.id);
    const svc = await f.api.services.create.mutate({
      name: 'TDS return',
      code: 'TDSQ',
      frequency: 'quarterly',
      dueDateRule: { dayOfMonth: 7, monthsAfterPeriod: 1 },
      projectTemplateId: f.templateId,
    });
    await f.api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: '2026-01-01',
    });
    const now = new Date('2026-11-29T06:00:00Z');
    await generateRecurringProjects(t.db, { orgId: f.org.id, through: '2026-12-30', now });
    const periodsOf = async () =>
      (
        await t.db
          .select({ key: projects.periodKey, start: projects.periodStart, end: projects.periodEnd })
          .from(projects)
          .where(and(eq(projects.orgId, f.org.id), eq(projects.serviceId, svc.id)))
      )
        .map((p) => `${p.start}..${p.end} ${p.key}`)
        .sort();
    const before = await periodsOf();
    expect(before).toContain('2026-10-01..2026-12-31 2026-Q4');

    await f.api.services.update.mutate({
      serviceId: svc.id,
      name: 'TDS return',
      code: 'TDSQ',
      frequency: 'quarterly',
      projectTemplateId: f.templateId,
      statutoryFilingCode: 'IN.TDS.26Q',
    });
    await generateRecurringProjects(t.db, { orgId: f.org.id, through: '2026-12-30', now });
    await generateRecurringProjects(t.db, {
      orgId: f.org.id,
      through: '2027-01-31',
      now: new Date('2027-01-02T06:00:00Z'),
    });
    const after = await periodsOf();
    const spans = after.map((p) => p.split(' ')[0]);
    expect(new Set(spans).size).toBe(spans.length);
    // The quarter made before the link now carries the filing's key; the next quarter is made.
    expect(after).toContain('2026-10-01..2026-12-31 2026-Q3');
    expect(after).toContain('2027-01-01..2027-03-31 2026-Q4');
  });

  it('give a firm whose year starts in February the filing’s periods, each once, and its gaps by the filing', async () => {
    // Issue 39: the firm's quarters (Feb-Apr, May-Jul, ...) never coincide with the filing's (from
    // April), but the firm's own keys ('2026-Q1' for Feb-Apr 2026) are the filing's keys for other days.
    const f = await firm('February year');
    await t.db.update(orgs).set({ fiscalYearStartMonth: 2 }).where(eq(orgs.id, f.org.id));
    const client = await seedClient(t, f.org.id);
    await f.api.statutory.setRegistrations.mutate({
      clientId: client.id,
      data: { pan: 'AAPFU0939F', tan: 'MUMA12345B' },
    });
    const svc = await f.api.services.create.mutate({
      name: 'TDS return',
      code: 'TDSF',
      frequency: 'quarterly',
      dueDateRule: { dayOfMonth: 7, monthsAfterPeriod: 1 },
      projectTemplateId: f.templateId,
    });
    await f.api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: '2026-02-01',
    });
    await generateRecurringProjects(t.db, {
      orgId: f.org.id,
      through: '2026-06-30',
      now: new Date('2026-06-01T06:00:00Z'),
    });
    const periodsOf = async () =>
      (
        await t.db
          .select({
            key: projects.periodKey,
            start: projects.periodStart,
            end: projects.periodEnd,
            due: projects.dueDate,
          })
          .from(projects)
          .where(and(eq(projects.orgId, f.org.id), eq(projects.serviceId, svc.id)))
      ).sort((a, b) => String(a.start).localeCompare(String(b.start)));
    const before = await periodsOf();
    // The firm's own quarter May-Jul 2026 carries the key the filing gives July-September.
    expect(before.map((p) => `${p.start}..${p.end} ${p.key}`)).toContain('2026-05-01..2026-07-31 2026-Q2');

    await f.api.services.update.mutate({
      serviceId: svc.id,
      name: 'TDS return',
      code: 'TDSF',
      frequency: 'quarterly',
      projectTemplateId: f.templateId,
      statutoryFilingCode: 'IN.TDS.26Q',
    });
    // A year of the filing, generated as the days pass.
    for (const day of ['2026-07-01', '2026-10-01', '2027-01-01', '2027-04-01', '2027-06-01']) {
      await generateRecurringProjects(t.db, {
        orgId: f.org.id,
        through: addDays(day, 30),
        now: new Date(`${day}T06:00:00Z`),
      });
    }
    const after = await periodsOf();
    const keys = after.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    // The firm's May-Jul project is kept, its days under a key no period of the filing uses.
    expect(after.find((p) => p.start === '2026-05-01')).toMatchObject({
      key: '2026-Q2/2026-05-01',
      end: '2026-07-31',
    });
    const filing = findFiling('IN.TDS.26Q');
    if (!filing) throw new Error('no filing');
    // Each quarter of the filing's year 2026 (April 2026 to March 2027): once, its key, its due date.
    for (const o of filingYear(filing, 2026)) {
      const made = after.filter((p) => p.start === o.period.start && p.end === o.period.end);
      expect(
        made.map((p) => [p.key, p.due]),
        o.period.key,
      ).toEqual([[o.period.key, o.due]]);
    }
    // The gaps read the filing's rules: engaged for 26Q, not for 24Q.
    const gaps = await f.api.statutory.gaps.query({});
    const codes = gaps.rows.filter((r) => r.clientId === client.id).map((r) => r.filing.code);
    expect(codes).toContain('IN.TDS.24Q');
    expect(codes).not.toContain('IN.TDS.26Q');
  });

  it('take the filing’s frequency, fiscal quarters and due dates for the projects they generate', async () => {
    const f = await firm('Linked');
    const client = await seedClient(t, f.org.id);
    const svc = await f.api.services.create.mutate({
      name: 'TDS 26Q',
      code: 'TDS26Q',
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 7, monthsAfterPeriod: 1 },
      projectTemplateId: f.templateId,
      statutoryFilingCode: 'IN.TDS.26Q',
    });
    expect(await f.api.services.get.query({ serviceId: svc.id })).toMatchObject({
      frequency: 'quarterly',
      statutoryFilingCode: 'IN.TDS.26Q',
      dueDateRule: { dayOfMonth: 31, monthsAfterPeriod: 1 },
    });
    await f.api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: '2024-04-01',
    });
    const made = await t.db
      .select({ key: projects.periodKey, end: projects.periodEnd, due: projects.dueDate })
      .from(projects)
      .where(eq(projects.orgId, f.org.id));
    expect(made.length).toBeGreaterThan(0);
    const filing = findFiling('IN.TDS.26Q');
    if (!filing) throw new Error('no filing');
    for (const p of made) {
      expect(p.key).toMatch(/^\d{4}-Q[1-4]$/);
      expect(p.due).toBe(filingDueDate(filing, p.end ?? ''));
    }
    const refused = await codeOf(
      f.api.services.create.mutate({
        name: 'X',
        code: 'X',
        frequency: 'monthly',
        statutoryFilingCode: 'IN.NOPE',
      }),
    );
    expect(refused.code).toBe('BAD_REQUEST');
  });
});

describe('what applies, the gaps, and engage for this', () => {
  it('lists each client’s filings and the gaps in one query, the same as the catalogue’s rules', async () => {
    const f = await firm('Gaps');
    const kinds = [
      {
        clientType: 'company' as const,
        data: {
          gstin: GSTIN_MH,
          gstScheme: 'qrmp' as const,
          pan: 'AAPFU0939F',
          tan: 'MUMA12345B',
          cin: 'U74999MH2015PTC123456',
        },
      },
      { clientType: 'individual' as const, data: { pan: 'ABCPD1234E' } },
      {
        clientType: 'partnership' as const,
        data: {
          gstin: GSTIN_DL,
          gstScheme: 'qrmp' as const,
          turnoverBand: 'over_5cr' as const,
          taxAudit: true,
        },
      },
      { clientType: 'llp' as const, data: { llpin: 'AAB-1234', pan: 'AAPFU0939F', transferPricing: true } },
      {
        clientType: 'proprietor' as const,
        data: { gstin: GSTIN_MH, gstScheme: 'composition' as const, tan: 'MUMA12345B', collectsTcs: true },
      },
    ];
    const expected: string[] = [];
    for (const [i, k] of kinds.entries()) {
      const c = await f.api.clients.create.mutate({
        code: `G${i}`,
        name: `Gap client ${i}`,
        type: k.clientType,
      });
      await f.api.statutory.setRegistrations.mutate({ clientId: c.id, data: k.data });
      const { ZRegistrations } = await import('../../../domain/statutory/registrations');
      const facts = factsOf(k.clientType, ZRegistrations.parse(k.data));
      // The test firm is on the first catalogue version (it has not accepted a newer one).
      for (const filing of applicableFilings(facts, filingsOf(catalogueRelease(FIRST_CATALOGUE_VERSION))))
        expected.push(`Gap client ${i}|${filing.code}`);
    }
    const gaps = await f.api.statutory.gaps.query({ pageSize: 200 });
    expect(gaps.rows.map((r) => `${r.clientName}|${r.filing.code}`).sort()).toEqual(expected.sort());
    expect(gaps.total).toBe(expected.length);
    expect(gaps.rows.every((r) => r.service === null)).toBe(true);

    // A service linked to GSTR-3B (22nd) and "engage for this": the gap closes, projects appear.
    const svc = await f.api.services.create.mutate({
      name: 'GSTR-3B quarterly',
      code: '3BQ',
      frequency: 'quarterly',
      projectTemplateId: f.templateId,
      statutoryFilingCode: 'IN.GSTR3B.Q.A',
      defaultFee: '1500',
    });
    const only = await f.api.statutory.gaps.query({ filingCode: 'IN.GSTR3B.Q.A' });
    expect(only.rows.map((r) => [r.clientName, r.service?.id])).toEqual([['Gap client 0', svc.id]]);
    // The service's compliance grid lists who must make its filing and is not engaged, marked so.
    const grid = await f.api.reports.complianceGrid.query({
      from: '2026-04-01',
      to: '2027-03-31',
      serviceId: svc.id,
    });
    expect(grid.rows.map((r) => [r.name, r.gap])).toEqual([['Gap client 0', true]]);
    expect(grid.rows[0]?.cells.every((c) => c.state === 'not_engaged')).toBe(true);
    const first = only.rows[0];
    if (!first) throw new Error('no gap');
    const unlinked = await codeOf(
      f.api.statutory.engage.mutate({
        items: [{ clientId: first.clientId, filingCode: 'IN.TDS.26Q' }],
        startDate: '2026-04-01',
      }),
    );
    expect(unlinked).toMatchObject({ code: 'BAD_REQUEST' });
    expect(unlinked.message).toMatch(/Link one of your services/);
    const engaged = await f.api.statutory.engage.mutate({
      items: [{ clientId: first.clientId, filingCode: 'IN.GSTR3B.Q.A' }],
      startDate: '2026-04-01',
    });
    expect(engaged).toEqual({ created: 1, skipped: 0 });
    expect((await f.api.statutory.gaps.query({ filingCode: 'IN.GSTR3B.Q.A' })).total).toBe(0);
    const engagedGrid = await f.api.reports.complianceGrid.query({
      from: '2026-04-01',
      to: '2027-03-31',
      serviceId: svc.id,
    });
    expect(engagedGrid.rows.map((r) => [r.name, r.gap])).toEqual([['Gap client 0', false]]);
    const filings = await f.api.statutory.clientFilings.query({ clientId: first.clientId });
    const row = filings.filings.find((x) => x.code === 'IN.GSTR3B.Q.A');
    expect(row).toMatchObject({ gap: false, engaged: [{ id: svc.id }] });
    expect(filings.filings.find((x) => x.code === 'IN.TDS.26Q')).toMatchObject({ gap: true });
    expect(row?.nextDue?.due).toMatch(/^\d{4}-\d{2}-22$/);
    const again = await f.api.statutory.engage.mutate({
      items: [{ clientId: first.clientId, filingCode: 'IN.GSTR3B.Q.A' }],
      startDate: '2026-04-01',
    });
    expect(again).toEqual({ created: 0, skipped: 1 });
    const log = await logRows(t, f.org.id, first.clientId);
    expect(log.map((r) => r.action)).toContain('engagement.create');

    const other = await firm('Other gaps');
    expect((await other.api.statutory.gaps.query({})).total).toBe(0);
    expect(
      (
        await codeOf(
          other.api.statutory.engage.mutate({
            items: [{ clientId: first.clientId, filingCode: 'IN.GSTR3B.Q.A' }],
            startDate: '2026-04-01',
          }),
        )
      ).code,
    ).toBe('NOT_FOUND');
  });
});

describe('extensions', () => {
  it('previews and moves exactly the projects of the filing, period and state, with tasks, reminders and requests', async () => {
    const f = await firm('Extensions');
    const svc = await f.api.services.create.mutate({
      name: 'GSTR-3B',
      code: '3B',
      frequency: 'monthly',
      projectTemplateId: f.templateId,
      statutoryFilingCode: 'IN.GSTR3B.M',
    });
    const other = await f.api.services.create.mutate({
      name: 'Bookkeeping',
      code: 'BK',
      frequency: 'monthly',
      projectTemplateId: f.templateId,
    });
    const mumbai = await seedClient(t, f.org.id, { name: 'Mumbai client' });
    const delhi = await seedClient(t, f.org.id, { name: 'Delhi client' });
    await f.api.statutory.setRegistrations.mutate({
      clientId: mumbai.id,
      data: { gstin: GSTIN_MH, gstScheme: 'regular' },
    });
    await f.api.statutory.setRegistrations.mutate({
      clientId: delhi.id,
      data: { gstin: GSTIN_DL, gstScheme: 'regular' },
    });
    for (const c of [mumbai, delhi]) {
      await f.api.engagements.create.mutate({ clientId: c.id, serviceId: svc.id, startDate: '2024-04-01' });
      await f.api.engagements.create.mutate({ clientId: c.id, serviceId: other.id, startDate: '2024-04-01' });
    }
    const gst = await t.db
      .select()
      .from(projects)
      .where(and(eq(projects.orgId, f.org.id), eq(projects.serviceId, svc.id)));
    const target = gst.find((p) => p.clientId === mumbai.id);
    if (!target?.periodKey || !target.dueDate) throw new Error('no project');
    const period = target.periodKey;
    const newDue = addDays(target.dueDate, 7);
    // A reminder and a request tied to the Mumbai project.
    await t.db.insert(reminders).values({
      orgId: f.org.id,
      type: 'team',
      title: 'File 3B',
      projectId: target.id,
      remindAt: new Date(`${target.dueDate}T04:30:00Z`),
      anchorAt: new Date(`${target.dueDate}T04:30:00Z`),
    });
    const [req] = await t.db
      .insert(requests)
      .values({
        orgId: f.org.id,
        clientId: mumbai.id,
        title: 'Sales register',
        dueDate: target.dueDate,
        projectId: target.id,
        status: 'sent',
      })
      .returning();

    const early = await codeOf(
      f.api.statutory.createExtension.mutate({
        filingCode: 'IN.GSTR3B.M',
        periodKey: period,
        dueDate: target.dueDate,
      }),
    );
    expect(early.code).toBe('BAD_REQUEST');
    const ext = await f.api.statutory.createExtension.mutate({
      filingCode: 'IN.GSTR3B.M',
      periodKey: period,
      stateCode: '27',
      dueDate: newDue,
      note: 'CBIC notification',
    });
    const preview = await f.api.statutory.previewExtension.query({ extensionId: ext.id });
    expect(
      preview.rows.map((r) => [r.projectId, r.dueDate, r.newDueDate, r.tasks, r.reminders, r.requests]),
    ).toEqual([[target.id, target.dueDate, newDue, 2, 1, 1]]);
    expect(preview.totals).toEqual({ projects: 1, tasks: 2, reminders: 1, requests: 1 });
    const tasksBefore = await t.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.orgId, f.org.id), eq(tasks.projectId, target.id)));

    const moved = await f.api.statutory.applyExtension.mutate({ extensionId: ext.id });
    expect(moved).toEqual({ projects: 1, tasks: 2, reminders: 1, requests: 1, clients: 1 });
    const after = await t.db.select().from(projects).where(eq(projects.orgId, f.org.id));
    for (const p of after) {
      const before = [...gst].find((g) => g.id === p.id);
      if (p.id === target.id) expect(p.dueDate).toBe(newDue);
      else if (before) expect(p.dueDate).toBe(before.dueDate);
    }
    const tasksAfter = await t.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.orgId, f.org.id), eq(tasks.projectId, target.id)));
    for (const task of tasksAfter) {
      const was = tasksBefore.find((x) => x.id === task.id)?.dueDate;
      expect(task.dueDate).toBe(addDays(was ?? '', 7));
    }
    const [reminder] = await t.db.select().from(reminders).where(eq(reminders.projectId, target.id));
    expect(reminder?.remindAt.toISOString()).toBe(`${newDue}T04:30:00.000Z`);
    const [reqAfter] = await t.db
      .select()
      .from(requests)
      .where(eq(requests.id, req?.id ?? ''));
    expect(reqAfter?.dueDate).toBe(newDue);
    expect((await codeOf(f.api.statutory.applyExtension.mutate({ extensionId: ext.id }))).code).toBe(
      'CONFLICT',
    );
    const logs = await t.db.select().from(systemLog).where(eq(systemLog.orgId, f.org.id));
    expect(logs.filter((l) => l.action === 'project.due_extended').map((l) => l.recordId)).toEqual([
      target.id,
    ]);
    expect(
      logs
        .filter((l) => l.action.startsWith('filing_extension'))
        .map((l) => l.action)
        .sort(),
    ).toEqual(['filing_extension.apply', 'filing_extension.create']);
    // A client engaged after the extension was applied gets the period's project at the new date,
    // its tasks moved the same 7 days.
    const late = await seedClient(t, f.org.id, { name: 'Late Mumbai client' });
    await f.api.statutory.setRegistrations.mutate({
      clientId: late.id,
      data: { gstin: GSTIN_MH, gstScheme: 'regular' },
    });
    await f.api.engagements.create.mutate({ clientId: late.id, serviceId: svc.id, startDate: '2024-04-01' });
    const [lateProject] = await t.db
      .select()
      .from(projects)
      .where(and(eq(projects.clientId, late.id), eq(projects.periodKey, period)));
    expect(lateProject?.dueDate).toBe(newDue);
    const lateTasks = await t.db
      .select()
      .from(tasks)
      .where(eq(tasks.projectId, lateProject?.id ?? ''));
    expect(lateTasks.map((x) => x.dueDate).sort()).toEqual(tasksAfter.map((x) => x.dueDate).sort());
    const list = await f.api.statutory.extensions.query();
    expect(list[0]).toMatchObject({ id: ext.id, projectsMoved: 1, stateLabel: 'Maharashtra (27)' });

    const stranger = await firm('Stranger');
    expect((await codeOf(stranger.api.statutory.previewExtension.query({ extensionId: ext.id }))).code).toBe(
      'NOT_FOUND',
    );
    expect((await codeOf(stranger.api.statutory.applyExtension.mutate({ extensionId: ext.id }))).code).toBe(
      'NOT_FOUND',
    );
  });
});

describe('telling the affected clients', () => {
  it('applies an extension with a broadcast to exactly the clients whose projects moved, by the broadcasts’ rules', async () => {
    const f = await firm('Extension notice');
    const svc = await f.api.services.create.mutate({
      name: 'GSTR-3B',
      code: '3B',
      frequency: 'monthly',
      projectTemplateId: f.templateId,
      statutoryFilingCode: 'IN.GSTR3B.M',
    });
    const u = Math.random().toString(36).slice(2, 8);
    const mk = async (name: string, email: string | null, gstin: string) => {
      const c = await seedClient(t, f.org.id, { name });
      await t.db.update(clients).set({ email }).where(eq(clients.id, c.id));
      await f.api.statutory.setRegistrations.mutate({
        clientId: c.id,
        data: { gstin, gstScheme: 'regular' },
      });
      await f.api.engagements.create.mutate({ clientId: c.id, serviceId: svc.id, startDate: '2024-04-01' });
      return c;
    };
    const reaches = await mk('Reaches', `reaches-${u}@example.test`, GSTIN_MH);
    const gone = await mk('Unsubscribed', `gone-${u}@example.test`, GSTIN_MH);
    const silent = await mk('No email', null, GSTIN_MH);
    const elsewhere = await mk('Delhi', `delhi-${u}@example.test`, GSTIN_DL);
    await t.db
      .insert(broadcastSuppressions)
      .values({ orgId: f.org.id, email: `gone-${u}@example.test`, reason: 'unsubscribed' });
    const [target] = await t.db
      .select()
      .from(projects)
      .where(and(eq(projects.orgId, f.org.id), eq(projects.clientId, reaches.id)))
      .orderBy(projects.dueDate);
    if (!target?.periodKey || !target.dueDate) throw new Error('no project');
    const ext = await f.api.statutory.createExtension.mutate({
      filingCode: 'IN.GSTR3B.M',
      periodKey: target.periodKey,
      stateCode: '27',
      dueDate: addDays(target.dueDate, 5),
    });
    const preview = await f.api.statutory.previewExtension.query({ extensionId: ext.id });
    expect(preview.notice.subject).toContain('GSTR-3B');
    expect(preview.notice.bodyHtml).toContain(preview.extension.periodLabel);

    // Another firm's template is not one to choose; bad placeholders are refused before anything moves.
    const bad = await codeOf(
      f.api.statutory.applyExtension.mutate({
        extensionId: ext.id,
        notice: { subject: '{{nope}}', bodyHtml: '<p>x</p>' },
      }),
    );
    expect(bad.code).toBe('BAD_REQUEST');
    expect(
      (await f.api.statutory.previewExtension.query({ extensionId: ext.id })).extension.appliedAt,
    ).toBeNull();

    const moved = await f.api.statutory.applyExtension.mutate({
      extensionId: ext.id,
      notice: preview.notice,
    });
    expect(moved).toMatchObject({ projects: 3, clients: 3, notSent: null });
    if (!moved.broadcast) throw new Error('no broadcast');
    expect(moved.broadcast.recipients).toBe(1);
    const deliveries = await t.db
      .select({ clientId: broadcastDeliveries.clientId, state: broadcastDeliveries.state })
      .from(broadcastDeliveries)
      .where(eq(broadcastDeliveries.broadcastId, moved.broadcast.id));
    expect(deliveries).toEqual([{ clientId: reaches.id, state: 'queued' }]);
    const [b] = await t.db.select().from(broadcasts).where(eq(broadcasts.id, moved.broadcast.id));
    expect(b?.audience.clientIds?.sort()).toEqual([reaches.id, gone.id, silent.id].sort());
    expect(b?.audience.clientIds).not.toContain(elsewhere.id);
    expect(b?.name).toContain('GSTR-3B');
    const log = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.recordId, moved.broadcast.id)));
    expect(log.map((r) => r.action)).toEqual(['broadcast.created']);
    // The broadcast's preview of who is left out says why, by the broadcasts feature's rules.
    const summary = await f.api.broadcasts.audience.query({ audience: b?.audience ?? {}, mode: 'client' });
    expect(summary.excluded).toMatchObject({ no_email: 1, unsubscribed: 1 });

    // Nobody to tell: the extension still applies and the answer says why nothing was sent.
    const [dl] = await t.db
      .select()
      .from(projects)
      .where(
        and(
          eq(projects.orgId, f.org.id),
          eq(projects.clientId, silent.id),
          eq(projects.periodKey, target.periodKey),
        ),
      );
    const onlySilent = await f.api.statutory.createExtension.mutate({
      filingCode: 'IN.GSTR3B.M',
      periodKey: target.periodKey,
      dueDate: addDays(dl?.dueDate ?? target.dueDate, 10),
    });
    await t.db.update(clients).set({ email: null }).where(eq(clients.id, elsewhere.id));
    await t.db.update(clients).set({ email: null }).where(eq(clients.id, reaches.id));
    const quiet = await f.api.statutory.applyExtension.mutate({
      extensionId: onlySilent.id,
      notice: preview.notice,
    });
    expect(quiet).toMatchObject({ projects: 4, broadcast: null });
    expect(quiet.notSent).toMatch(/Nobody to send it to/);

    // Telling clients needs the right to send broadcasts, besides the right to apply.
    const [role] = await t.db
      .insert(roles)
      .values({ orgId: f.org.id, name: 'Calendar keeper', permissions: ['services.view', 'services.edit'] })
      .returning();
    const sub = randomUUID();
    await t.db.insert(members).values({
      orgId: f.org.id,
      sub,
      email: `keeper-${sub}@example.test`,
      firstName: 'Calendar',
      lastName: 'Keeper',
      roleId: role?.id ?? '',
      isVerified: true,
    });
    const keeper = t.client(await t.tokenFor(sub));
    const third = await f.api.statutory.createExtension.mutate({
      filingCode: 'IN.GSTR3B.M',
      periodKey: target.periodKey,
      dueDate: addDays(dl?.dueDate ?? target.dueDate, 12),
    });
    const refused = await codeOf(
      keeper.statutory.applyExtension.mutate({ extensionId: third.id, notice: preview.notice }),
    );
    expect(refused.code).toBe('FORBIDDEN');
    expect(await keeper.statutory.applyExtension.mutate({ extensionId: third.id })).toMatchObject({
      projects: 4,
    });
  });
});

describe('registrations in the client import and export', () => {
  it('imports registrations from a CSV and exports them back in the same columns', async () => {
    const f = await firm('Import registrations');
    const csv = [
      'Code,Name,Type,Country,PAN,GSTIN,GST scheme,TAN,CIN,Tax audit',
      'IMP1,Andheri Textiles Pvt Ltd,Company,IN,AAPFU0939F,27AAPFU0939F1ZV,QRMP,MUMA12345B,U74999MH2015PTC123456,Yes',
      'IMP2,Bad Scheme Traders,Proprietor,IN,,,QRMP,,,',
      'IMP3,Plain Person,Individual,IN,ABCPD1234E,,,,,',
    ].join('\r\n');
    const res = await importUpload(t, bearer(f.owner.token), csv);
    const body = (await res.json()) as { importId: string };
    expect(res.status).toBe(200);
    for (let i = 0; i < 10; i++) {
      const s = await f.api.clients.import.step.mutate({ importId: body.importId });
      if (s.status === 'done') break;
    }
    const rows = await f.api.clients.import.rows.query({ importId: body.importId });
    expect(rows.rows.map((r) => [r.rowNo, r.status])).toEqual([
      [2, 'imported'],
      [3, 'error'],
      [4, 'imported'],
    ]);
    const list = await f.api.clients.list.query({ search: 'Andheri' });
    const id = list.rows[0]?.id ?? '';
    expect(await f.api.statutory.registrations.query({ clientId: id })).toMatchObject({
      gstin: '27AAPFU0939F1ZV',
      gstScheme: 'qrmp',
      tan: 'MUMA12345B',
      cin: 'U74999MH2015PTC123456',
      taxAudit: true,
    });
    const exported = await fetch(`${t.url}/api/clients/export.csv?sort=code`, {
      headers: bearer(f.owner.token),
    });
    const text = await exported.text();
    const [header, first] = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    expect(header).toContain('GST scheme,Turnover band,CIN,LLPIN,Tax audit,Transfer pricing,Collects TCS');
    expect(first).toContain('QRMP,,U74999MH2015PTC123456,,Yes,,');
  });
});

describe('the client’s filing calendar in the portal', () => {
  it('lists the year’s filings with their status, what the client must send, and only its own', async () => {
    const f = await firm('Portal calendar');
    const template = await f.api.projectTemplates.create.mutate({ name: 'TDS quarter' });
    await f.api.projectTemplates.blueprints.add.mutate({
      templateId: template.id,
      title: 'Send the salary register',
      dueOffsetDays: 5,
      forClient: true,
    });
    const svc = await f.api.services.create.mutate({
      name: 'TDS 24Q',
      code: '24Q',
      frequency: 'quarterly',
      projectTemplateId: template.id,
      statutoryFilingCode: 'IN.TDS.24Q',
    });
    const client = await seedClient(t, f.org.id, { name: 'Portal Co' });
    const other = await seedClient(t, f.org.id, { name: 'Someone else' });
    await f.api.statutory.setRegistrations.mutate({
      clientId: client.id,
      data: { tan: 'MUMA12345B', pan: 'AAPFU0939F' },
    });
    await f.api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: '2024-04-01',
    });
    const [made] = await t.db
      .select()
      .from(projects)
      .where(eq(projects.clientId, client.id))
      .orderBy(projects.periodStart);
    if (!made?.periodStart) throw new Error('no project');
    const year = Number(made.periodStart.slice(0, 4)) - (Number(made.periodStart.slice(5, 7)) < 4 ? 1 : 0);
    const portal = await seedPortalUser(t, { orgId: f.org.id, clientIds: [client.id] });
    const cal = await portal.client.clientPortalCalendar.get.query({ clientId: client.id, year });
    expect(cal.year).toBe(year);
    expect(cal.label).toBe(`FY ${year}-${String((year + 1) % 100).padStart(2, '0')}`);
    // 24Q and 26Q four times, advance tax four times, the ITR once.
    expect(cal.rows.filter((r) => r.form === '24Q')).toHaveLength(4);
    expect(cal.rows.filter((r) => r.form === 'ITR')).toHaveLength(1);
    const mine = cal.rows.find((r) => r.key === `IN.TDS.24Q|${made.periodKey}`);
    expect(mine).toMatchObject({
      status: 'waiting_on_you',
      waiting: ['Send the salary register'],
      due: made.dueDate,
    });
    // 26Q has no engagement: due when its date is ahead, "past" (not overdue) when it has gone by.
    for (const r of cal.rows.filter((x) => x.form === '26Q')) {
      expect(r).toMatchObject({ status: r.due < cal.today ? 'past' : 'due', overdue: false });
    }
    await t.db.update(projects).set({ status: 'COMPLETED' }).where(eq(projects.id, made.id));
    const after = await portal.client.clientPortalCalendar.get.query({ clientId: client.id, year });
    expect(after.rows.find((r) => r.key === `IN.TDS.24Q|${made.periodKey}`)?.status).toBe('filed');
    expect((await codeOf(portal.client.clientPortalCalendar.get.query({ clientId: other.id }))).code).toBe(
      'NOT_FOUND',
    );
  });
});
