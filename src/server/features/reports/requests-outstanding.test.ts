import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRequestTemplateSave } from '../../../domain/requests/schemas';
import { requests, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeOf } from '../../test/outcome';
import { seedPortalUser } from '../../test/portal';
import { seedPortalWorld } from '../../test/portal-world';

// "Requests outstanding" (issue 36, item 7) through the router and the export route: open requests
// by client, by age since sent (0–7, 8–30, 31–60, over 60 days) and by sender; closed, draft and
// another firm's requests never counted.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let sibling: Awaited<ReturnType<typeof seedPortalUser>>;

const SECTIONS: TRequestTemplateSave['sections'] = [
  { title: '', items: [{ key: 'pan', kind: 'short_text', label: 'PAN' }] },
];
const DAY = 86_400_000;

async function request(
  client: 'own' | 'sibling',
  title: string,
  daysAgo: number,
  over: Partial<typeof requests.$inferInsert> = {},
) {
  const c = client === 'own' ? w.own : w.sibling;
  const made = await w.own.api.requests.create.mutate({
    clientId: c.client.id,
    title,
    dueDate: over.dueDate ?? '2099-12-31',
    recipientIds: [client === 'own' ? w.portal.user.id : sibling.user.id],
    sections: SECTIONS,
  });
  await t.db
    .update(requests)
    .set({ sentAt: new Date(Date.now() - daysAgo * DAY - 60_000), ...over })
    .where(eq(requests.id, made.id));
  return made.id;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
  sibling = await seedPortalUser(t, { orgId: w.firm.org.id, clientIds: [w.sibling.client.id] });
  await request('own', 'Bank statements', 3);
  await request('own', 'Form 16', 10, { status: 'in_progress', dueDate: '2020-01-31' });
  await request('own', 'Rent receipts', 45, { status: 'submitted' });
  await request('sibling', 'GST invoices', 90, { status: 'returned', createdBy: w.firm.staff.id });
  await request('sibling', 'Old one', 200, { status: 'complete' });
  await request('sibling', 'Dropped', 5, { status: 'cancelled' });
  await request('sibling', 'Not sent', 0, { status: 'draft' });
  // Another firm's open request.
  const far = await seedPortalUser(t, { orgId: w.otherFirm.org.id, clientIds: [w.far.client.id] });
  await w.far.api.requests.create.mutate({
    clientId: w.far.client.id,
    title: 'Theirs',
    dueDate: '2099-01-31',
    recipientIds: [far.user.id],
    sections: SECTIONS,
  });
}, 120_000);
afterAll(() => t?.close());

describe('requests outstanding', () => {
  it('counts open requests by client and age band, with totals that add up', async () => {
    const r = await w.own.api.reports.requestsOutstanding.query({});
    expect(r.totals).toEqual({
      open: 4,
      waiting: 3,
      overdue: 1,
      week: 1,
      month: 1,
      twoMonths: 1,
      older: 1,
    });
    expect(r.total).toBe(2);
    expect(
      r.rows.map((x) => [
        x.name,
        x.open,
        x.waiting,
        x.overdue,
        x.week,
        x.month,
        x.twoMonths,
        x.older,
        x.oldestDays,
      ]),
    ).toEqual([
      ['Mehta Traders', 3, 2, 1, 1, 1, 1, 0, 45],
      ['Sibling Industries', 1, 1, 0, 0, 0, 0, 1, 90],
    ]);
    // The bands add up to the open count, row by row and in total.
    for (const x of [...r.rows, r.totals]) expect(x.week + x.month + x.twoMonths + x.older).toBe(x.open);
    const oldest = await w.own.api.reports.requestsOutstanding.query({ sort: 'oldest', direction: 'desc' });
    expect(oldest.rows.map((x) => x.name)).toEqual(['Sibling Industries', 'Mehta Traders']);
  });

  it('counts by the member who sent them, and filters by one', async () => {
    const r = await w.own.api.reports.requestsOutstanding.query({});
    expect(r.senders.map((s) => [s.memberId, s.open, s.older])).toEqual([
      [w.firm.owner.id, 3, 0],
      [w.firm.staff.id, 1, 1],
    ]);
    const staffs = await w.own.api.reports.requestsOutstanding.query({ senderId: w.firm.staff.id });
    expect(staffs.totals.open).toBe(1);
    expect(staffs.rows.map((x) => x.name)).toEqual(['Sibling Industries']);
  });

  it('exports one row per open request, oldest first, and logs it', async () => {
    const res = await fetch(`${t.url}/api/reports/requests/export.csv`, {
      headers: { authorization: `Bearer ${w.firm.owner.token}` },
    });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Code,Client,Request,Status,Sent by,Sent on,Days since sent,Age,Due');
    expect(lines.slice(1).map((l) => l.split(',').slice(1, 4).concat(l.split(',').slice(6, 8)))).toEqual([
      ['Sibling Industries', 'GST invoices', 'Returned', '90', 'Over 60 days'],
      ['Mehta Traders', 'Rent receipts', 'Submitted', '45', '31–60 days'],
      ['Mehta Traders', 'Form 16', 'Overdue', '10', '8–30 days'],
      ['Mehta Traders', 'Bank statements', 'Sent', '3', '0–7 days'],
    ]);
    const xlsx = await fetch(`${t.url}/api/reports/requests/export.xlsx`, {
      headers: { authorization: `Bearer ${w.firm.owner.token}` },
    });
    expect([...new Uint8Array(await xlsx.arrayBuffer()).subarray(0, 2)]).toEqual([0x50, 0x4b]);
    const [log] = await t.db
      .select({ summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.action, 'report.export')));
    expect(log?.summary).toMatch(/requests outstanding \(4 rows\)/);
  });

  it('needs the requests right as well as reports, on the screen and the export', async () => {
    // The firm's staff role sees reports but has no requests rights here.
    const staff = t.client(w.firm.staff.token);
    expect(await codeOf(() => staff.reports.requestsOutstanding.query({}))).toBe('FORBIDDEN');
    const res = await fetch(`${t.url}/api/reports/requests/export.csv`, {
      headers: { authorization: `Bearer ${w.firm.staff.token}` },
    });
    expect(res.status).toBe(403);
  });

  it('cross-org: another firm sees only its own request', async () => {
    const r = await w.far.api.reports.requestsOutstanding.query({});
    expect(r.totals.open).toBe(1);
    expect(r.rows.map((x) => x.name)).toEqual(['Far Away Ltd']);
    expect(JSON.stringify(r)).not.toContain('Mehta');
  });
});
