import { QueryClientProvider } from '@tanstack/react-query';
import { type AnyRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startAnalytics, trackRouteChange } from '../../lib/analytics';
import { staffAuthHeaders, startStaffAuth } from '../../lib/auth';
import { installChunkReloadGuard } from '../../lib/chunk-reload';
import { installFatalErrorHandlers } from '../../lib/fatal-error';
import { signOutStaff } from '../../lib/session';
import { startTagManager } from '../../lib/tag-manager';
import { configureTrpc, queryClient, trpc } from '../../lib/trpc';
import { Toaster } from '../../ui';
import { installToasterLoading } from '../../ui/toaster';
import { PageLoading } from '../shell/page-loading';

/** The router of one page (the staff app's index.html or the portal's portal.html). */
export function createAppRouter<TTree extends AnyRoute>(routeTree: TTree) {
  return createRouter({
    routeTree,
    context: { queryClient, trpc },
    defaultPreload: 'intent',
    // Loaders read through React Query's cache, which decides freshness.
    defaultPreloadStaleTime: 0,
    scrollRestoration: false,
    // Pages scroll inside the layout's <main>, not the window: reset it too on navigation.
    scrollToTopSelectors: ['#main'],
    // A loader still waiting (a 5xx being retried with backoff) shows that it is loading, never a
    // blank page.
    defaultPendingComponent: PageLoading,
    defaultPendingMs: 300,
  });
}

type TAppRouter = ReturnType<typeof createAppRouter>;

/** What both pages do at start: sessions, tRPC's handlers, analytics, the guards, then render. */
export function startApp(router: TAppRouter): void {
  startStaffAuth();
  configureTrpc({
    redirect: (path) => void router.navigate({ href: path, replace: true }),
    staffHeaders: staffAuthHeaders,
    // The session is already refused: the one sign-out path, without its server call and without
    // a page load (the router opens the login, so the failure's toast stays in view).
    clearStaffSession: async (target) => {
      queryClient.clear();
      return signOutStaff({ server: false, returnTo: target, load: false });
    },
  });

  startAnalytics();
  startTagManager();
  router.subscribe('onResolved', ({ toLocation }) =>
    trackRouteChange(toLocation.href, () => queryClient.getQueryData(trpc.profile.me.queryKey())),
  );
  installToasterLoading();
  installChunkReloadGuard();
  installFatalErrorHandlers();

  const root = document.getElementById('app');
  if (!root) throw new Error('#app is missing from the page');
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        {/* Beside the router, not in a route: a toast raised while the first page still loads (its
            call refused, waiting the Retry-After) shows, rather than a blank page. */}
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  );
}
