import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { isRecoveryCodeShape } from '../../domain/mfa';
import { idpUsers } from '../db/schema';
import { releaseAttempts, takeSignInAttempt } from './attempts';
import { consumeCode, issueCode } from './codes';
import type { TIdpContext, TIdpEvent } from './deps';
import { E, IdpError, invalidParameter } from './errors';
import { sendSignInCode } from './mail';
import { spendRecoveryCode } from './recovery-codes';
import { newTotpSecret, totpStep } from './totp';
import type { TIdpUser } from './users';

// TOTP MFA as Cognito keeps it: AssociateSoftwareToken hands out a key (pending), VerifySoftwareToken
// proves the app has it (verified), SetUserMFAPreference turns it on for sign-in. Keys are sealed
// with the vault's master key, bound to their user; a code is accepted once (its step is kept).

export const SOFTWARE_TOKEN_MFA = 'SOFTWARE_TOKEN_MFA';
export const EMAIL_OTP = 'EMAIL_OTP';
export type TMfaType = typeof SOFTWARE_TOKEN_MFA | typeof EMAIL_OTP;

/** Binds a sealed TOTP key (pending or verified) to its user; key rotation re-wraps under the same. */
export const totpSealContext = (userId: string) => `idp.totp\u0000${userId}`;

export function assertTotpConfigured(ctx: TIdpContext): void {
  if (ctx.config.idp.mode === 'embedded' && ctx.config.idp.mfa === 'OFF')
    throw new IdpError(
      'SoftwareTokenMFANotFoundException',
      'Software Token MFA has not been enabled by the userPool.',
    );
}

/**
 * The MFA types a sign-in may ask for: TOTP and a code mailed to the verified email (this pool
 * sends no SMS). Email MFA needs the email verified, as in Cognito.
 */
export function enabledFactors(user: TIdpUser): TMfaType[] {
  return [
    ...(user.totpEnabled && user.totpSecret ? [SOFTWARE_TOKEN_MFA] : []),
    ...(user.emailMfaEnabled && user.email && user.emailVerified ? [EMAIL_OTP] : []),
  ] as TMfaType[];
}

/** Email MFA is on offer with TOTP: unless the pool's MFA is OFF. */
export function emailMfaAvailable(ctx: TIdpContext): boolean {
  return ctx.config.idp.mode === 'embedded' && ctx.config.idp.mfa !== 'OFF';
}

/** Mails a fresh sign-in code to the user's verified email (counted: LimitExceededException). */
export async function sendEmailOtp(ctx: TIdpContext, user: TIdpUser): Promise<void> {
  if (!user.email || !user.emailVerified) throw invalidParameter('User does not have a verified email.');
  const code = await issueCode(ctx.db, user.id, 'mfa:email');
  await sendSignInCode(ctx, user.email, code);
}

/**
 * A sign-in's EMAIL_OTP answer: the mailed code (each once, five wrong tries per code) or a
 * recovery code; wrong answers count in the same growing `mfa:<user>` lock as TOTP codes.
 */
export async function checkEmailOtp(ctx: TIdpContext, user: TIdpUser, code: string): Promise<void> {
  const key = `mfa:${user.id}`;
  const slot = await takeSignInAttempt(ctx.db, key);
  if (!slot.allowed) throw E.passwordAttempts();
  if (code.length <= 20 && isRecoveryCodeShape(code)) {
    const left = await spendRecoveryCode(ctx.db, ctx.secrets, user.id, code);
    if (left !== null) {
      await releaseAttempts(ctx.db, key, slot);
      await emit(ctx, user.id, { kind: 'recovery_code_used', left });
      return;
    }
  }
  try {
    if (!/^\d{6,8}$/.test(code)) throw E.codeMismatch();
    await consumeCode(ctx.db, user.id, 'mfa:email', code);
  } catch (error) {
    if (!(error instanceof IdpError)) throw error;
    if (slot.last) {
      await emit(ctx, user.id, { kind: 'locked_out', reason: 'email_code', seconds: slot.retryS });
      throw E.passwordAttempts();
    }
    await emit(ctx, user.id, { kind: 'sign_in_failed', reason: 'email_code' });
    // An expired or exhausted code: the sign-in must start again (Cognito's answers).
    if (error.type !== 'CodeMismatchException') throw error;
    throw E.mfaCodeMismatch();
  }
  await releaseAttempts(ctx.db, key, slot);
}

/** GetUser's MFA fields; Cognito leaves them out when there is nothing to say. */
export function mfaSettingsOf(user: TIdpUser) {
  const list = enabledFactors(user);
  return {
    ...(list.length ? { UserMFASettingList: list } : {}),
    ...(user.mfaPreferred && list.includes(user.mfaPreferred as TMfaType)
      ? { PreferredMfaSetting: user.mfaPreferred }
      : {}),
  };
}

