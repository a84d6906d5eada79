import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_CANNOT_DELETE } from '../../../domain/security';
import { idpUsers, members, systemLog } from '../../db/schema';
import { createIdpTestApp, idpCall } from '../../idp/test-helpers';
import { signedUpUser } from '../../test/idp-user';

// Issue 20, item 4: My account → Security. Every identity here is real (signed up over the wire),
// so the tokens and the log rows are the ones the app makes.

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
beforeAll(async () => {
  t = await createIdpTestApp();
});
afterAll(() => t?.close());

const PASSWORD = 'Ledger#2026';
const idp = () => ({ endpoint: t.endpoint, clientId: t.config.idp.clientId, outboxDir: t.outboxDir });

async function subOf(accessToken: string) {
  const user = await idpCall(t.endpoint, 'GetUser', { AccessToken: accessToken });
  return (
    (user.body.UserAttributes as { Name: string; Value: string }[]).find((a) => a.Name === 'sub')?.Value ?? ''
  );
}

const signIn = async (email: string, userAgent = 'SecurityTest/1.0', password = PASSWORD) =>
  idpCall(
    t.endpoint,
    'InitiateAuth',
    {
      ClientId: t.config.idp.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    },
    { 'user-agent': userAgent },
  );

type TResult = {
  AuthenticationResult: {
    AccessToken: string;
    RefreshToken: string;
    NewDeviceMetadata?: { DeviceKey: string; DeviceGroupKey: string };
  };
};

/** A firm whose owner and a member (Mia) are real identities. */
async function firmWithIdentities(tag: string) {
  const ownerTokens = await signedUpUser(idp(), { email: `owner-${tag}@security.test` });
  const firm = await t.ownerWithSub(await subOf(ownerTokens.AccessToken));
  const miaEmail = `mia-${tag}@security.test`;
  const miaTokens = await signedUpUser(idp(), { email: miaEmail, firstName: 'Mia' });
  const miaSub = await subOf(miaTokens.AccessToken);
  await t.db
    .update(members)
    .set({ sub: miaSub, email: miaEmail, firstName: 'Mia', lastName: 'User' })
    .where(eq(members.id, firm.staff.id));
  return { firm, ownerTokens, ownerEmail: `owner-${tag}@security.test`, miaEmail, miaSub };
}

const logOf = (memberId: string, actions: string[]) =>
  t.db
    .select({ action: systemLog.action, summary: systemLog.summary, actor: systemLog.actorMemberId })
    .from(systemLog)
    .where(and(eq(systemLog.recordId, memberId), inArray(systemLog.action, actions)));

describe('recent sign-ins', () => {
  it('lists only the caller’s own sign-ins and failures, newest first, paged on the server', async () => {
    const { firm, ownerTokens, miaEmail, ownerEmail } = await firmWithIdentities('list');
    const other = await firmWithIdentities('list-other');
    expect((await signIn(miaEmail, 'Mozilla/5.0 (Windows NT 10.0) Firefox/121.0')).status).toBe(200);
    expect((await signIn(miaEmail, 'Wrong/1.0', 'Not#theRight1')).status).toBe(400);
    const mia = (await signIn(miaEmail, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0')).body as TResult;
    await signIn(ownerEmail, 'Owner/1.0');
    await signIn(other.miaEmail, 'Elsewhere/1.0');

    const miaClient = t.client(mia.AuthenticationResult.AccessToken);
    const page = await miaClient.security.signIns.query({ page: 1, pageSize: 2 });
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => [r.action, r.userAgent])).toEqual([
      ['member.sign_in', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0'],
      ['member.sign_in_failed', 'Wrong/1.0'],
    ]);
    expect(page.rows[0]?.ip).toBeTruthy();
    const second = await miaClient.security.signIns.query({ page: 2, pageSize: 2 });
    expect(second.rows.map((r) => r.userAgent)).toEqual(['Mozilla/5.0 (Windows NT 10.0) Firefox/121.0']);

    // The owner, who may read the whole system log, still sees only their own here.
    const owner = (await signIn(ownerEmail, 'Owner/2.0')).body as TResult;
    const mine = await t.client(owner.AuthenticationResult.AccessToken).security.signIns.query({});
    expect(mine.rows.map((r) => r.userAgent)).toEqual(['Owner/2.0', 'Owner/1.0']);
    expect(ownerTokens.AccessToken).toBeTruthy();
    expect(firm.org.id).not.toBe(other.firm.org.id);
  });
});

describe('devices', () => {
  it('logs remembering and forgetting a device in the firm', async () => {
    const { firm, miaEmail } = await firmWithIdentities('devices');
    const res = (await signIn(miaEmail)).body as TResult;
    const token = res.AuthenticationResult.AccessToken;
    const key = res.AuthenticationResult.NewDeviceMetadata?.DeviceKey ?? '';
    const confirm = await idpCall(t.endpoint, 'ConfirmDevice', {
      AccessToken: token,
      DeviceKey: key,
      DeviceName: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
      DeviceSecretVerifierConfig: {
        Salt: randomBytes(16).toString('base64'),
        PasswordVerifier: randomBytes(64).toString('base64'),
      },
    });
    expect(confirm.status).toBe(200);
    const listed = await idpCall(t.endpoint, 'ListDevices', { AccessToken: token });
    const attributes = (listed.body.Devices as { DeviceAttributes: { Name: string; Value: string }[] }[])[0]
      ?.DeviceAttributes;
    expect(attributes?.find((a) => a.Name === 'last_ip_used')?.Value).toBeTruthy();

    const remember = { AccessToken: token, DeviceKey: key, DeviceRememberedStatus: 'remembered' };
    expect((await idpCall(t.endpoint, 'UpdateDeviceStatus', remember)).status).toBe(200);
    // The same status again changes nothing and logs nothing.
    expect((await idpCall(t.endpoint, 'UpdateDeviceStatus', remember)).status).toBe(200);
    expect((await idpCall(t.endpoint, 'ForgetDevice', { AccessToken: token, DeviceKey: key })).status).toBe(
      200,
    );
    expect((await idpCall(t.endpoint, 'ForgetDevice', { AccessToken: token, DeviceKey: key })).status).toBe(
      400,
    );

    const rows = await logOf(firm.staff.id, ['member.device_remembered', 'member.device_forgotten']);
    expect(rows.map((r) => r.action).sort()).toEqual(['member.device_forgotten', 'member.device_remembered']);
    expect(rows.every((r) => r.actor === firm.staff.id)).toBe(true);
    expect(rows.find((r) => r.action === 'member.device_forgotten')?.summary).toBe(
      'Mia User (mia-devices@security.test) forgot a device (Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0)',
    );
  });
});

describe('sign out everywhere', () => {
  it('refuses every other session’s tokens afterwards, and is logged', async () => {
    const { firm, miaEmail } = await firmWithIdentities('global');
    const here = (await signIn(miaEmail, 'Here/1.0')).body as TResult;
    const there = (await signIn(miaEmail, 'There/1.0')).body as TResult;
    const elsewhere = t.client(there.AuthenticationResult.AccessToken);
    expect((await elsewhere.security.signIns.query({})).total).toBe(2);

    const out = await idpCall(t.endpoint, 'GlobalSignOut', {
      AccessToken: here.AuthenticationResult.AccessToken,
    });
    expect(out.status).toBe(200);

    await expect(elsewhere.security.signIns.query({})).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
    const refresh = await idpCall(t.endpoint, 'InitiateAuth', {
      ClientId: t.config.idp.clientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: there.AuthenticationResult.RefreshToken },
    });
    expect(refresh.status).toBe(400);
    expect(refresh.body.__type).toBe('NotAuthorizedException');
    expect((await logOf(firm.staff.id, ['member.signed_out_everywhere'])).map((r) => r.summary)).toEqual([
      'Mia User (mia-global@security.test) signed out on every device',
    ]);
  });
});

