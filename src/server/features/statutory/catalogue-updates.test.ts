import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../../domain/permissions';
import {
  CATALOGUE_RELEASES,
  catalogueRelease,
  filingsOf,
  type TCatalogueRelease,
} from '../../../domain/statutory/catalogue';
import { orgs, projects, services, systemLog, tasks } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedClient } from '../../test/fixtures';
import { codeAndMessageOf } from '../../test/outcome';
import { acceptCatalogueUpdate, catalogueUpdatePreview } from './catalogue-updates';

// A new release of the statutory catalogue (issue 39): the firm keeps its version until it reviews
// and accepts the change; accepting moves the work and is in the system log.

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const meta = { ip: '127.0.0.1', userAgent: 'test' };

async function firm(name: string) {
  const f = await t.seedFirm(name);
  const api = t.client(f.owner.token);
  const template = await api.projectTemplates.create.mutate({ name: `${name} returns` });
  await api.projectTemplates.blueprints.add.mutate({
    templateId: template.id,
    title: 'File return',
    dueOffsetDays: 18,
  });
  const scope = {
    orgId: f.org.id,
    memberId: f.owner.id,
    isOwner: true,
    permissions: [...ALL_PERMISSIONS],
    assignedClientsOnly: false,
  };
  return { ...f, api, templateId: template.id, scope };
}

