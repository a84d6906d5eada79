import { eq } from 'drizzle-orm';
import { idpUsers } from '../../db/schema';
import { authenticate } from '../access';
import { createChallenge, restoreChallenge, takeChallenge } from '../challenges';
import type { TBody, TIdpContext, TOperation } from '../deps';
import { E, invalidParameter } from '../errors';
import { optString } from '../input';
import {
  assertTotpConfigured,
  associateTotp,
  EMAIL_OTP,
  emailMfaAvailable,
  emit,
  mfaRequired,
  SOFTWARE_TOKEN_MFA,
  verifyPendingTotp,
} from '../mfa';
import { assertUsable, findUserById, type TIdpUser } from '../users';

// The MFA operations. AssociateSoftwareToken and VerifySoftwareToken take an AccessToken (a
// signed-in person adding or replacing their authenticator) or the Session of a sign-in's
// MFA_SETUP step, never both.

type TCaller = {
  user: TIdpUser;
  setup: { token: string; data: Record<string, string>; expiresAt: Date } | null;
};

async function caller(ctx: TIdpContext, body: TBody): Promise<TCaller> {
  const accessToken = optString(body, 'AccessToken', 8192);
  const session = optString(body, 'Session', 4096);
  if (accessToken && session)
    throw invalidParameter('Only one of AccessToken or Session may be provided, not both.');
  if (accessToken) return { user: (await authenticate(ctx, accessToken)).user, setup: null };
  if (!session) throw invalidParameter('Either AccessToken or Session must be provided.');
  const step = await takeChallenge(ctx.db, session, 'mfa_setup');
  if (!step?.userId) throw E.sessionExpired();
  const user = await findUserById(ctx.db, step.userId);
  assertUsable(user);
  return { user, setup: { token: session, data: step.data, expiresAt: step.expiresAt } };
}

export const AssociateSoftwareToken: TOperation = async (ctx, body) => {
  assertTotpConfigured(ctx);
  const { user, setup } = await caller(ctx, body);
  const SecretCode = await associateTotp(ctx, user);
  if (!setup) return { SecretCode };
  // Each answer of a sign-in hands out the session of its next step.
  const Session = await createChallenge(ctx.db, { userId: user.id, kind: 'mfa_setup', data: setup.data });
  return { SecretCode, Session };
};

export const VerifySoftwareToken: TOperation = async (ctx, body) => {
  assertTotpConfigured(ctx);
  const code = optString(body, 'UserCode', 6);
  if (!code || !/^\d{6}$/.test(code))
    throw invalidParameter(
      "1 validation error detected: Value at 'userCode' failed to satisfy constraint: Member must satisfy regular expression pattern: [0-9]+",
    );
  const friendlyName = optString(body, 'FriendlyDeviceName', 256);
  const { user, setup } = await caller(ctx, body);
  if (!setup) {
    await verifyPendingTotp(ctx, user, code, { friendlyName, enable: false });
    return { Status: 'SUCCESS' };
  }
  try {
    await verifyPendingTotp(ctx, user, code, { friendlyName, enable: true });
  } catch (error) {
    // A mistyped code: the same sign-in may try again.
    await restoreChallenge(ctx.db, setup.token, 'mfa_setup', {
      userId: user.id,
      data: setup.data,
      expiresAt: setup.expiresAt,
    });
    throw error;
  }
  const Session = await createChallenge(ctx.db, {
    userId: user.id,
    kind: 'mfa_setup_done',
    data: setup.data,
  });
  return { Status: 'SUCCESS', Session };
};

type TMfaSettings = { Enabled?: boolean; PreferredMfa?: boolean } | undefined;

function mfaSettings(body: TBody, field: string): TMfaSettings {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParameter(
      `1 validation error detected: Value at '${field}' failed to satisfy constraint: Member must be a structure`,
    );
  const { Enabled, PreferredMfa } = value as Record<string, unknown>;
  if (
    (Enabled !== undefined && typeof Enabled !== 'boolean') ||
    (PreferredMfa !== undefined && typeof PreferredMfa !== 'boolean')
  )
    throw invalidParameter(
      `1 validation error detected: Value at '${field}' failed to satisfy constraint: Enabled and PreferredMfa must be booleans`,
    );
  return { Enabled, PreferredMfa };
}

