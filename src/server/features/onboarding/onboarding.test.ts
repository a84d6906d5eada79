import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, orgs, roles } from '../../db/schema';
import { createIdpTestApp } from '../../idp/test-helpers';
import { createTestApp } from '../../test/app';
import { freePort } from '../../test/free-port';
import { signedUpUser } from '../../test/idp-user';

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
beforeAll(async () => {
  t = await createIdpTestApp();
});
afterAll(() => t?.close());

const firm = {
  firmName: 'Rao & Partners',
  firstName: 'Asha',
  lastName: 'Rao',
  country: 'IN',
  timeZone: 'Asia/Kolkata',
  currency: 'INR',
  fiscalYearStartMonth: 4,
};

describe('onboarding', () => {
  it('sends a signed-in person without a firm to onboarding, then makes them its owner', async () => {
    const idp = { endpoint: t.endpoint, clientId: t.config.idp.clientId, outboxDir: t.outboxDir };
    const { AccessToken } = await signedUpUser(idp, { email: 'asha@example.test' });
    const api = t.client(AccessToken);
    await expect(api.profile.me.query()).rejects.toMatchObject({
      data: { code: 'PRECONDITION_FAILED', httpStatus: 412 },
    });

    const { orgId } = await api.onboarding.createFirm.mutate(firm);
    const me = await api.profile.me.query();
    expect(me).toMatchObject({
      fullName: 'Asha Rao',
      email: 'asha@example.test',
      isOwner: true,
      org: { id: orgId, name: 'Rao & Partners', timeZone: 'Asia/Kolkata' },
      role: { name: 'Owner' },
    });
    const seeded = await t.db
      .select({ name: roles.name, limited: roles.assignedClientsOnly })
      .from(roles)
      .where(eq(roles.orgId, orgId));
    expect(seeded.map((r) => r.name).sort()).toEqual(['Admin', 'Manager', 'Owner', 'Staff']);
    expect(seeded.find((r) => r.name === 'Staff')?.limited).toBe(true);

    const log = await api.systemLog.list.query({});
    expect(log.rows).toEqual([
      expect.objectContaining({ action: 'org.create', recordId: orgId, actorName: 'Asha Rao' }),
    ]);

    await expect(api.onboarding.createFirm.mutate({ ...firm, firmName: 'Second' })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
  });

  it('refuses bad input with the field named, creating nothing', async () => {
    const before = await t.db.select({ id: orgs.id }).from(orgs);
    const api = t.client(await t.tokenFor(randomUUID()));
    await expect(
      api.onboarding.createFirm.mutate({ ...firm, timeZone: 'Mars/Olympus', firmName: 'X' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringContaining('Firm name must be at least 2 characters'),
    });
    expect(await t.db.select({ id: orgs.id }).from(orgs)).toHaveLength(before.length);
  });

  it('needs a sign-in', async () => {
    await expect(t.client().onboarding.createFirm.mutate(firm)).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('staff sessions', () => {
  it('reads the access token from the Authorization header only, never from a cookie', async () => {
    const seeded = await t.seedFirm();
    const prefix = `CognitoIdentityServiceProvider.${t.config.idp.clientId}`;
    const res = await fetch(`${t.url}/api/trpc/profile.me?batch=1&input=%7B%7D`, {
      headers: { cookie: `${prefix}.LastAuthUser=u; ${prefix}.u.accessToken=${seeded.owner.token}` },
    });
    expect(res.status).toBe(401);
  });

  it('refuses a deactivated member with FORBIDDEN on the next call', async () => {
    const seeded = await t.seedFirm();
    const api = t.client(seeded.staff.token);
    await expect(api.profile.me.query()).resolves.toMatchObject({ id: seeded.staff.id });
    await t.db.update(members).set({ status: 'disabled' }).where(eq(members.id, seeded.staff.id));
    await expect(api.profile.me.query()).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
  });
});

describe('cross-org', () => {
  it('never shows one firm the other firm’s system log', async () => {
    const a = await t.seedFirm('A');
    const b = await t.seedFirm('B');
    await t.client(a.owner.token).auth.logout.mutate();
    const seenByB = await t.client(b.owner.token).systemLog.list.query({ actorId: a.owner.id });
    expect(seenByB.rows).toEqual([]);
    const seenByA = await t.client(a.owner.token).systemLog.list.query({ actorId: a.owner.id });
    expect(seenByA.rows).toHaveLength(1);
  });
});

describe('pointed at a Cognito pool by configuration alone', () => {
  it('trusts the pool’s tokens, reads the email from the pool, and serves no provider of its own', async () => {
    // An embedded provider on a known port stands in for the pool: it speaks the same protocol.
    const port = await freePort();
    const pool = await createIdpTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` }, { port });
    const product = await createTestApp({
      IDP_MODE: 'cognito',
      IDP_USER_POOL_ID: 'local-1_Practice',
      IDP_CLIENT_ID: 'practiceweb',
      IDP_ISSUER: pool.config.idp.issuer,
      IDP_ENDPOINT: pool.endpoint,
    });
    try {
      const idp = { endpoint: pool.endpoint, clientId: 'practiceweb', outboxDir: pool.outboxDir };
      const { AccessToken } = await signedUpUser(idp, { email: 'ravi@pool.test' });
      const api = product.client(AccessToken);
      await api.onboarding.createFirm.mutate({ ...firm, firmName: 'Pool Firm' });
      expect(await api.profile.me.query()).toMatchObject({
        email: 'ravi@pool.test',
        isVerified: true,
        isOwner: true,
      });
      // A token the pool did not sign is refused.
      await expect(product.client(await t.tokenFor(randomUUID())).profile.me.query()).rejects.toMatchObject({
        data: { code: 'UNAUTHORIZED' },
      });
      expect((await fetch(`${product.url}/api/idp`, { method: 'POST' })).status).toBe(404);
      expect(await (await fetch(`${product.url}/api/config.js`)).text()).toContain('"endpointPath":null');
    } finally {
      await product.close();
      await pool.close();
    }
  });
});