/** The pool's MFA is ON, or the app requires it of this person. */
export async function mfaRequired(
  ctx: TIdpContext,
  user: TIdpUser,
  when: 'sign_in' | 'turn_off',
): Promise<boolean> {
  if (ctx.config.idp.mode === 'embedded' && ctx.config.idp.mfa === 'ON') return true;
  return (await ctx.mfaRequired?.(ctx.db, user.id, when)) ?? false;
}

export async function emit(ctx: TIdpContext, sub: string, event: TIdpEvent): Promise<void> {
  await ctx.onEvent?.(ctx.db, { ...event, sub, ip: ctx.ip, userAgent: ctx.userAgent });
}

/** A new pending key for the user (the verified one, if any, keeps working until this is verified). */
export async function associateTotp(ctx: TIdpContext, user: TIdpUser): Promise<string> {
  const secret = newTotpSecret();
  await ctx.db
    .update(idpUsers)
    .set({ totpPendingSecret: await ctx.secrets.seal(secret, totpSealContext(user.id)) })
    .where(eq(idpUsers.id, user.id));
  return secret;
}

/** Marks the step used, once: false when this step (or a later one) was used already. */
async function spendStep(ctx: TIdpContext, userId: string, step: number, extra: Partial<TIdpUser> = {}) {
  const rows = await ctx.db
    .update(idpUsers)
    .set({ totpLastStep: step, ...extra })
    .where(and(eq(idpUsers.id, userId), or(isNull(idpUsers.totpLastStep), lt(idpUsers.totpLastStep, step))))
    .returning({ id: idpUsers.id });
  return rows.length > 0;
}

const setupMismatch = () =>
  new IdpError('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA');

/**
 * VerifySoftwareToken: the pending key becomes the user's key. `enable` (the MFA_SETUP of a
 * sign-in) also turns TOTP on and prefers it; otherwise SetUserMFAPreference does that.
 */
export async function verifyPendingTotp(
  ctx: TIdpContext,
  user: TIdpUser,
  code: string,
  opts: { friendlyName?: string; enable: boolean },
): Promise<void> {
  if (!user.totpPendingSecret)
    throw invalidParameter('User has not associated a software token: call AssociateSoftwareToken first.');
  const secret = await ctx.secrets.open(user.totpPendingSecret, totpSealContext(user.id));
  const step = totpStep(secret, code);
  if (step === null) throw setupMismatch();
  const used = await spendStep(ctx, user.id, step, {
    totpSecret: user.totpPendingSecret,
    totpPendingSecret: null,
    totpDeviceName: opts.friendlyName || null,
    ...(opts.enable ? { totpEnabled: true, mfaPreferred: SOFTWARE_TOKEN_MFA } : {}),
  });
  if (!used) throw setupMismatch();
  await emit(ctx, user.id, { kind: 'mfa_changed', totp: opts.enable ? 'enabled' : 'verified' });
}

/**
 * A sign-in's SOFTWARE_TOKEN_MFA answer: the authenticator's code, or one of the user's recovery
 * codes (spent by this use). Wrong codes count towards the same growing lock as wrong passwords
 * (Cognito locks after five wrong MFA codes too), in a counter of their own.
 */
export async function checkTotpCode(ctx: TIdpContext, user: TIdpUser, code: string): Promise<void> {
  const key = `mfa:${user.id}`;
  const slot = await takeSignInAttempt(ctx.db, key);
  if (!slot.allowed) throw E.passwordAttempts();
  if (code.length <= 20 && isRecoveryCodeShape(code)) {
    const left = await spendRecoveryCode(ctx.db, ctx.secrets, user.id, code);
    if (left !== null) {
      await releaseAttempts(ctx.db, key, slot);
      await emit(ctx, user.id, { kind: 'recovery_code_used', left });
      return;
    }
  }
  const secret = user.totpSecret ? await ctx.secrets.open(user.totpSecret, totpSealContext(user.id)) : null;
  const step = secret ? totpStep(secret, code) : null;
  if (step !== null && (await spendStep(ctx, user.id, step))) {
    await releaseAttempts(ctx.db, key, slot);
    return;
  }
  if (slot.last) {
    await emit(ctx, user.id, { kind: 'locked_out', reason: 'mfa_code', seconds: slot.retryS });
    throw E.passwordAttempts();
  }
  await emit(ctx, user.id, { kind: 'sign_in_failed', reason: 'mfa_code' });
  throw E.mfaCodeMismatch();
}
