// When the third-party scripts may run (SPEC.md §1). Each is off unless configured, and never on
// a host that is not the production host, so staging never leaks into production analytics.

export const GTM_ID_PATTERN = /^GTM-[0-9A-Z]+$/;

/** Analytics runs only when the page's host (with its port, if any) is the production host. */
export function analyticsEnabled(
  pageHost: string,
  productionHost: string | null,
  key: string | null,
): boolean {
  return Boolean(key && productionHost && pageHost === productionHost);
}

/**
 * The tag manager runs only when the page's hostname equals the production host and the id is
 * well-formed. A port in the configured host is not part of a hostname, so it is left out.
 */
export function tagManagerEnabled(
  hostname: string,
  productionHost: string | null,
  gtmId: string | null,
): boolean {
  if (!productionHost || !gtmId || !GTM_ID_PATTERN.test(gtmId)) return false;
  return hostname === productionHost.replace(/:\d+$/, '');
}

export type TAnalyticsUser = {
  id: string;
  email: string;
  fullName: string;
  firstName: string;
  lastName: string;
  org: { id: string };
  role: { name: string };
  isVerified: boolean;
  isOwner: boolean;
};

/** Person properties sent with identify: email and full name (SPEC.md §1). */
export function personProperties(user: TAnalyticsUser) {
  return { email: user.email, name: user.fullName };
}

/** Properties every later event carries (SPEC.md §3, §6). */
export function eventProperties(user: TAnalyticsUser) {
  return {
    first_name: user.firstName,
    last_name: user.lastName,
    org_id: user.org.id,
    role: user.role.name,
    is_verified: user.isVerified,
    is_owner: user.isOwner,
  };
}
