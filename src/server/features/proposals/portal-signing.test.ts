import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientServices, proposalEvents } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeOf } from '../../test/outcome';
import { seedPortalUser } from '../../test/portal';
import { seedPortalWorld } from '../../test/portal-world';

// Signing inside the portal: a portal user who is a signer sees it under "To sign" for the client
// they act for and signs without the mailed code; nobody else (another client, another person)
// reaches it; the trail says it was signed in the portal.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
}, 120_000);
afterAll(() => t?.close());

describe('signing in the portal', () => {
  it('lists what waits on the person, signs in turn without a code, and accepts', async () => {
    const api = w.own.api;
    const service = await api.services.create.mutate({
      name: 'Payroll',
      code: 'PRP',
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 7, monthsAfterPeriod: 1 },
    });
    const cousin = await seedPortalUser(t, {
      orgId: w.firm.org.id,
      clientIds: [w.own.client.id],
      name: 'Ravi',
    });
    const { id } = await api.proposals.create.mutate({
      clientId: w.own.client.id,
      title: 'Payroll letter',
      letterHtml: '<p>Dear {{contact_name}}</p>{{fees}}',
      packages: [
        { name: 'Standard', services: [{ serviceId: service.id, billingMode: 'fixed', fee: '400' }] },
      ],
      expiresOn: '2099-12-31',
      signingOrder: 'sequential',
      signers: [
        { name: 'Priya Mehta', email: w.portal.user.email },
        { name: 'Ravi', email: cousin.user.email },
      ],
    });
    const portal = w.portal.client.clientPortalSigning;
    const ref = { clientId: w.own.client.id, proposalId: id };
    // A draft is not shown.
    expect(await portal.list.query({ clientId: w.own.client.id })).toEqual([]);
    await api.proposals.send.mutate({ proposalId: id });
    expect((await portal.list.query({ clientId: w.own.client.id })).map((r) => r.title)).toEqual([
      'Payroll letter',
    ]);
    // The second signer waits for their turn: listed, but not theirs to sign yet.
    const cousinView = await cousin.client.clientPortalSigning.get.mutate(ref);
    expect(cousinView.myTurn).toBe(false);
    expect(
      await codeOf(
        cousin.client.clientPortalSigning.sign.mutate({
          ...ref,
          packageIndex: 0,
          signature: { kind: 'typed', text: 'Ravi' },
          consent: true,
        }),
      ),
    ).toBe('CONFLICT');
    // Another client of the firm's id, or another firm's client: not found.
    expect(await codeOf(portal.get.mutate({ clientId: w.sibling.client.id, proposalId: id }))).toBe(
      'NOT_FOUND',
    );
    const view = await portal.get.mutate(ref);
    expect(view).toMatchObject({ title: 'Payroll letter', myTurn: true, kind: 'proposal' });
    await portal.sign.mutate({
      ...ref,
      packageIndex: 0,
      signature: { kind: 'typed', text: 'Priya Mehta' },
      consent: true,
    });
    expect(await portal.list.query({ clientId: w.own.client.id })).toEqual([]);
    const done = await cousin.client.clientPortalSigning.sign.mutate({
      ...ref,
      packageIndex: 0,
      signature: { kind: 'typed', text: 'Ravi' },
      consent: true,
    });
    expect(done.done).toBe(true);
    expect((await api.proposals.get.query({ proposalId: id })).status).toBe('accepted');
    const engagements = await t.db
      .select()
      .from(clientServices)
      .where(and(eq(clientServices.clientId, w.own.client.id), eq(clientServices.serviceId, service.id)));
    expect(engagements).toHaveLength(1);
    const events = await t.db.select().from(proposalEvents).where(eq(proposalEvents.proposalId, id));
    expect(events.filter((e) => e.kind === 'signed').map((e) => e.detail)).toEqual([
      expect.stringContaining(`in the client portal, signed in as ${w.portal.user.email}`),
      expect.stringContaining(`in the client portal, signed in as ${cousin.user.email}`),
    ]);
    expect(events.some((e) => e.kind === 'opened' && e.detail === 'In the client portal')).toBe(true);
  });

  it('declines with a reason', async () => {
    const api = w.own.api;
    const service = await api.services.create.mutate({
      name: 'Audit',
      code: 'AUP',
      frequency: 'yearly',
      dueDateRule: { dayOfMonth: 30, monthsAfterPeriod: 6 },
    });
    const { id } = await api.proposals.create.mutate({
      clientId: w.own.client.id,
      title: 'Audit letter',
      letterHtml: '<p>Audit</p>',
      packages: [{ name: 'Audit', services: [{ serviceId: service.id, billingMode: 'hourly' }] }],
      expiresOn: '2099-12-31',
      signers: [{ name: 'Priya Mehta', email: w.portal.user.email }],
    });
    await api.proposals.send.mutate({ proposalId: id });
    await w.portal.client.clientPortalSigning.decline.mutate({
      clientId: w.own.client.id,
      proposalId: id,
      reason: 'We chose another firm',
    });
    const p = await api.proposals.get.query({ proposalId: id });
    expect(p).toMatchObject({ status: 'declined', declineReason: 'We chose another firm' });
  });
});
