import { guardRedirect } from '@domain/route-guard';
import { notFound, type ParsedLocation, redirect, rootRouteId } from '@tanstack/react-router';
import { hasPortalCookie, hasStaffCookie } from './cookies';

/** For a route's beforeLoad: applies SPEC.md §4's guard for the zone the path belongs to. */
export function guard(
  location: ParsedLocation,
  options: { isPublic: boolean; skipRedirect?: boolean },
): void {
  const target = guardRedirect({
    pathname: location.pathname,
    href: location.href,
    next: (location.search as { next?: unknown }).next,
    isPublic: options.isPublic,
    skipRedirect: options.skipRedirect,
    hasStaffCookie: hasStaffCookie(),
    hasPortalCookie: hasPortalCookie(),
  });
  if (target && target !== location.pathname && target !== location.href)
    throw redirect({ href: target, replace: true });
}

export type TNotFoundData = { invalidRoute?: boolean };

/**
 * A route's validity check: a failed one shows 404 "Page Not Found: {fullPath}" (SPEC.md §8), the
 * root's screen whatever "not found" panel a route of its own has for a record the server does not
 * know (features/shell/record-not-found.tsx).
 */
export function ensureValidRoute(valid: boolean): void {
  if (!valid) throw notFound({ data: { invalidRoute: true } satisfies TNotFoundData, routeId: rootRouteId });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);