describe('delete my account', () => {
  it('is refused for the firm’s owner, here and at the identity provider', async () => {
    const { firm, ownerEmail } = await firmWithIdentities('owner');
    const owner = (await signIn(ownerEmail)).body as TResult;
    const client = t.client(owner.AuthenticationResult.AccessToken);
    await expect(client.security.deleteAccount.mutate({ password: PASSWORD })).rejects.toMatchObject({
      message: OWNER_CANNOT_DELETE,
      data: { code: 'FORBIDDEN' },
    });
    const direct = await idpCall(t.endpoint, 'DeleteUser', {
      AccessToken: owner.AuthenticationResult.AccessToken,
    });
    expect(direct.status).toBe(400);
    expect(direct.body).toMatchObject({ __type: 'NotAuthorizedException', message: OWNER_CANNOT_DELETE });
    // Still there, still signed in, still the owner.
    expect((await client.security.signIns.query({})).total).toBe(1);
    const [row] = await t.db.select().from(members).where(eq(members.id, firm.owner.id));
    expect(row).toMatchObject({ status: 'active', isOwner: true });
  });

  it('asks for the password, then deactivates the member (their work stays), removes the identity and logs it', async () => {
    const { firm, miaEmail, miaSub } = await firmWithIdentities('delete');
    const mia = (await signIn(miaEmail)).body as TResult;
    const client = t.client(mia.AuthenticationResult.AccessToken);

    await expect(client.security.deleteAccount.mutate({ password: 'Not#theRight1' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    await expect(client.security.deleteAccount.mutate({ password: '' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    expect(await t.db.select().from(idpUsers).where(eq(idpUsers.id, miaSub))).toHaveLength(1);

    expect(await client.security.deleteAccount.mutate({ password: PASSWORD })).toEqual({ ok: true });

    expect(await t.db.select().from(idpUsers).where(eq(idpUsers.id, miaSub))).toHaveLength(0);
    const [row] = await t.db.select().from(members).where(eq(members.id, firm.staff.id));
    expect(row).toMatchObject({ status: 'disabled', email: miaEmail });
    await expect(client.security.signIns.query({})).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    const again = await signIn(miaEmail);
    expect(again.body.__type).toBe('NotAuthorizedException');
    const logged = await logOf(firm.staff.id, ['member.account_deleted']);
    expect(logged.map((r) => r.summary)).toEqual(['Mia User deleted their account and left the firm']);
  });

  it('does the same when the identity provider’s DeleteUser is called directly', async () => {
    const { firm, miaEmail, miaSub } = await firmWithIdentities('direct');
    const mia = (await signIn(miaEmail)).body as TResult;
    const res = await idpCall(t.endpoint, 'DeleteUser', {
      AccessToken: mia.AuthenticationResult.AccessToken,
    });
    expect(res.status).toBe(200);
    expect(await t.db.select().from(idpUsers).where(eq(idpUsers.id, miaSub))).toHaveLength(0);
    const [row] = await t.db.select().from(members).where(eq(members.id, firm.staff.id));
    expect(row?.status).toBe('disabled');
    expect(await logOf(firm.staff.id, ['member.account_deleted'])).toHaveLength(1);
  });
});
