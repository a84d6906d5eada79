import { ERROR_TOAST_MS } from '@domain/constants';
import { isPortalProcedure, ROUTE_PATHS, unauthorizedRedirect } from '@domain/route-guard';
import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { toast } from 'sonner';
import superjson from 'superjson';
// biome-ignore lint/style/noRestrictedImports: the web app imports the router's type, nothing else.
import type { AppRouter } from '../../server/trpc/router';
import { clearPortalCookie } from './cookies';

export type { AppRouter };

type THandlers = {
  /** Sends the browser to a page (login, onboarding). */
  redirect: (path: string) => void;
  /** Drops the staff session this browser holds, so the guard stops treating it as signed in. */
  clearStaffSession: () => Promise<void>;
  /** The staff access token header; portal calls carry their own httpOnly cookie instead. */
  staffHeaders: () => Promise<Record<string, string>> | Record<string, string>;
};

const handlers: THandlers = {
  redirect: (path) => window.location.assign(path),
  clearStaffSession: async () => {},
  staffHeaders: () => ({}),
};

export function configureTrpc(next: Partial<THandlers>): void {
  Object.assign(handlers, next);
}

export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError || error instanceof Error) return error.message || 'Network Error';
  return 'Network Error';
}

/**
 * Every failed product call shows its message in a toast for 4000 ms; a 401 leads to the login of
 * the audience the procedure belongs to (SPEC.md §8).
 */
export function reportCallError(error: unknown, procedurePath: string): void {
  const code =
    error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
  if (code === 'PRECONDITION_FAILED' && !isPortalProcedure(procedurePath)) {
    // Signed in but without a firm yet: not an error, the next step of signing up.
    if (window.location.pathname !== ROUTE_PATHS.onboarding) handlers.redirect(ROUTE_PATHS.onboarding);
    return;
  }
  const message = errorMessage(error);
  // One toast per message: a screen whose calls all fail alike (a session gone stale under a page
  // that loads three things at once) says it once.
  toast.error(message, { id: message, duration: ERROR_TOAST_MS });
  const status =
    error instanceof TRPCClientError
      ? (error.data as { httpStatus?: number } | undefined)?.httpStatus
      : undefined;
  if (status === 401) {
    const target = unauthorizedRedirect(procedurePath);
    if (window.location.pathname === target) return;
    // An invalid staff session signs out and clears cached items (SPEC.md §4), or the guard would
    // send the login straight back to the page that failed.
    if (isPortalProcedure(procedurePath)) {
      // The server clears the cookies with its 401; clearing here too keeps the guard from sending
      // the portal login straight back to the page that failed, whatever the answer carried.
      clearPortalCookie();
      handlers.redirect(target);
    } else void handlers.clearStaffSession().finally(() => handlers.redirect(target));
  }
}

const errorLink: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          reportCallError(error, op.path);
          observer.error(error);
        },
        complete: () => observer.complete(),
      }),
    );

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    errorLink,
    httpBatchLink({
      url: '/api/trpc',
      transformer: superjson,
      headers: ({ opList }) =>
        opList.some((op) => !isPortalProcedure(op.path)) ? handlers.staffHeaders() : {},
    }),
  ],
});

/**
 * Queries' retry rule, for an idempotent mutation too: auth and validation failures will not
 * change on a retry; a dropped connection might.
 */
export function retryTransient(count: number, error: unknown) {
  const status = error instanceof TRPCClientError ? error.data?.httpStatus : undefined;
  return typeof status === 'number' && status < 500 ? false : count < 2;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: retryTransient,
      refetchOnWindowFocus: false,
    },
  },
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
