import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clients,
  clientUsers,
  members,
  projectTemplates,
  services,
  systemLog,
  timesheetRates,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const doneOf = (checklist: { steps: { key: string; done: boolean }[] } | null) =>
  Object.fromEntries((checklist?.steps ?? []).map((s) => [s.key, s.done]));

describe('the set-up checklist', () => {
  it('reads each step from the firm’s data, hides once dismissed, and is the firm’s own', async () => {
    const firm = await t.seedFirm('Fresh & Co');
    const other = await t.seedFirm('Other & Co');
    const owner = t.client(firm.owner.token);
    // A firm of one: the seeded staff member is removed, so the team step is still to do.
    await t.db.delete(members).where(eq(members.id, firm.staff.id));

    expect(doneOf(await owner.dashboard.setup.query())).toEqual({
      team: false,
      services: false,
      templates: false,
      clients: false,
      rates: false,
      portal: false,
    });

    await owner.team.invite.mutate({ email: 'nina@fresh.test', roleId: firm.roles.staff.id });
    const orgId = firm.org.id;
    await t.db.insert(services).values({ orgId, name: 'GST return', code: 'GST' });
    await t.db.insert(projectTemplates).values({ orgId, name: 'GST monthly' });
    const [client] = await t.db
      .insert(clients)
      .values({ orgId, code: 'A1', name: 'Aarav Traders' })
      .returning();
    if (!client) throw new Error('client not created');
    expect(doneOf(await owner.dashboard.setup.query())).toEqual({
      team: true,
      services: true,
      templates: true,
      clients: true,
      rates: false,
      portal: false,
    });
    // Another firm's data does not tick this firm's steps.
    await t.db
      .insert(timesheetRates)
      .values({ orgId: other.org.id, kind: 'member', refId: other.owner.id, rate: 100 });
    await t.db.insert(clientUsers).values({ orgId: other.org.id, email: 'x@other.test', name: 'X' });
    expect(doneOf(await owner.dashboard.setup.query())).toMatchObject({ rates: false, portal: false });

    // Only those who set the firm up see it or dismiss it.
    const staffOfOther = t.client(other.staff.token);
    await expect(staffOfOther.dashboard.setup.query()).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    await expect(staffOfOther.dashboard.dismissSetup.mutate()).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });

    await owner.dashboard.dismissSetup.mutate();
    expect(await owner.dashboard.setup.query()).toBeNull();
    const log = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(eq(systemLog.orgId, orgId));
    expect(log.map((l) => l.action)).toContain('org.setup_checklist.dismiss');
    // Dismissed for this firm only.
    expect(await t.client(other.owner.token).dashboard.setup.query()).not.toBeNull();
  });

  it('hides itself once every step is done', async () => {
    const firm = await t.seedFirm('Done & Co');
    const orgId = firm.org.id;
    await t.db.insert(services).values({ orgId, name: 'Audit', code: 'AUD' });
    await t.db.insert(projectTemplates).values({ orgId, name: 'Audit' });
    await t.db.insert(clients).values({ orgId, code: 'B1', name: 'Bela Foods' });
    await t.db.insert(timesheetRates).values({ orgId, kind: 'member', refId: firm.owner.id, rate: 250000 });
    const owner = t.client(firm.owner.token);
    expect(doneOf(await owner.dashboard.setup.query())).toMatchObject({ team: true, portal: false });
    await t.db.insert(clientUsers).values({ orgId, email: 'anita@bela.test', name: 'Anita' });
    expect(await owner.dashboard.setup.query()).toBeNull();
  });
});
