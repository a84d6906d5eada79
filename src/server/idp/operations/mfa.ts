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
  for (const other of ['SMSMfaSettings', 'EmailMfaSettings']) {
    const s = mfaSettings(body, other);
    if (s?.Enabled || s?.PreferredMfa)
      throw invalidParameter(
        `${other === 'SMSMfaSettings' ? 'SMS' : 'Email'} MFA is not enabled for this user pool.`,
      );
  }
  const { user } = await authenticate(ctx, token);
  if (!totp || (totp.Enabled === undefined && totp.PreferredMfa === undefined)) return {};
  const enable = totp.Enabled ?? user.totpEnabled;
  if (enable && !user.totpSecret) throw invalidParameter('User has not verified software token mfa');
  if (!enable && totp.PreferredMfa) throw invalidParameter('Cannot set a disabled MFA type as preferred.');
  if (!enable && user.totpEnabled && (await mfaRequired(ctx, user, 'turn_off')))
    throw invalidParameter('MFA is required for this user: the software token cannot be turned off.');
  const preferred = !enable
    ? null
    : totp.PreferredMfa === undefined
      ? user.mfaPreferred
      : totp.PreferredMfa
        ? SOFTWARE_TOKEN_MFA
        : null;
  if (enable === user.totpEnabled && preferred === user.mfaPreferred) return {};
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(idpUsers)
      .set({ totpEnabled: enable, mfaPreferred: preferred })
      .where(eq(idpUsers.id, user.id));
    const change =
      enable !== user.totpEnabled
        ? enable
          ? 'enabled'
          : 'disabled'
        : preferred
          ? 'preferred'
          : 'not_preferred';
    await emit({ ...ctx, db: tx }, user.id, { kind: 'mfa_changed', totp: change });
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