export const SetUserMFAPreference: TOperation = async (ctx, body) => {
  const token = optString(body, 'AccessToken', 8192);
  if (!token)
    throw invalidParameter(
      "1 validation error detected: Value at 'accessToken' failed to satisfy constraint: Member must not be null",
    );
  const totp = mfaSettings(body, 'SoftwareTokenMfaSettings');
  const email = mfaSettings(body, 'EmailMfaSettings');
  const sms = mfaSettings(body, 'SMSMfaSettings');
  if (sms?.Enabled || sms?.PreferredMfa) throw invalidParameter('SMS MFA is not enabled for this user pool.');
  if ((email?.Enabled || email?.PreferredMfa) && !emailMfaAvailable(ctx))
    throw invalidParameter('Email MFA is not enabled for this user pool.');
  if (totp?.PreferredMfa && email?.PreferredMfa)
    throw invalidParameter('Only one MFA type can be set as preferred.');
  const { user } = await authenticate(ctx, token);
  const totpOn = totp?.Enabled ?? user.totpEnabled;
  const emailOn = email?.Enabled ?? user.emailMfaEnabled;
  if (totpOn && !user.totpEnabled && !user.totpSecret)
    throw invalidParameter('User has not verified software token mfa');
  if (emailOn && !user.emailMfaEnabled && !(user.email && user.emailVerified))
    throw invalidParameter('User does not have a verified email.');
  if ((!totpOn && totp?.PreferredMfa) || (!emailOn && email?.PreferredMfa))
    throw invalidParameter('Cannot set a disabled MFA type as preferred.');
  const hadAny = user.totpEnabled || user.emailMfaEnabled;
  if (hadAny && !totpOn && !emailOn && (await mfaRequired(ctx, user, 'turn_off')))
    throw invalidParameter('MFA is required for this user: the software token cannot be turned off.');
  // The preference: a type named preferred wins; one set not preferred, or turned off, is dropped.
  let preferred: string | null = user.mfaPreferred;
  if (totp?.PreferredMfa) preferred = SOFTWARE_TOKEN_MFA;
  else if (email?.PreferredMfa) preferred = EMAIL_OTP;
  if (preferred === SOFTWARE_TOKEN_MFA && (!totpOn || totp?.PreferredMfa === false)) preferred = null;
  if (preferred === EMAIL_OTP && (!emailOn || email?.PreferredMfa === false)) preferred = null;
  if (totpOn === user.totpEnabled && emailOn === user.emailMfaEnabled && preferred === user.mfaPreferred)
    return {};
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(idpUsers)
      .set({ totpEnabled: totpOn, emailMfaEnabled: emailOn, mfaPreferred: preferred })
      .where(eq(idpUsers.id, user.id));
    const c = { ...ctx, db: tx };
    const was = (type: string) => user.mfaPreferred === type;
    const is = (type: string) => preferred === type;
    if (totpOn !== user.totpEnabled)
      await emit(c, user.id, { kind: 'mfa_changed', totp: totpOn ? 'enabled' : 'disabled' });
    else if (totpOn && was(SOFTWARE_TOKEN_MFA) !== is(SOFTWARE_TOKEN_MFA))
      await emit(c, user.id, {
        kind: 'mfa_changed',
        totp: is(SOFTWARE_TOKEN_MFA) ? 'preferred' : 'not_preferred',
      });
    if (emailOn !== user.emailMfaEnabled)
      await emit(c, user.id, { kind: 'email_mfa_changed', change: emailOn ? 'enabled' : 'disabled' });
    else if (emailOn && was(EMAIL_OTP) !== is(EMAIL_OTP))
      await emit(c, user.id, {
        kind: 'email_mfa_changed',
        change: is(EMAIL_OTP) ? 'preferred' : 'not_preferred',
      });
  });
  return {};
};

/**
 * The legacy per-user MFA options: SMS only, and this pool sends no SMS. An empty list (what
 * clients send to turn SMS MFA off) is accepted and changes nothing.
 */
export const SetUserSettings: TOperation = async (ctx, body) => {
  const token = optString(body, 'AccessToken', 8192);
  if (!token)
    throw invalidParameter(
      "1 validation error detected: Value at 'accessToken' failed to satisfy constraint: Member must not be null",
    );
  const options = body.MFAOptions;
  if (!Array.isArray(options))
    throw invalidParameter(
      "1 validation error detected: Value at 'mFAOptions' failed to satisfy constraint: Member must not be null",
    );
  for (const option of options) {
    const o = (typeof option === 'object' && option !== null ? option : {}) as Record<string, unknown>;
    if (o.DeliveryMedium !== 'SMS' && o.DeliveryMedium !== 'EMAIL')
      throw invalidParameter(
        "1 validation error detected: Value at 'mFAOptions.member.deliveryMedium' failed to satisfy constraint: Member must satisfy enum value set: [SMS, EMAIL]",
      );
    if (o.DeliveryMedium === 'EMAIL')
      throw invalidParameter('Only SMS can be set as an MFA option with SetUserSettings.');
    throw invalidParameter('SMS MFA is not enabled for this user pool.');
  }
  await authenticate(ctx, token);
  return {};
};
