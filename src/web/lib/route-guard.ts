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

/**
 * An id as the server's `zId` (zod's `z.uuid()`) accepts it: an RFC 9562 uuid (version 1-8, its
 * variant bits), or the nil and max ones. Route checks use it without zod, so a link the server would
 * refuse answers 404 before it is asked (`route-guard.test.ts` compares the two).
 */
const RECORD_ID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
export const isRecordId = (value: string) => RECORD_ID.test(value);
