/**
 * Why a staff member was signed out, as `/auth/login?reason={key}`: the login page shows the
 * message beside its form. A key, never free text, so a link cannot make the page say anything.
 */
export const ACCESS_TURNED_OFF_MESSAGE = 'Your access to this firm has been turned off';

export const SIGNED_OUT_REASONS = {
  'access-off': ACCESS_TURNED_OFF_MESSAGE,
} as const;

export type TSignedOutReason = keyof typeof SIGNED_OUT_REASONS;

export function parseSignedOutReason(value: unknown): TSignedOutReason | undefined {
  return typeof value === 'string' && Object.hasOwn(SIGNED_OUT_REASONS, value)
    ? (value as TSignedOutReason)
    : undefined;
}
