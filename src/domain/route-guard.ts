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

/** Where the guard sends the browser, or null to let the route open. */
export function guardRedirect(input: TGuardInput): string | null {
  if (isPortalPath(input.pathname)) {
    if (input.hasPortalCookie) {
      return input.isPublic && !input.skipRedirect ? ROUTE_PATHS['clientportal-index'] : null;
    }
    return input.isPublic ? null : ROUTE_PATHS['clientportal-auth-login'];
  }
  if (input.hasStaffCookie) {
    return input.isPublic && !input.skipRedirect ? ROUTE_PATHS.index : null;
  }
  return input.isPublic ? null : ROUTE_PATHS['auth-login'];
}

/** The login page a failed call's 401 leads to (SPEC.md §8). */
export function unauthorizedRedirect(procedurePath: string): string {
  return isPortalProcedure(procedurePath)
    ? ROUTE_PATHS['clientportal-auth-login']
    : ROUTE_PATHS['auth-login'];
}