describe('a new catalogue release', () => {
  it('leaves the firm on its version until it accepts, previews what changes for it, and logs the accept', async () => {
    const f = await firm('Catalogue release');
    const other = await firm('Other firm');
    const client = await seedClient(t, f.org.id, { name: 'Deductor Pvt Ltd' });
    await f.api.statutory.setRegistrations.mutate({
      clientId: client.id,
      data: { pan: 'AAPFU0939F', tan: 'MUMA12345B' },
    });
    // A firm created before 2026.2 is on 2026.1: the monthly TDS deposit is not in its catalogue.
    const before = await f.api.statutory.catalogue.query();
    expect(before).toMatchObject({ version: '2026.1', pending: '2026.2' });
    expect(before.filings.map((x) => x.code)).not.toContain('IN.TDS.DEPOSIT');
    const gapsBefore = await f.api.statutory.gaps.query({});
    expect(gapsBefore.rows.map((r) => r.filing.code)).not.toContain('IN.TDS.DEPOSIT');

    const preview = await f.api.statutory.catalogueUpdate.query();
    expect(preview).toMatchObject({ current: '2026.1', latest: '2026.2', totals: { projects: 0 } });
    expect(preview.changes).toEqual([
      expect.objectContaining({
        kind: 'added',
        filing: expect.objectContaining({ code: 'IN.TDS.DEPOSIT' }),
        clients: { before: 0, after: 1 },
      }),
    ]);

    // Only the version reviewed, only with services.edit.
    expect(
      await codeAndMessageOf(f.api.statutory.acceptCatalogueUpdate.mutate({ version: '2026.1' })),
    ).toMatch(/^CONFLICT/);
    expect(await codeAndMessageOf(f.api.statutory.acceptCatalogueUpdate.mutate({ version: '' }))).toMatch(
      /^BAD_REQUEST/,
    );
    const staff = t.client(f.staff.token);
    expect(
      await codeAndMessageOf(staff.statutory.acceptCatalogueUpdate.mutate({ version: '2026.2' })),
    ).toMatch(/^FORBIDDEN/);

    expect(await f.api.statutory.acceptCatalogueUpdate.mutate({ version: '2026.2' })).toMatchObject({
      version: '2026.2',
      projects: 0,
    });
    expect(await f.api.statutory.catalogue.query()).toMatchObject({ version: '2026.2', pending: null });
    const gapsAfter = await f.api.statutory.gaps.query({ filingCode: 'IN.TDS.DEPOSIT' });
    expect(gapsAfter.rows.map((r) => [r.clientId, r.filing.code])).toEqual([[client.id, 'IN.TDS.DEPOSIT']]);
    const logs = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'statutory_catalogue.accept')));
    expect(logs).toHaveLength(1);
    expect(logs[0]?.summary).toMatch(
      /^Accepted the statutory catalogue 2026\.2 \(was 2026\.1\): 1 filings added/,
    );
    expect(
      await codeAndMessageOf(f.api.statutory.acceptCatalogueUpdate.mutate({ version: '2026.2' })),
    ).toMatch(/^CONFLICT/);
    // The other firm has not reviewed it: still on its own version.
    expect(await other.api.statutory.catalogue.query()).toMatchObject({
      version: '2026.1',
      pending: '2026.2',
    });
    const [row] = await t.db.select().from(orgs).where(eq(orgs.id, other.org.id));
    expect(row?.statutoryCatalogueVersion).toBe('2026.1');
  });

  it('moves the open projects still on a moved date, updates linked services and unlinks retired filings', async () => {
    const f = await firm('Moved dates');
    const first = catalogueRelease('2026.1');
    const india = first.countries.IN;
    if (!india) throw new Error('no India');
    // A release that moves GSTR-3B (monthly) from the 20th to the 22nd and retires GSTR-9C.
    const moved: TCatalogueRelease = {
      version: 'T.2',
      notes: 'test',
      countries: {
        IN: {
          ...india,
          filings: india.filings
            .filter((x) => x.code !== 'IN.GSTR9C')
            .map((x) =>
              x.code === 'IN.GSTR3B.M' ? { ...x, due: { dayOfMonth: 22, monthsAfterPeriod: 1 } } : x,
            ),
        },
      },
    };
    const releases = [first, moved];
    const svc = await f.api.services.create.mutate({
      name: 'GSTR-3B',
      code: '3B',
      frequency: 'monthly',
      projectTemplateId: f.templateId,
      statutoryFilingCode: 'IN.GSTR3B.M',
    });
    const recon = await f.api.services.create.mutate({
      name: 'Reconciliation',
      code: '9C',
      frequency: 'yearly',
      projectTemplateId: f.templateId,
      statutoryFilingCode: 'IN.GSTR9C',
    });
    const a = await seedClient(t, f.org.id, { name: 'A Traders' });
    const b = await seedClient(t, f.org.id, { name: 'B Traders' });
    for (const c of [a, b]) {
      await f.api.statutory.setRegistrations.mutate({
        clientId: c.id,
        data: { gstin: '27AAPFU0939F1ZV', gstScheme: 'regular', pan: 'AAPFU0939F' },
      });
      await f.api.engagements.create.mutate({ clientId: c.id, serviceId: svc.id, startDate: '2026-04-01' });
    }
    const gst = await t.db
      .select()
      .from(projects)
      .where(and(eq(projects.orgId, f.org.id), eq(projects.serviceId, svc.id)));
    const onTime = gst.filter((p) => p.dueDate?.endsWith('-20'));
    expect(onTime.length).toBeGreaterThan(0);
    // B's first project was moved by hand: it keeps its date.
    const byHand = gst.find((p) => p.clientId === b.id);
    if (!byHand?.dueDate) throw new Error('no project');
    await t.db.update(projects).set({ dueDate: '2026-12-31' }).where(eq(projects.id, byHand.id));
    const toMove = onTime.filter((p) => p.id !== byHand.id);

    const preview = await catalogueUpdatePreview(t.db, f.scope, releases);
    expect(preview).toMatchObject({ current: '2026.1', latest: 'T.2', totals: { projects: toMove.length } });
    expect(preview.changes.map((c) => [c.kind, c.filing.code, c.services.map((s) => s.id)])).toEqual([
      ['changed', 'IN.GSTR3B.M', [svc.id]],
      ['retired', 'IN.GSTR9C', [recon.id]],
    ]);
    expect(preview.projects.map((p) => p.projectId).sort()).toEqual(toMove.map((p) => p.id).sort());
    for (const p of preview.projects) expect(p.newDueDate).toBe(`${p.dueDate.slice(0, 8)}22`);
    const tasksBefore = await t.db.select().from(tasks).where(eq(tasks.orgId, f.org.id));

    const result = await acceptCatalogueUpdate(t.db, f.scope, 'T.2', meta, releases);
    expect(result).toMatchObject({
      version: 'T.2',
      projects: toMove.length,
      servicesUpdated: 1,
      servicesUnlinked: 1,
    });
    const after = await t.db.select().from(projects).where(eq(projects.orgId, f.org.id));
    for (const p of after) {
      if (p.id === byHand.id) expect(p.dueDate).toBe('2026-12-31');
      else if (toMove.some((m) => m.id === p.id)) expect(p.dueDate?.endsWith('-22')).toBe(true);
    }
    // Open tasks moved by the same two days.
    const tasksAfter = await t.db.select().from(tasks).where(eq(tasks.orgId, f.org.id));
    for (const task of tasksAfter.filter((x) => toMove.some((m) => m.id === x.projectId))) {
      const was = tasksBefore.find((x) => x.id === task.id)?.dueDate;
      if (was && task.status !== 'COMPLETED') expect(task.dueDate).not.toBe(was);
    }
    const linked = await t.db.select().from(services).where(eq(services.orgId, f.org.id));
    expect(linked.find((s) => s.id === svc.id)?.dueDateRule).toEqual({
      dayOfMonth: 22,
      monthsAfterPeriod: 1,
    });
    expect(linked.find((s) => s.id === recon.id)?.statutoryFilingCode).toBeNull();
    const logs = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'project.due_extended')));
    expect(logs.map((l) => l.recordId).sort()).toEqual(toMove.map((p) => p.id).sort());
    expect(logs[0]?.summary).toMatch(/\(statutory catalogue T\.2\)$/);
  });

  it('ships releases whose filings keep their codes', () => {
    const codes = CATALOGUE_RELEASES.map((r) => filingsOf(r).map((x) => x.code));
    for (const list of codes) expect(new Set(list).size).toBe(list.length);
  });
});
