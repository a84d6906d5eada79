import { Amplify } from 'aws-amplify';
import {
  autoSignIn,
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  confirmUserAttribute,
  deleteUser,
  deleteUserAttributes,
  fetchAuthSession,
  fetchDevices,
  fetchMFAPreference,
  fetchUserAttributes,
  forgetDevice,
  getCurrentUser,
  rememberDevice,
  resendSignUpCode,
  resetPassword,
  sendUserAttributeVerificationCode,
  setUpTOTP,
  signIn,
  signOut,
  signUp,
  updateMFAPreference,
  updatePassword,
  updateUserAttributes,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { eq, inArray } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeAuthLinkKey } from '../../domain/auth-links';
import { OWNER_CANNOT_DELETE } from '../../domain/security';
import { idpDevices, idpUsers, members, systemLog } from '../db/schema';
import { createIdpTestApp } from './test-helpers';

// The real aws-amplify v6 Auth client against the embedded identity provider. Sign-in state is
// module-level in Amplify: this file drives one user from sign-up to deletion, in order.

// Amplify names a remembered device after navigator.userAgent: Node 21 and later have a navigator
// of their own ("Node.js/24"), Node 20 none, so the test gives one where it is missing.
(globalThis as { navigator?: unknown }).navigator ??= { userAgent: 'test' };
const deviceName = (globalThis as unknown as { navigator: { userAgent: string } }).navigator.userAgent;

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
const email = 'ada@example.test';
let password = 'Correct-Horse-1';
let sub = '';

const accessToken = async () => (await fetchAuthSession()).tokens?.accessToken?.toString() ?? '';

beforeAll(async () => {
  t = await createIdpTestApp();
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: t.config.idp.userPoolId,
        userPoolClientId: t.config.idp.clientId,
        userPoolEndpoint: t.endpoint,
      },
    },
  });
});
afterAll(async () => {
  await signOut().catch(() => {});
  await t?.close();
});

