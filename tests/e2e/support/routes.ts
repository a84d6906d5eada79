/**
 * The screens of SPEC.md §2, as patterns: `{name}` stands for one path segment. The accessibility
 * audit groups what it sees by these, so it looks at a screen once however many ids a test visits.
 */
export const STAFF_ROUTES = [
  '/',
  '/onboarding',
  '/clients',
  '/clients/{id}',
  '/clients/{id}/billing',
  '/clients/{id}/client-tasks',
  '/clients/{id}/client-users',
  '/clients/{id}/documents',
  '/clients/{id}/documents/{folderId}',
  '/clients/{id}/projects',
  '/clients/{id}/services',
  '/clients/{id}/tasks',
  '/clients/{id}/team',
  '/projects',
  '/projects/{id}',
  '/tasks',
  '/tasks/filters/{tag}',
  '/reminders/{type}',
  '/reports',
  '/reports/client/summary',
  '/reports/services/summary',
  '/reports/team/summary',
  '/reports/billing/summary',
  '/reports/requests/outstanding',
  // The statutory calendar (issue 39).
  '/reports/statutory/gaps',
  '/team/leaves',
  '/team/members',
  '/team/timesheets',
  '/my-account/leaves',
  '/my-account/notifications',
  '/my-account/security',
  '/my-account/timesheet',
  '/vault/documents',
  '/vault/documents/{folderId}',
  '/vault/passwords',
  // Billing (issue 35): beyond SPEC.md, audited as its screens are.
  '/billing/wip',
  '/billing/wip/{clientId}',
  '/billing/invoices',
  '/billing/invoices/{id}',
  '/billing/payments',
  '/billing/payments/{id}',
  '/billing/receivables',
  '/admin/settings/billing',
  // The public API's keys (issue 40).
  '/admin/settings/api',
  '/admin/settings/webhooks',
  // Client requests (issue 36): beyond SPEC.md, audited as its screens are.
  '/requests',
  '/requests/{id}',
  '/clients/{id}/requests',
  '/admin/templates/requests',
  '/admin/templates/requests/{id}',
  // Proposals and engagement letters (issue 37).
  '/proposals',
  '/proposals/{id}',
  '/admin/templates/proposals',
  '/admin/templates/proposals/{id}',
  // Automations (issue 41).
  '/admin/automations',
  // Client messages (issue 38).
  '/messages',
  '/clients/{id}/messages',
  '/admin',
  '/admin/broadcasts',
  '/admin/clientgroups',
  '/admin/clientgroups/{id}',
  '/admin/hrms/holidays',
  '/admin/hrms/leaves',
  '/admin/roles',
  '/admin/services',
  '/admin/services/{id}/clients',
  '/admin/services/{id}/projects',
  '/admin/statutory',
  '/admin/settings/org',
  '/admin/systemlog',
  '/admin/templates/broadcasts',
  '/admin/templates/projects',
  '/admin/templates/projects/{id}',
] as const;

export const STAFF_AUTH_ROUTES = [
  '/auth/login',
  '/auth/register',
  '/auth/forgotpassword',
  '/auth/invite/{key}',
  '/auth/resetpassword/{key}',
  '/auth/verify/{key}',
  '/auth/logout',
] as const;

export const PORTAL_ROUTES = [
  '/clientportal',
  '/clientportal/{clientId}',
  '/clientportal/{clientId}/documents',
  '/clientportal/{clientId}/documents/{folderId}',
  '/clientportal/{clientId}/projects',
  '/clientportal/{clientId}/calendar',
  '/clientportal/{clientId}/tasks',
  '/clientportal/{clientId}/tasks/{tag}',
  '/clientportal/{clientId}/invoices',
  '/clientportal/{clientId}/requests',
  '/clientportal/{clientId}/requests/{requestId}',
  '/clientportal/{clientId}/messages',
  '/clientportal/{clientId}/sign',
  '/clientportal/{clientId}/sign/{proposalId}',
  '/clientportal/auth/login',
  '/clientportal/auth/invite/{key}',
  '/clientportal/auth/logout',
] as const;

const ALL = [...STAFF_ROUTES, ...STAFF_AUTH_ROUTES, ...PORTAL_ROUTES];

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/**
 * The SPEC pattern a path belongs to; of several, the one with the most fixed segments
 * (`/clientportal/auth/login` rather than `/clientportal/{clientId}/…`). A path that is no screen of
 * the spec (a 404) stands for itself.
 */
export function routePattern(pathname: string): string {
  const parts = segments(pathname);
  let best: { pattern: string; fixed: number } | undefined;
  for (const pattern of ALL) {
    const want = segments(pattern);
    if (want.length !== parts.length) continue;
    let fixed = 0;
    const fits = want.every((w, i) => {
      if (w.startsWith('{')) return true;
      fixed += 1;
      return w === parts[i];
    });
    if (fits && (!best || fixed > best.fixed)) best = { pattern, fixed };
  }
  return best?.pattern ?? pathname;
}

/**
 * The search parameter that picks another view of the same address (the services report's
 * `?view=grid`): a view is a screen of its own for the audits, which would otherwise look at
 * whichever view of the route a run showed first and never at the others.
 */
export const VIEW_PARAM = 'view';

/** The screen a URL shows: its SPEC pattern, and its view when it names one. */
export function screenOf(url: string): string {
  const parsed = new URL(url);
  const view = parsed.searchParams.get(VIEW_PARAM);
  return `${routePattern(parsed.pathname)}${view ? `?${VIEW_PARAM}=${view}` : ''}`;
}
