import { analyticsEnabled, eventProperties, personProperties, type TAnalyticsUser } from '@domain/analytics';
import posthog from 'posthog-js';
import { appConfig } from './config';
import { hasStaffCookie } from './cookies';

let active = false;
let routeChanges = 0;

/** Starts product analytics on the production host only (SPEC.md §1); a no-op anywhere else. */
export function startAnalytics(): void {
  const { posthog: settings, productionHost } = appConfig;
  if (!settings || !analyticsEnabled(window.location.host, productionHost, settings.key)) return;
  posthog.init(settings.key, {
    api_host: settings.host,
    autocapture: false,
    // Page views are sent by the router, once per route change, with the full path.
    capture_pageview: false,
    capture_pageleave: false,
    persistence: 'localStorage+cookie',
  });
  active = true;
}

/**
 * After each route change: a page view with the full path; on the first one, with the staff login
 * cookie present, identify the member (the layout's loader has already fetched the profile).
 */
export function trackRouteChange(fullPath: string, signedInUser: () => TAnalyticsUser | undefined): void {
  if (!active) return;
  routeChanges += 1;
  if (routeChanges === 1 && hasStaffCookie()) {
    const user = signedInUser();
    if (user) {
      posthog.identify(user.id, personProperties(user));
      posthog.register(eventProperties(user));
    }
  }
  posthog.capture('$pageview', { $current_url: window.location.href, path: fullPath });
}

/** A different person may sign in next on this browser: forget this one. */
export function resetAnalytics(): void {
  if (active) posthog.reset();
}
