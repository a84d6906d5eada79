import { Secret, TOTP } from 'otpauth';

// RFC 6238 codes as every authenticator app makes them (SHA-1, six digits, 30 seconds), through
// the otpauth library.

export const TOTP_PERIOD_S = 30;

/** The name authenticator apps show beside the code (the web app's set-up screen uses the same). */
export const TOTP_ISSUER = 'Practice';

/** A fresh 160-bit key, base32 (Cognito's SecretCode; what the QR code's otpauth:// URI carries). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The 30-second step a code belongs to, when it is the code of this step or of one step either
 * side (a phone's clock a little off); null otherwise.
 */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new TOTP({
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
  });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

/** The otpauth:// address an authenticator app scans (what Amplify's getSetupUri makes). */
export function totpUri(secretBase32: string, issuer: string, account: string): string {
  return new TOTP({ issuer, label: account, secret: Secret.fromBase32(secretBase32) }).toString();
}
