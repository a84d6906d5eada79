import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, clientUsers, orgs } from '../db/schema';
import { createTestApp, type TTestApp } from '../test/app';
import { portalClient, seedPortalUser } from '../test/portal';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function seedClient(orgId: string, name: string) {
  const [row] = await t.db
    .insert(clients)
    .values({ orgId, name, code: `C${Math.random().toString().slice(2, 8)}` })
    .returning();
  if (!row) throw new Error('client not created');
  return row;
}

describe('portal sessions', () => {
  it('answers clientPortalProfile.me with the clients the person may act for, across firms', async () => {
    const a = await t.seedFirm('Alpha Accountants');
    const b = await t.seedFirm('Beta Tax');
    await t.db
      .update(orgs)
      .set({ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' })
      .where(eq(orgs.id, a.org.id));
    const zed = await seedClient(a.org.id, 'Zed Traders');
    const acme = await seedClient(a.org.id, 'Acme Foods');
    await seedClient(a.org.id, 'Not Mine Ltd');
    const beta = await seedClient(b.org.id, 'Bravo Holdings');
    const email = `family-${crypto.randomUUID()}@example.test`;
    const first = await seedPortalUser(t, {
      orgId: a.org.id,
      clientIds: [zed.id, acme.id],
      email,
      name: 'Priya',
    });
    await seedPortalUser(t, { orgId: b.org.id, clientIds: [beta.id], email });

    const me = await first.client.clientPortalProfile.me.query();
    expect(me.email).toBe(email);
    expect(me.clients.map((c) => [c.name, c.firm.name])).toEqual([
      ['Acme Foods', 'Alpha Accountants'],
      ['Bravo Holdings', 'Beta Tax'],
      ['Zed Traders', 'Alpha Accountants'],
    ]);
    // Each client's screens write dates and amounts as its own firm does.
    expect(me.clients.map((c) => [c.firm.country, c.firm.timeZone, c.firm.currency])).toEqual([
      ['IN', 'Asia/Kolkata', 'INR'],
      [null, 'UTC', 'USD'],
      ['IN', 'Asia/Kolkata', 'INR'],
    ]);
  });

  it('refuses no cookie, an unknown cookie, a staff token and a disabled user with UNAUTHORIZED', async () => {
    const firm = await t.seedFirm();
    const c = await seedClient(firm.org.id, 'Solo');
    const portal = await seedPortalUser(t, { orgId: firm.org.id, clientIds: [c.id] });
    const unauthorized = { data: { code: 'UNAUTHORIZED', httpStatus: 401 } };
    await expect(portalClient(t).clientPortalProfile.me.query()).rejects.toMatchObject(unauthorized);
    await expect(portalClient(t, 'forged').clientPortalProfile.me.query()).rejects.toMatchObject(
      unauthorized,
    );
    await expect(t.client(firm.owner.token).clientPortalProfile.me.query()).rejects.toMatchObject(
      unauthorized,
    );
    // …and the portal cookie opens no staff procedure.
    await expect(portal.client.profile.me.query()).rejects.toMatchObject(unauthorized);

    await t.db.update(clientUsers).set({ status: 'disabled' }).where(eq(clientUsers.id, portal.user.id));
    await expect(portal.client.clientPortalProfile.me.query()).rejects.toMatchObject(unauthorized);
  });

  it('one firm disabling a person, or removing their last client, leaves another firm’s portal open', async () => {
    const a = await t.seedFirm('Alpha');
    const b = await t.seedFirm('Beta');
    const ca = await seedClient(a.org.id, 'Alpha Client');
    const cb = await seedClient(b.org.id, 'Beta Client');
    const email = `both-${crypto.randomUUID()}@example.test`;
    const inA = await seedPortalUser(t, { orgId: a.org.id, clientIds: [ca.id], email });
    const inB = await seedPortalUser(t, { orgId: b.org.id, clientIds: [cb.id], email });

    await t.client(a.owner.token).clientUsers.disable.mutate({ clientId: ca.id, clientUserId: inA.user.id });
    const me = await inA.client.clientPortalProfile.me.query();
    expect(me.clients.map((c) => c.name)).toEqual(['Beta Client']);

    // Firm B removes the last client: the session reaches nothing, so it is dead.
    await t.client(b.owner.token).clientUsers.remove.mutate({ clientId: cb.id, clientUserId: inB.user.id });
    await expect(inA.client.clientPortalProfile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });
});
