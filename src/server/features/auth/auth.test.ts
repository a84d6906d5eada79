import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdpTestApp, idpCall } from '../../idp/test-helpers';
import { signedUpUser } from '../../test/idp-user';

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
beforeAll(async () => {
  t = await createIdpTestApp();
});
afterAll(() => t?.close());

const firm = {
  firmName: 'Logout & Co',
  firstName: 'Lee',
  lastName: 'Out',
  country: 'GB',
  timeZone: 'Europe/London',
  currency: 'GBP',
  fiscalYearStartMonth: 4,
};

describe('auth.logout', () => {
  it('ends the sign-in on the server: the access and refresh tokens stop working, and it is audited', async () => {
    const idp = { endpoint: t.endpoint, clientId: t.config.idp.clientId, outboxDir: t.outboxDir };
    const first = await signedUpUser(idp, { email: 'lee@out.test' });
    await t.client(first.AccessToken).onboarding.createFirm.mutate(firm);

    await t.client(first.AccessToken).auth.logout.mutate();
    await expect(t.client(first.AccessToken).profile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
    const refresh = await idpCall(t.endpoint, 'InitiateAuth', {
      ClientId: t.config.idp.clientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: first.RefreshToken },
    });
    expect(refresh.body).toMatchObject({
      __type: 'NotAuthorizedException',
      message: 'Refresh Token has been revoked',
    });

    // A new sign-in works and sees the sign-out in the firm's log.
    const again = await idpCall(t.endpoint, 'InitiateAuth', {
      ClientId: t.config.idp.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: 'lee@out.test', PASSWORD: 'Ledger#2026' },
    });
    const token = (again.body as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult
      .AccessToken;
    const log = await t.client(token).systemLog.list.query({ action: 'auth.logout' });
    expect(log.total).toBe(1);
  });

  it('answers a visitor without a session, changing nothing', async () => {
    await expect(t.client().auth.logout.mutate()).resolves.toEqual({ ok: true });
  });
});
