import { z } from 'zod';
import { zText } from './fields';
import { ZPageInput } from './pagination';

export { SIGN_INS_PAGE_SIZE } from './security-constants';

/** The sign-in events My account → Security lists (the identity provider logs them per firm). */
export const SIGN_IN_ACTIONS = ['member.sign_in', 'member.sign_in_failed', 'member.locked_out'] as const;
export type TSignInAction = (typeof SIGN_IN_ACTIONS)[number];

export const SIGN_IN_OUTCOMES: Record<TSignInAction, string> = {
  'member.sign_in': 'Signed in',
  'member.sign_in_failed': 'Failed',
  'member.locked_out': 'Locked out',
};

export const ZSignInList = ZPageInput.pick({ page: true, pageSize: true });
export type TSignInListQuery = z.infer<typeof ZSignInList>;

/** Why a firm's owner cannot delete their account, wherever they ask (the app or the pool). */
export const OWNER_CANNOT_DELETE =
  'The firm’s owner cannot delete their account: transfer ownership to another member first';

/** The password is checked as typed: no trimming. */
export const ZDeleteAccount = z.object({
  password: zText({ max: 256, min: 1, trim: false, label: 'Password', minMessage: 'Enter your password' }),
});
export type TDeleteAccount = z.infer<typeof ZDeleteAccount>;

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/Chrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\biPhone\b|\biPad\b|\biOS\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A person's word for the browser behind a user agent ("Firefox on Windows"); what it cannot read
 * comes back as given (Amplify names a device by its user agent), shortened, or null.
 */
export function describeUserAgent(agent: string | null | undefined): string | null {
  const ua = agent?.trim();
  if (!ua) return null;
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return (browser ?? system) as string;
  return ua.length > 60 ? `${ua.slice(0, 57)}…` : ua;
}
