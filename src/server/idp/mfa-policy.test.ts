import { randomBytes } from 'node:crypto';
import { Amplify } from 'aws-amplify';
import {
  confirmSignIn,
  fetchAuthSession,
  fetchMFAPreference,
  setUpTOTP,
  signIn,
  signOut,
  updateMFAPreference,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { and, eq, inArray } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MFA_SETUP_REQUIRED_MESSAGE } from '../../domain/mfa';
import { idpRecoveryCodes, idpUsers, members, systemLog, vaultServerSecrets } from '../db/schema';
import { rotateMasterKey } from '../features/vault';
import { signedUpUser } from '../test/idp-user';
import { createIdpTestApp } from './test-helpers';

// The firm's two-step sign-in rule and recovery codes, with the real aws-amplify v6 client against
// the embedded identity provider: grace, refusal of staff calls past it, forced set-up at sign-in,
// recovery codes in place of a TOTP code, and an administrator's reset. Amplify's sign-in state is
// module-level: the steps run in order.

(globalThis as { navigator?: unknown }).navigator ??= { userAgent: 'test' };

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
let firm: Awaited<ReturnType<typeof t.seedFirm>>;
const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };
/** A restart with other VAULT_KEYS: the keyring is loaded per configuration's `vault`. */
const useKeys = (keys: (typeof k1)[]) => {
  t.config.vault = { ...t.config.vault, keys };
};
const email = 'sam@example.test';
const password = 'Ledger#2026';
let secret = '';
let codes: string[] = [];

const token = async () => (await fetchAuthSession()).tokens?.accessToken?.toString() ?? '';
const asSam = async () => t.client(await token());
const totpAt = (offsetMs = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetMs });
/** The clock moved on by `ms`: a fresh TOTP step (each code is good once). */
const later = <T>(ms: number, run: () => Promise<T>) => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms });
  return run().finally(() => vi.useRealTimers());
};
const actions = async (names: string[]) =>
  (
    await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), inArray(systemLog.action, names)))
  ).map((r) => r.action);

beforeAll(async () => {
  t = await createIdpTestApp({ VAULT_KEYS: `${k1.id}:${k1.key.toString('base64')}` });
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: t.config.idp.userPoolId,
        userPoolClientId: t.config.idp.clientId,
        userPoolEndpoint: t.endpoint,
      },
    },
  });
  firm = await t.seedFirm();
  const tokens = await signedUpUser(
    { endpoint: t.endpoint, clientId: t.config.idp.clientId, outboxDir: t.outboxDir },
    { email, password },
  );
  const sub = String(decodeJwt(tokens.AccessToken).sub);
  await t.db.update(members).set({ sub, email }).where(eq(members.id, firm.staff.id));
});
afterAll(async () => {
  await signOut().catch(() => {});
  await t?.close();
});