describe('aws-amplify against the embedded identity provider', () => {
  it('signs up, confirms with the mailed code and signs in automatically', async () => {
    const up = await signUp({
      username: email,
      password,
      options: { userAttributes: { email, given_name: 'Ada', family_name: 'Lovelace' }, autoSignIn: true },
    });
    expect(up.isSignUpComplete).toBe(false);
    expect(up.nextStep.signUpStep).toBe('CONFIRM_SIGN_UP');
    sub = up.userId ?? '';
    expect(sub).toMatch(/^[0-9a-f-]{36}$/);

    const [mail] = await t.readOutbox();
    expect(mail?.to).toBe(email);
    expect(mail?.subject).toBe('Verify your email address');
    expect(mail?.notes.link).toMatch(new RegExp(`^${t.config.publicUrl}/auth/verify/[A-Za-z0-9_-]+$`));

    const firstCode = await t.lastCode(email);
    const resent = await resendSignUpCode({ username: email });
    expect(resent).toMatchObject({
      destination: 'a***@e***',
      deliveryMedium: 'EMAIL',
      attributeName: 'email',
    });
    const code = await t.lastCode(email);
    expect((await t.readOutbox()).length).toBe(2);
    const key = String(mail?.notes.link).split('/').pop() ?? '';
    expect(decodeAuthLinkKey(key)).toEqual({ username: email, code: firstCode });
    const wrongCode = code === '000000' ? '111111' : '000000';
    await expect(confirmSignUp({ username: email, confirmationCode: wrongCode })).rejects.toMatchObject({
      name: 'CodeMismatchException',
      message: 'Invalid verification code provided, please try again.',
    });
    const confirmed = await confirmSignUp({ username: email, confirmationCode: code });
    expect(confirmed.nextStep.signUpStep).toBe('COMPLETE_AUTO_SIGN_IN');
    const signedIn = await autoSignIn();
    expect(signedIn.isSignedIn).toBe(true);

    const user = await getCurrentUser();
    expect(user).toMatchObject({ username: email, userId: sub });
    const session = await fetchAuthSession();
    expect(session.tokens?.idToken?.payload).toMatchObject({
      email,
      email_verified: true,
      given_name: 'Ada',
      token_use: 'id',
    });
    expect(session.tokens?.accessToken.payload).toMatchObject({
      token_use: 'access',
      username: email,
      client_id: 'practiceweb',
    });
    expect(session.tokens?.accessToken.payload.device_key).toMatch(/^local-1_/);
  });

  it('lets the signed-in member call staff procedures with the access token', async () => {
    const firm = await t.ownerWithSub(sub);
    const me = await t.client(await accessToken()).profile.me.query();
    expect(me).toMatchObject({ id: firm.owner.id });
  });

  it('refreshes tokens on a forced refresh, keeping origin_jti and auth_time', async () => {
    const before = (await fetchAuthSession()).tokens?.accessToken.payload;
    // iat counts whole seconds: the refresh happens, by the faked Date that both the client and the
    // provider read, at least a second after the first sign-in (timers and the database run as usual).
    vi.useFakeTimers({ toFake: ['Date'], now: Math.max(Date.now(), ((before?.iat ?? 0) + 1) * 1000) });
    const after = await fetchAuthSession({ forceRefresh: true })
      .then((s) => s.tokens?.accessToken.payload)
      .finally(() => vi.useRealTimers());
    expect(after?.jti).not.toBe(before?.jti);
    expect(after?.origin_jti).toBe(before?.origin_jti);
    expect(after?.auth_time).toBe(before?.auth_time);
    expect(after?.iat).toBeGreaterThan(before?.iat ?? 0);
  });

  it('remembers the device, lists it, and signs in again over the device SRP path', async () => {
    await rememberDevice();
    const devices = await fetchDevices();
    expect(devices).toHaveLength(1);
    const deviceKey = (await fetchAuthSession()).tokens?.accessToken.payload.device_key;
    expect(devices[0]).toMatchObject({ id: deviceKey, name: deviceName });
    expect(devices[0]?.attributes['dev:device_remembered_status']).toBe('remembered');

    await signOut();
    const [device] = await t.db
      .select()
      .from(idpDevices)
      .where(eq(idpDevices.deviceKey, String(deviceKey)));
    expect(device?.lastAuthenticatedAt).toBeNull();

    // Wrong password over SRP: the provider's message.
    await expect(signIn({ username: email, password: 'Wrong-Password-1' })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });

    const again = await signIn({ username: email, password });
    expect(again.isSignedIn).toBe(true);
    const [afterDevice] = await t.db
      .select()
      .from(idpDevices)
      .where(eq(idpDevices.deviceKey, String(deviceKey)));
    expect(afterDevice?.lastAuthenticatedAt).not.toBeNull();
    expect((await fetchAuthSession()).tokens?.accessToken.payload.device_key).toBe(deviceKey);
    expect(await fetchDevices()).toHaveLength(1);
  });

  it('signs in with USER_PASSWORD_AUTH, still over the known device', async () => {
    await signOut();
    const res = await signIn({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
    expect(res.isSignedIn).toBe(true);
    expect(await fetchDevices()).toHaveLength(1);
  });

  it('changes the password, and the new one signs in', async () => {
    await expect(
      updatePassword({ oldPassword: 'Not-The-Password-1', newPassword: 'Another-Pass-2' }),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    await expect(updatePassword({ oldPassword: password, newPassword: 'short' })).rejects.toMatchObject({
      name: 'InvalidPasswordException',
    });
    await updatePassword({ oldPassword: password, newPassword: 'Another-Pass-2' });
    password = 'Another-Pass-2';
    await signOut();
    expect((await signIn({ username: email, password })).isSignedIn).toBe(true);
  });

  it('updates and verifies attributes', async () => {
    const result = await updateUserAttributes({
      userAttributes: {
        given_name: 'Augusta',
        'custom:title': 'Countess',
        sub: 'ignored',
        email_verified: 'true',
      } as never,
    });
    expect(result.given_name?.isUpdated).toBe(true);
    const attrs = await fetchUserAttributes();
    expect(attrs).toMatchObject({
      sub,
      email,
      email_verified: 'true',
      given_name: 'Augusta',
      'custom:title': 'Countess',
    });

    await deleteUserAttributes({ userAttributeKeys: ['custom:title'] });
    expect((await fetchUserAttributes())['custom:title']).toBeUndefined();

    const newEmail = 'ada.king@example.test';
    const changed = await updateUserAttributes({ userAttributes: { email: newEmail } });
    expect(changed.email?.nextStep.updateAttributeStep).toBe('CONFIRM_ATTRIBUTE_WITH_CODE');
    expect(await fetchUserAttributes()).toMatchObject({ email: newEmail, email_verified: 'false' });
    await sendUserAttributeVerificationCode({ userAttributeKey: 'email' });
    await confirmUserAttribute({ userAttributeKey: 'email', confirmationCode: await t.lastCode(newEmail) });
    expect(await fetchUserAttributes()).toMatchObject({ email: newEmail, email_verified: 'true' });
  });

  it('resets a forgotten password with the mailed code', async () => {
    await signOut();
    const res = await resetPassword({ username: email });
    expect(res.nextStep.resetPasswordStep).toBe('CONFIRM_RESET_PASSWORD_WITH_CODE');
    const mails = await t.readOutbox();
    const reset = mails[mails.length - 1];
    expect(reset?.subject).toBe('Reset your password');
    expect(reset?.notes.link).toContain('/auth/resetpassword/');
    await confirmResetPassword({
      username: email,
      confirmationCode: await t.lastCode('ada.king@example.test'),
      newPassword: 'Reset-Pass-3',
    });
    password = 'Reset-Pass-3';
    expect((await signIn({ username: email, password })).isSignedIn).toBe(true);
  });

  it('signs out locally: the refresh token is revoked and the old access token refused', async () => {
    const token = await accessToken();
    expect(await t.client(token).profile.me.query()).toBeTruthy();
    await signOut();
    await expect(t.client(token).profile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });

  it('signs out globally: every token of the user is refused', async () => {
    await signIn({ username: email, password });
    const token = await accessToken();
    expect(await t.client(token).profile.me.query()).toBeTruthy();
    await signOut({ global: true });
    await expect(t.client(token).profile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });

  it('forgets the device, then a sign-in tracks a new one', async () => {
    await signIn({ username: email, password });
    const [device] = await fetchDevices();
    await forgetDevice();
    expect(await fetchDevices()).toHaveLength(0);
    await signOut();
    await signIn({ username: email, password });
    const key = (await fetchAuthSession()).tokens?.accessToken.payload.device_key;
    expect(key).toBeTruthy();
    expect(key).not.toBe(device?.id);
  });

  it('drops device keys the server no longer knows and signs in again (ResourceNotFoundException retry)', async () => {
    const before = (await fetchAuthSession()).tokens?.accessToken.payload.device_key;
    await signOut();
    await t.db.delete(idpDevices);
    expect((await signIn({ username: email, password })).isSignedIn).toBe(true);
    const after = (await fetchAuthSession()).tokens?.accessToken.payload.device_key;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
  });

  let totpSecret = '';
  /** The authenticator app's code, `offsetMs` from now (by the clock both sides read). */
  const totpAt = (offsetMs = 0) =>
    new TOTP({ secret: Secret.fromBase32(totpSecret) }).generate({ timestamp: Date.now() + offsetMs });
  /** The clock moved on by `ms` (client and provider share it): a fresh TOTP step. */
  const later = <T>(ms: number, run: () => Promise<T>) => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms });
    return run().finally(() => vi.useRealTimers());
  };

  it('sets up TOTP (setUpTOTP, verifyTOTPSetup) and turns it on (updateMFAPreference)', async () => {
    const setup = await setUpTOTP();
    totpSecret = setup.sharedSecret;
    expect(setup.getSetupUri('Practice').href).toContain(`secret=${totpSecret}`);
    const [stored] = await t.db.select().from(idpUsers);
    // Sealed at rest with the vault's key, never in clear.
    expect(stored?.totpPendingSecret).toMatch(/^v1\$/);
    expect(stored?.totpPendingSecret).not.toContain(totpSecret);
    const wrong = totpAt() === '000000' ? '111111' : '000000';
    await expect(verifyTOTPSetup({ code: wrong })).rejects.toMatchObject({
      name: 'EnableSoftwareTokenMFAException',
    });
    await verifyTOTPSetup({ code: totpAt(), options: { friendlyDeviceName: 'Ada’s phone' } });
    // Verified, not yet on: Cognito turns it on with SetUserMFAPreference.
    expect(await fetchMFAPreference()).toEqual({ preferred: undefined, enabled: undefined });
    await updateMFAPreference({ totp: 'PREFERRED' });
    expect(await fetchMFAPreference()).toEqual({ preferred: 'TOTP', enabled: ['TOTP'] });
  });

  it('asks for the TOTP code at sign-in, refuses a wrong or reused one, and signs in', async () => {
    await signOut();
    const first = await signIn({ username: email, password });
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    const wrong = totpAt(30_000) === '000000' ? '111111' : '000000';
    await expect(confirmSignIn({ challengeResponse: wrong })).rejects.toMatchObject({
      name: 'CodeMismatchException',
      message: 'Invalid code received for user',
    });
    // The next step's code: a phone a little ahead is fine (one step of drift).
    const code = totpAt(30_000);
    expect((await confirmSignIn({ challengeResponse: code })).isSignedIn).toBe(true);
    await signOut();
    await signIn({ username: email, password });
    await expect(confirmSignIn({ challengeResponse: code })).rejects.toMatchObject({
      name: 'CodeMismatchException',
    });
    const done = await later(60_000, () => confirmSignIn({ challengeResponse: totpAt() }));
    expect(done.isSignedIn).toBe(true);
  });

  it('skips the code on a remembered device, and asks again once it is forgotten', async () => {
    await rememberDevice();
    await signOut();
    expect((await signIn({ username: email, password })).isSignedIn).toBe(true);
    await forgetDevice();
    await signOut();
    const asked = await signIn({ username: email, password });
    expect(asked.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    const done = await later(90_000, () => confirmSignIn({ challengeResponse: totpAt() }));
    expect(done.isSignedIn).toBe(true);
  });

  it('turns TOTP off, and the firm’s system log has the sign-ins, failures and MFA changes', async () => {
    await updateMFAPreference({ totp: 'DISABLED' });
    expect(await fetchMFAPreference()).toEqual({ preferred: undefined, enabled: undefined });
    await signOut();
    expect((await signIn({ username: email, password })).isSignedIn).toBe(true);
    const actions = (
      await t.db
        .select({ action: systemLog.action })
        .from(systemLog)
        .where(inArray(systemLog.action, ['member.sign_in_failed', 'member.mfa_changed']))
    ).map((r) => r.action);
    expect(actions.filter((a) => a === 'member.sign_in_failed').length).toBeGreaterThanOrEqual(2);
    expect(actions.filter((a) => a === 'member.mfa_changed')).toHaveLength(3);
  });

  it('refuses to delete a firm’s owner, then deletes the user: tokens refused, sign-in impossible', async () => {
    const token = await accessToken();
    await expect(deleteUser()).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: OWNER_CANNOT_DELETE,
    });
    // No longer the owner (as after a transfer): they leave the firm, deactivated.
    await t.db.update(members).set({ isOwner: false }).where(eq(members.sub, sub));
    await deleteUser();
    expect((await t.db.select().from(members).where(eq(members.sub, sub))).map((m) => m.status)).toEqual([
      'disabled',
    ]);
    await expect(t.client(token).profile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
    expect(await t.db.select().from(idpUsers)).toHaveLength(0);
    // As a wrong password: nobody learns who has an account.
    await expect(signIn({ username: email, password })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
  });
});
