import { analyticsEnabled, eventProperties, personProperties, type TAnalyticsUser } from '@domain/analytics';
import type { PostHog } from 'posthog-js';
import { appConfig } from './config';
import { hasStaffCookie } from './cookies';

// posthog-js is fetched only where analytics runs (a chunk of its own): nobody else downloads it.
let client: Promise<PostHog> | null = null;
let routeChanges = 0;

/** Starts product analytics on the production host only (SPEC.md §1); a no-op anywhere else. */
export function startAnalytics(): void {
  const { posthog: settings, productionHost } = appConfig;
  if (!settings || !analyticsEnabled(window.location.host, productionHost, settings.key)) return;
  client = import('posthog-js').then(({ default: posthog }) => {
    posthog.init(settings.key, {
      api_host: settings.host,
      autocapture: false,
      // Page views are sent by the router, once per route change, with the full path.
      capture_pageview: false,
      capture_pageleave: false,
      persistence: 'localStorage+cookie',
    });
    return posthog;
  });
}

/**
 * After each route change: a page view with the full path; on the first one, with the staff login
 * cookie present, identify the member (the layout's loader has already fetched the profile). Calls
 * made while posthog-js is still loading are sent, in order, once it has.
 */
export function trackRouteChange(fullPath: string, signedInUser: () => TAnalyticsUser | undefined): void {
  if (!client) return;
  routeChanges += 1;
  const first = routeChanges === 1;
  const url = window.location.href;
  const user = first && hasStaffCookie() ? signedInUser() : undefined;
  void client.then((posthog) => {
    if (user) {
      posthog.identify(user.id, personProperties(user));
      posthog.register(eventProperties(user));
    }
    posthog.capture('$pageview', { $current_url: url, path: fullPath });
  });
}

/** A different person may sign in next on this browser: forget this one. */
export function resetAnalytics(): void {
  void client?.then((posthog) => posthog.reset());
}