describe('the firm’s MFA rule and recovery codes', () => {
  it('within grace: signs in without MFA, staff calls work, and the status shows the deadline', async () => {
    const saved = await t
      .client(firm.owner.token)
      .settings.updateMfaPolicy.mutate({ policy: 'roles', roleIds: [firm.roles.staff.id], graceDays: 7 });
    expect(saved.changed).toBe(true);
    expect((await signIn({ username: email, password })).isSignedIn).toBe(true);
    const sam = await asSam();
    await expect(sam.profile.me.query()).resolves.toMatchObject({ id: firm.staff.id });
    const status = await sam.account.mfa.status.query();
    expect(status).toMatchObject({ required: true, enabled: false, overdue: false });
    const days = ((status.dueAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // The owner's role is not named: the rule does not cover them.
    expect(await t.client(firm.owner.token).account.mfa.status.query()).toMatchObject({ required: false });
    expect(await actions(['org.mfa_policy'])).toEqual(['org.mfa_policy']);
  });

  it('past grace: staff calls are refused until set-up, and sign-in makes them set it up', async () => {
    // Grace counts from when the rule started to apply to the member.
    await t.db
      .update(members)
      .set({ mfaRequiredSince: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(members.id, firm.staff.id));
    const sam = await asSam();
    await expect(sam.profile.me.query()).rejects.toMatchObject({
      message: MFA_SETUP_REQUIRED_MESSAGE,
      data: { code: 'FORBIDDEN' },
    });
    expect(await sam.account.mfa.status.query()).toMatchObject({ overdue: true });

    await signOut();
    const choice = await signIn({ username: email, password });
    // The pool offers both kinds of second step: Amplify asks which to set up.
    expect(choice.nextStep).toMatchObject({
      signInStep: 'CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION',
      allowedMFATypes: ['TOTP', 'EMAIL'],
    });
    const step = await confirmSignIn({ challengeResponse: 'TOTP' });
    expect(step.nextStep.signInStep).toBe('CONTINUE_SIGN_IN_WITH_TOTP_SETUP');
    if (step.nextStep.signInStep !== 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP') return;
    secret = step.nextStep.totpSetupDetails.sharedSecret;
    expect((await confirmSignIn({ challengeResponse: totpAt() })).isSignedIn).toBe(true);
    await expect((await asSam()).profile.me.query()).resolves.toMatchObject({ id: firm.staff.id });
    // The firm requires it: it cannot be turned off.
    await expect(updateMFAPreference({ totp: 'DISABLED' })).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
  });

  it('makes ten recovery codes, stored hashed, and one signs in once in place of a TOTP code', async () => {
    ({ codes } = await (await asSam()).account.mfa.regenerateRecoveryCodes.mutate());
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await t.db.select().from(idpRecoveryCodes);
    expect(stored).toHaveLength(10);
    const plain = codes.flatMap((c) => [c, c.replace('-', '')]);
    expect(stored.some((row) => plain.some((c) => row.codeHash.includes(c)))).toBe(false);

    await signOut();
    expect((await signIn({ username: email, password })).nextStep.signInStep).toBe(
      'CONFIRM_SIGN_IN_WITH_TOTP_CODE',
    );
    // Typed loosely (capitals, no dash): still the code.
    expect(
      (await confirmSignIn({ challengeResponse: codes[0]?.toUpperCase().replace('-', '') ?? '' })).isSignedIn,
    ).toBe(true);
    expect((await (await asSam()).account.mfa.status.query()).recoveryCodesLeft).toBe(9);

    await signOut();
    await signIn({ username: email, password });
    await expect(confirmSignIn({ challengeResponse: codes[0] ?? '' })).rejects.toMatchObject({
      name: 'CodeMismatchException',
    });
    // The same sign-in may try again, with another code.
    expect((await confirmSignIn({ challengeResponse: codes[1] ?? '' })).isSignedIn).toBe(true);
    expect(await actions(['member.recovery_code_used', 'member.recovery_codes'])).toEqual(
      expect.arrayContaining(['member.recovery_code_used', 'member.recovery_codes']),
    );
  });

  it('a new set replaces the old: earlier codes stop working', async () => {
    const fresh = (await (await asSam()).account.mfa.regenerateRecoveryCodes.mutate()).codes;
    await signOut();
    await signIn({ username: email, password });
    await expect(confirmSignIn({ challengeResponse: codes[2] ?? '' })).rejects.toMatchObject({
      name: 'CodeMismatchException',
    });
    expect((await confirmSignIn({ challengeResponse: fresh[0] ?? '' })).isSignedIn).toBe(true);
  });

  it('a master key rotation keeps the authenticator and recovery codes working without the old key', async () => {
    const fresh = (await (await asSam()).account.mfa.regenerateRecoveryCodes.mutate()).codes;
    const [before] = await t.db.select({ totp: idpUsers.totpSecret }).from(idpUsers);
    expect(before?.totp).toMatch(/^v1\$k1\$/);
    useKeys([k2, k1]);
    const result = await rotateMasterKey(t.db, {
      current: k2,
      byId: new Map([k2, k1].map((k) => [k.id, k.key])),
    });
    expect(result.failed).toEqual([]);
    // Sam's TOTP key and the keyed-hash key, at least; nothing is left under k1.
    expect(result.rewrapped).toBeGreaterThanOrEqual(2);
    expect(Object.keys(result.byKey)).toEqual(['k2']);
    const [after] = await t.db.select({ totp: idpUsers.totpSecret }).from(idpUsers);
    expect(after?.totp).toMatch(/^v1\$k2\$/);
    // The secret itself did not change (only its data key's wrapping).
    expect(after?.totp?.split('$').slice(3)).toEqual(before?.totp?.split('$').slice(3));
    const [mac] = await t.db.select().from(vaultServerSecrets);
    expect(mac?.sealed).toMatch(/^v1\$k2\$/);
    expect((await rotateMasterKey(t.db, { current: k2, byId: new Map([[k2.id, k2.key]]) })).rewrapped).toBe(
      0,
    );

    // k1 removed: the authenticator's code and a recovery code still sign in.
    useKeys([k2]);
    await signOut();
    const step = await later(60_000, () => signIn({ username: email, password }));
    expect(step.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    expect((await later(60_000, () => confirmSignIn({ challengeResponse: totpAt() }))).isSignedIn).toBe(true);
    await signOut();
    await signIn({ username: email, password });
    expect((await confirmSignIn({ challengeResponse: fresh[0] ?? '' })).isSignedIn).toBe(true);
    expect((await (await asSam()).account.mfa.status.query()).recoveryCodesLeft).toBe(9);
  });

  it('an administrator resets the member’s MFA (logged): set-up again at the next sign-in', async () => {
    // Without team.edit: refused.
    await expect((await asSam()).team.resetMfa.mutate({ memberId: firm.owner.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await t.client(firm.owner.token).team.resetMfa.mutate({ memberId: firm.staff.id });
    expect(await t.db.select().from(idpRecoveryCodes)).toHaveLength(0);
    expect(await actions(['member.mfa_reset'])).toEqual(['member.mfa_reset']);
    // The reset member's session now meets the rule again.
    await expect((await asSam()).profile.me.query()).rejects.toMatchObject({
      message: MFA_SETUP_REQUIRED_MESSAGE,
    });
    await signOut();
    const step = await later(30_000, () => signIn({ username: email, password }));
    expect(step.nextStep.signInStep).toBe('CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION');
    // This time by email: the code goes to the account's verified address, and staff calls work.
    expect((await confirmSignIn({ challengeResponse: 'EMAIL' })).nextStep.signInStep).toBe(
      'CONTINUE_SIGN_IN_WITH_EMAIL_SETUP',
    );
    const emailed = await confirmSignIn({ challengeResponse: email });
    expect(emailed.nextStep).toMatchObject({
      signInStep: 'CONFIRM_SIGN_IN_WITH_EMAIL_CODE',
      codeDeliveryDetails: { deliveryMedium: 'EMAIL', destination: expect.stringMatching(/^s\*+@/) },
    });
    expect((await confirmSignIn({ challengeResponse: await t.lastCode(email) })).isSignedIn).toBe(true);
    await expect((await asSam()).profile.me.query()).resolves.toMatchObject({ id: firm.staff.id });
    expect(await fetchMFAPreference()).toMatchObject({ enabled: ['EMAIL'], preferred: 'EMAIL' });
    // Required by the firm: the only second step cannot be turned off.
    await expect(updateMFAPreference({ email: 'DISABLED' })).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
  });

  it('the rule off again: no set-up asked, staff calls work', async () => {
    await t
      .client(firm.owner.token)
      .settings.updateMfaPolicy.mutate({ policy: 'off', roleIds: [], graceDays: 7 });
    const [row] = await t.db
      .select({ since: members.mfaRequiredSince })
      .from(members)
      .where(eq(members.id, firm.staff.id));
    expect(row?.since).toBeNull();
    // No longer required: it can be turned off.
    await updateMFAPreference({ email: 'DISABLED' });
    await signOut();
    expect((await signIn({ username: email, password })).isSignedIn).toBe(true);
    await expect((await asSam()).profile.me.query()).resolves.toMatchObject({ id: firm.staff.id });
  });

  it('with email codes and an authenticator on and neither preferred, sign-in asks which (SELECT_MFA_TYPE)', async () => {
    await updateMFAPreference({ email: 'ENABLED' });
    const setup = await setUpTOTP();
    secret = setup.sharedSecret;
    await later(90_000, () => verifyTOTPSetup({ code: totpAt() }));
    await updateMFAPreference({ totp: 'ENABLED' });
    expect(await fetchMFAPreference()).toEqual({ enabled: ['TOTP', 'EMAIL'] });
    await signOut();
    const step = await signIn({ username: email, password });
    expect(step.nextStep).toMatchObject({
      signInStep: 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION',
      allowedMFATypes: ['TOTP', 'EMAIL'],
    });
    expect((await confirmSignIn({ challengeResponse: 'EMAIL' })).nextStep.signInStep).toBe(
      'CONFIRM_SIGN_IN_WITH_EMAIL_CODE',
    );
    expect((await confirmSignIn({ challengeResponse: await t.lastCode(email) })).isSignedIn).toBe(true);
    expect(await actions(['member.mfa_changed'])).toContain('member.mfa_changed');
  });
});
