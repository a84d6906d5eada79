// Business constants of SPEC.md §9, word for word where the spec names them.

export const ERROR_TOAST_MS = 4000;
/** How long the hosted sign-out (the provider's /logout) may take before "Signout timeout fail". */
export const SIGN_OUT_REDIRECT_TIMEOUT_MS = 3000;
export const CHUNK_RELOAD_GUARD_MS = 10_000;

/** Tailwind's default breakpoints, which are the spec's (px). */
export const BREAKPOINTS = { sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536 } as const;
export type TBreakpoint = keyof typeof BREAKPOINTS;

/** The large-screen flag is set from the lg breakpoint up. */
export function isLargeScreen(widthPx: number): boolean {
  return widthPx >= BREAKPOINTS.lg;
}

export const POOL_ID_MAX_LENGTH = 55;
export const AUTO_SIGN_IN_POLL_MS = 5_000;
export const AUTO_SIGN_IN_POLL_MAX_MS = 3 * 60_000;
export const COOKIE_DEFAULT_EXPIRY_DAYS = 365;

/** Lists never return more rows than this in one page, whatever the caller asks. */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 50;
