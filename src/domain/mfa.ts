import { z } from 'zod';
import { zId, zInt, zString } from './fields';

export { MFA_SETUP_REQUIRED_MESSAGE } from './mfa-constants';

// Two-step sign-in (TOTP) as the firm requires it, and the recovery codes that stand in for a lost
// authenticator. The identity provider checks codes; the firm's rule lives in the app.

export const MFA_POLICIES = ['off', 'all', 'roles'] as const;
export type TMfaPolicyKind = (typeof MFA_POLICIES)[number];

export const MFA_GRACE_DAYS_MAX = 90;

/** The Firm settings form and `settings.updateMfaPolicy`. */
export const ZMfaPolicy = z
  .object({
    policy: z.enum(MFA_POLICIES),
    roleIds: z.array(zId('Choose a role from the list')).max(200, 'Too many roles'),
    graceDays: zInt({ error: 'Enter whole days' })
      .min(0, 'Grace days cannot be negative')
      .max(MFA_GRACE_DAYS_MAX, `Grace is at most ${MFA_GRACE_DAYS_MAX} days`),
  })
  .refine((v) => v.policy !== 'roles' || v.roleIds.length > 0, {
    path: ['roleIds'],
    message: 'Choose at least one role',
  });
export type TMfaPolicyInput = z.input<typeof ZMfaPolicy>;
export type TMfaPolicy = z.output<typeof ZMfaPolicy>;

export const RECOVERY_CODE_COUNT = 10;

/** Ten characters of Crockford-like base32 shown as xxxxx-xxxxx (50 bits each). */
export const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as typed: case, spaces and dashes do not matter. */
export function normaliseRecoveryCode(value: string): string {
  return value.toLowerCase().replace(/[\s-]/g, '');
}

export function isRecoveryCodeShape(value: string): boolean {
  return /^[a-z0-9]{10}$/.test(normaliseRecoveryCode(value));
}

/** A six-digit authenticator code or a recovery code, as the sign-in's second step accepts. */
export const ZSecondFactorCode = z.object({
  code: zString()
    .trim()
    .min(1, 'Enter the code')
    .max(20, 'Enter the six-digit code or a recovery code')
    .refine(
      (v) => /^\d{6}$/.test(v) || isRecoveryCodeShape(v),
      'Enter the six-digit code or a recovery code',
    ),
});
export type TSecondFactorCode = z.infer<typeof ZSecondFactorCode>;

export const ZTotpCode = z.object({
  code: zString()
    .trim()
    .regex(/^\d{6}$/, 'Enter the six-digit code from your authenticator app'),
});
export type TTotpCode = z.infer<typeof ZTotpCode>;

/** The MFA state of the signed-in member, for the set-up redirect and the Security card. */
export type TMfaStatus = {
  /** Either second step is on (what the firm's rule asks for). */
  enabled: boolean;
  /** The authenticator app (TOTP). */
  totpEnabled: boolean;
  /** A code mailed to the verified email (EMAIL_OTP). */
  emailEnabled: boolean;
  /** The firm's rule applies to this member. */
  required: boolean;
  /** When their grace ends (null when not required or already set up). */
  dueAt: Date | null;
  /** Past the grace period without an authenticator: staff calls are refused. */
  overdue: boolean;
  recoveryCodesLeft: number;
  /** Whether the identity provider is the embedded one (recovery codes and the rule need it). */
  available: boolean;
};
