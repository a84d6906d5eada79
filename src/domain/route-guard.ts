// The route guard of SPEC.md §4. It is a convenience for the person at the browser (the cookie's
// presence, not its validity): the server verifies every call.

export const ROUTE_PATHS = {
  index: '/',
  'auth-login': '/auth/login',
  'clientportal-auth-login': '/clientportal/auth/login',
  'clientportal-index': '/clientportal',
  onboarding: '/onboarding',
} as const;

export type TGuardInput = {
  pathname: string;
  /** The path with its search and hash, kept as the login's `?next=` when the guard sends it there. */
  href?: string;
  /** A public route's `?next=`: where a person already signed in goes instead of home. */
  next?: unknown;
  /** The route is reachable without signing in. */
  isPublic: boolean;
  /** A public route that a signed-in user may still open (staff: /auth/verify; portal: flagged routes). */
  skipRedirect?: boolean;
  hasStaffCookie: boolean;
  hasPortalCookie: boolean;
};

/** Any route whose name (path) contains "clientportal" counts as the portal. */
export function isPortalPath(pathname: string): boolean {
  return pathname === '/clientportal' || pathname.startsWith('/clientportal/');
}

export function isPortalProcedure(path: string): boolean {
  return path.startsWith('clientPortal');
}

export type TZone = 'staff' | 'portal';

const zoneOf = (pathname: string): TZone => (isPortalPath(pathname) ? 'portal' : 'staff');

// Any origin will do: only whether a value stays on it matters.
const PROBE_ORIGIN = 'https://practice.invalid';
const MAX_RETURN_PATH = 2000;

function hasUnsafeCharacter(value: string, orSpace: boolean): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\' || (orSpace && /\s/.test(char))) return true;
  }
  return false;
}

/**
 * The page a login returns to after signing in (`?next=`): a path of this app in the login's own
 * zone, or null. An address that could leave the app (`//host`, `/\host`, `https://…`, the same
 * hidden behind percent-encoding, tabs or newlines, which browsers drop) is refused, so a crafted
 * link cannot use the sign-in to send a person elsewhere; so are the sign-in pages themselves.
 */
export function safeReturnPath(value: unknown, zone: TZone): string | null {
  if (typeof value !== 'string' || value.length > MAX_RETURN_PATH) return null;
  // Control characters, whitespace and backslashes have no place in a path the app makes.
  if (!value.startsWith('/') || hasUnsafeCharacter(value, true)) return null;
  let decoded = value;
  for (let round = 0; round < 3; round++) {
    if (/^\/[\\/]/.test(decoded) || hasUnsafeCharacter(decoded, false)) return null;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) break;
    decoded = next;
  }
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN || zoneOf(url.pathname) !== zone) return null;
  const signInPages = zone === 'portal' ? '/clientportal/auth/' : '/auth/';
  if (url.pathname.startsWith(signInPages)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A login page's address that returns to `href` after signing in (home needs no `?next=`). */
export function loginWithReturn(login: string, href: string | undefined): string {
  const zone = zoneOf(login);
  const next = safeReturnPath(href, zone);
  const home = zone === 'portal' ? ROUTE_PATHS['clientportal-index'] : ROUTE_PATHS.index;
  return next && next !== home ? `${login}?next=${encodeURIComponent(next)}` : login;
}

/** Where the guard sends the browser, or null to let the route open. */
export function guardRedirect(input: TGuardInput): string | null {
  if (isPortalPath(input.pathname)) {
    if (input.hasPortalCookie) {
      if (!input.isPublic || input.skipRedirect) return null;
      return safeReturnPath(input.next, 'portal') ?? ROUTE_PATHS['clientportal-index'];
    }
    return input.isPublic ? null : loginWithReturn(ROUTE_PATHS['clientportal-auth-login'], input.href);
  }
  if (input.hasStaffCookie) {
    if (!input.isPublic || input.skipRedirect) return null;
    return safeReturnPath(input.next, 'staff') ?? ROUTE_PATHS.index;
  }
  return input.isPublic ? null : loginWithReturn(ROUTE_PATHS['auth-login'], input.href);
}

/** The login page a failed call's 401 leads to (SPEC.md §8), returning to `href` once signed in. */
export function unauthorizedRedirect(procedurePath: string, href?: string): string {
  return loginWithReturn(
    isPortalProcedure(procedurePath) ? ROUTE_PATHS['clientportal-auth-login'] : ROUTE_PATHS['auth-login'],
    href,
  );
}
