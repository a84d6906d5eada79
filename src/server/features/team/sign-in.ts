import { and, eq } from 'drizzle-orm';
import { actorOf } from '../../auth';
import type { TExecutor } from '../../db/client';
import { members } from '../../db/schema';
import type { TIdpEvent } from '../../idp/deps';
import { audit } from '../system-log';

/**
 * A staff sign-in through the embedded identity provider (its `onSignIn`, in the transaction that
 * starts the session): one `member.sign_in` row per firm the person is an active member of, with
 * the address and user agent. A person with no active membership (still onboarding, disabled)
 * leaves no row: there is no firm to log it in.
 */
async function activeMemberships(tx: TExecutor, sub: string) {
  return tx
    .select({
      orgId: members.orgId,
      memberId: members.id,
      email: members.email,
      firstName: members.firstName,
      lastName: members.lastName,
    })
    .from(members)
    .where(and(eq(members.sub, sub), eq(members.status, 'active')));
}

type TMembership = Awaited<ReturnType<typeof activeMemberships>>[number];

const who = (m: TMembership) => {
  const name = `${m.firstName} ${m.lastName}`.trim();
  return name ? `${name} (${m.email})` : m.email;
};

/**
 * A staff sign-in through the embedded identity provider (its `onSignIn`, in the transaction that
 * starts the session): one `member.sign_in` row per firm the person is an active member of, with
 * the address and user agent. A person with no active membership (still onboarding, disabled)
 * leaves no row: there is no firm to log it in.
 */
export async function logMemberSignIn(
  tx: TExecutor,
  signIn: { sub: string; ip: string; userAgent: string | null },
) {
  for (const m of await activeMemberships(tx, signIn.sub)) {
    await audit(tx, actorOf(m, { ip: signIn.ip, userAgent: signIn.userAgent }), {
      action: 'member.sign_in',
      recordType: 'member',
      recordId: m.memberId,
      summary: `${who(m)} signed in`,
    });
  }
}

const TOTP_CHANGES: Record<Extract<TIdpEvent, { kind: 'mfa_changed' }>['totp'], string> = {
  verified: 'added an authenticator app',
  enabled: 'turned on two-step sign-in (authenticator app)',
  disabled: 'turned off two-step sign-in',
  preferred: 'made the authenticator app their preferred second step',
  not_preferred: 'no longer prefers the authenticator app',
};

const EMAIL_MFA_CHANGES: Record<Extract<TIdpEvent, { kind: 'email_mfa_changed' }>['change'], string> = {
  enabled: 'turned on two-step sign-in by email code',
  disabled: 'turned off two-step sign-in by email code',
  preferred: 'made the email code their preferred second step',
  not_preferred: 'no longer prefers the email code',
};

const DEVICE_CHANGES: Record<Extract<TIdpEvent, { kind: 'device_changed' }>['change'], string> = {
  remembered: 'remembered a device',
  not_remembered: 'stopped remembering a device',
  forgotten: 'forgot a device',
};

const wrong = (reason: 'password' | 'mfa_code' | 'email_code') =>
  reason === 'password' ? 'password' : reason === 'mfa_code' ? 'authenticator code' : 'email code';

function describe(event: TIdpEvent): { action: string; summary: string } {
  switch (event.kind) {
    case 'sign_in_failed':
      return { action: 'member.sign_in_failed', summary: `failed to sign in (wrong ${wrong(event.reason)})` };
    case 'locked_out':
      return {
        action: 'member.locked_out',
        summary: `was locked out for ${event.seconds} s after repeated wrong ${wrong(event.reason)}s`,
      };
    case 'mfa_changed':
      return { action: 'member.mfa_changed', summary: TOTP_CHANGES[event.totp] };
    case 'email_mfa_changed':
      return { action: 'member.mfa_changed', summary: EMAIL_MFA_CHANGES[event.change] };
    case 'device_changed':
      return {
        action: `member.device_${event.change}`,
        summary: `${DEVICE_CHANGES[event.change]}${event.deviceName ? ` (${event.deviceName.slice(0, 120)})` : ''}`,
      };
    case 'signed_out_everywhere':
      return { action: 'member.signed_out_everywhere', summary: 'signed out on every device' };
    case 'recovery_code_used':
      return {
        action: 'member.recovery_code_used',
        summary: `signed in with a recovery code (${event.left} left)`,
      };
    case 'recovery_codes_made':
      return {
        action: 'member.recovery_codes',
        summary: 'made a new set of recovery codes (the earlier ones no longer work)',
      };
  }
}

/**
 * The identity provider's other security events (its `onEvent`): failed sign-ins, lock-outs, MFA
 * and device changes, global sign-outs, one row per firm the person is an active member of.
 */
export async function logMemberSecurityEvent(
  tx: TExecutor,
  event: TIdpEvent & { sub: string; ip: string; userAgent: string | null },
) {
  const { action, summary } = describe(event);
  for (const m of await activeMemberships(tx, event.sub)) {
    await audit(tx, actorOf(m, { ip: event.ip, userAgent: event.userAgent }), {
      action,
      recordType: 'member',
      recordId: m.memberId,
      summary: `${who(m)} ${summary}`,
    });
  }
}
