import { ERROR_TOAST_MS } from '@domain/constants';
import { MFA_SETUP_REQUIRED_MESSAGE } from '@domain/mfa-constants';
import { isPortalProcedure, ROUTE_PATHS, unauthorizedRedirect } from '@domain/route-guard';
import { ACCESS_TURNED_OFF_MESSAGE } from '@domain/signed-out';
import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, splitLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
// biome-ignore lint/style/noRestrictedImports: the web app imports the router's type, nothing else.
import type { AppRouter } from '../../server/trpc/router';
import { toast } from '../ui/toaster';
import { clearPortalCookie } from './cookies';

export type { AppRouter };

type THandlers = {
  /** Sends the browser to a page (login, onboarding). */
  redirect: (path: string) => void;
  /**
   * Drops the staff session this browser holds, so the guard stops treating it as signed in, and
   * answers true when it has taken the browser to `target` itself (the one sign-out path does).
   */
  clearStaffSession: (target: string) => Promise<boolean | undefined>;
  /** The staff access token header; portal calls carry their own httpOnly cookie instead. */
  staffHeaders: () => Promise<Record<string, string>> | Record<string, string>;
};

const handlers: THandlers = {
  redirect: (path) => window.location.assign(path),
  clearStaffSession: async () => false,
  staffHeaders: () => ({}),
};

export function configureTrpc(next: Partial<THandlers>): void {
  Object.assign(handlers, next);
}

/**
 * What the transport says when no tRPC answer came back (a proxy's error page, a dropped
 * connection): words for programmers, said again for a person.
 */
const TRANSPORT_MESSAGES: Record<string, string> = {
  'Unable to transform response from server':
    'The server’s answer could not be read. Please try again; if it keeps happening, reload the page.',
  'Failed to fetch': 'Network Error',
  'Load failed': 'Network Error',
  'NetworkError when attempting to fetch resource.': 'Network Error',
};

const UNREADABLE = TRANSPORT_MESSAGES['Unable to transform response from server'] as string;

export function errorMessage(error: unknown): string {
  if (!(error instanceof Error) || !error.message) return 'Network Error';
  // A body that is not JSON (a proxy's page, a bare "boom"): the parser's words are not for people.
  if (
    error.cause instanceof SyntaxError ||
    /is not valid JSON|Unexpected token|JSON\.parse/.test(error.message)
  )
    return UNREADABLE;
  // A part of the app gone after a deployment (SPEC's reload rule reloads once): the browser's
  // words name a file, not what a person can do.
  if (/dynamically imported module|Importing a module script failed/.test(error.message))
    return 'A part of the app could not be loaded. Reload the page to get the latest version.';
  return TRANSPORT_MESSAGES[error.message] ?? error.message;
}

type TErrorData = { code?: string; httpStatus?: number } | undefined;

const errorData = (error: unknown): TErrorData =>
  error instanceof TRPCClientError ? (error.data as TErrorData) : undefined;

/** The server's answer is "this record does not exist, or is not yours": the screen shows its panel. */
export function isNotFound(error: unknown): boolean {
  return errorData(error)?.code === 'NOT_FOUND';
}

/**
 * The member's access to the firm was turned off (src/server/auth/scope.ts): every staff call now
 * answers this, so the session is over, not one screen broken.
 */
export function isAccessTurnedOff(error: unknown): boolean {
  return (
    errorData(error)?.code === 'FORBIDDEN' &&
    error instanceof TRPCClientError &&
    error.message === ACCESS_TURNED_OFF_MESSAGE
  );
}

/** The firm's two-step sign-in rule holds the member's calls back until they set it up. */
export function isMfaSetupRequired(error: unknown): boolean {
  return (
    errorData(error)?.code === 'FORBIDDEN' &&
    error instanceof TRPCClientError &&
    error.message === MFA_SETUP_REQUIRED_MESSAGE
  );
}

export const MFA_SETUP_PATH = '/auth/mfa-setup';

/** Where a turned-off member lands: the staff login, which says why. */
export const ACCESS_TURNED_OFF_LOGIN = `${ROUTE_PATHS['auth-login']}?reason=access-off`;

let leaving = false;

/** Signs out, then to `target` unless the sign-out took the browser there (or through /logout). */
async function signOutTo(target: string): Promise<void> {
  const took = await handlers.clearStaffSession(target).catch(() => false);
  if (!took) handlers.redirect(target);
}

/** Signs the staff session out, then opens `target` (once, however many calls failed alike). */
function endStaffSession(target: string): void {
  if (leaving) return;
  leaving = true;
  void signOutTo(target).finally(() => {
    leaving = false;
  });
}

/**
 * Every failed product call shows its message in a toast for 4000 ms; a 401 leads to the login of
 * the audience the procedure belongs to (SPEC.md §8). A turned-off member is signed out to the
 * login, which says why (the toast says it too). A query's NOT_FOUND shows its toast like any other
 * failure, beside the screen's "not found" panel.
 */
export function reportCallError(error: unknown, procedurePath: string): void {
  const code = errorData(error)?.code;
  if (code === 'PRECONDITION_FAILED' && !isPortalProcedure(procedurePath)) {
    // Signed in but without a firm yet: not an error, the next step of signing up.
    if (window.location.pathname !== ROUTE_PATHS.onboarding) handlers.redirect(ROUTE_PATHS.onboarding);
    return;
  }
  const message = errorMessage(error);
  if (isMfaSetupRequired(error) && !isPortalProcedure(procedurePath)) {
    // Not a failure of this screen: the set-up page says why, once.
    if (window.location.pathname !== MFA_SETUP_PATH) handlers.redirect(MFA_SETUP_PATH);
    return;
  }
  if (isAccessTurnedOff(error) && !isPortalProcedure(procedurePath)) {
    toast.error(message, { id: message, duration: ERROR_TOAST_MS });
    if (window.location.pathname !== ROUTE_PATHS['auth-login']) endStaffSession(ACCESS_TURNED_OFF_LOGIN);
    return;
  }
  // One toast per message: a screen whose calls all fail alike (a session gone stale under a page
  // that loads three things at once) says it once.
  toast.error(message, { id: message, duration: ERROR_TOAST_MS });
  const status = errorData(error)?.httpStatus;
  if (status === 401) {
    const { pathname, search, hash } = window.location;
    const target = unauthorizedRedirect(procedurePath, `${pathname}${search ?? ''}${hash ?? ''}`);
    if (pathname === target.split('?')[0]) return;
    // An invalid staff session signs out and clears cached items (SPEC.md §4), or the guard would
    // send the login straight back to the page that failed.
    if (isPortalProcedure(procedurePath)) {
      // The server clears the cookies with its 401; clearing here too keeps the guard from sending
      // the portal login straight back to the page that failed, whatever the answer carried.
      clearPortalCookie();
      handlers.redirect(target);
    } else void signOutTo(target);
  }
}

// Set once a staff sign-out has ended the session on the server. The page is about to leave (for
// the login, or through the provider's /logout, which may take seconds); a query refetched
// meanwhile (a poll, a refocus) would only be refused, a 401 and "Please sign in" on the way out.
let heldForSignOut = false;

/** Holds every later staff call, unsent and unsettled, until the page unloads (sign-out). */
export function holdStaffCalls(): void {
  heldForSignOut = true;
}

const errorLink: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) =>
      heldForSignOut && !isPortalProcedure(op.path)
        ? () => {}
        : next(op).subscribe({
            next: (value) => observer.next(value),
            error: (error) => {
              reportCallError(error, op.path);
              observer.error(error);
            },
            complete: () => observer.complete(),
          }),
    );

const TRPC_URL = '/api/trpc';

/** The server's rate-limit answer (Retry-After, `{ error, message }`), as read from a 429. */
export function tooManyRequestsMessage(seconds: number): string {
  return `Too many requests — try again in ${seconds} s`;
}

/**
 * The per-instance rate limit answers before tRPC does, in its own shape; left alone, the client
 * would say "Unable to transform response from server". This turns it into each call's own tRPC
 * error (code TOO_MANY_REQUESTS, httpStatus 429, retryAfterS), so the toast shows the server's
 * message and queries wait the time it gave before trying again.
 */
export async function readTooManyRequests(response: Response, url: string): Promise<Response> {
  if (response.status !== 429) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown; message?: unknown } | unknown[] | null;
  // A procedure's own TOO_MANY_REQUESTS (the sign-in code limits) is already a tRPC answer.
  if (Array.isArray(body) || (body && typeof body.error === 'object')) return response;
  const retryAfterS = Math.max(1, Number(response.headers.get('retry-after')) || 60);
  const message =
    body && typeof body.message === 'string' ? body.message : tooManyRequestsMessage(retryAfterS);
  const parsed = new URL(url, 'http://localhost');
  const paths = decodeURIComponent(
    parsed.pathname.slice(parsed.pathname.indexOf(TRPC_URL) + TRPC_URL.length + 1),
  )
    .split(',')
    .filter(Boolean);
  const errorOf = (path: string) => ({
    error: {
      json: {
        message,
        code: -32029,
        data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path, retryAfterS },
      },
    },
  });
  const payload = parsed.searchParams.get('batch') === '1' ? paths.map(errorOf) : errorOf(paths[0] ?? '');
  return new Response(JSON.stringify(payload), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': String(retryAfterS) },
  });
}

/** The wait a refused call was told, in seconds (undefined for any other error). */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { httpStatus?: number; retryAfterS?: number } | undefined;
  return data?.httpStatus === 429 ? (data.retryAfterS ?? 60) : undefined;
}

/**
 * A query whose input is bigger than this goes as a POST with the input in the body (the server
 * allows the override), not in the address: a long address is refused before tRPC sees it (HTTP
 * 431 from about 8 KB of headers), and a person's text (a broadcast's body) can be any length.
 */
export const LARGE_INPUT_CHARS = 1500;
/** Batched GETs are split before their address grows past this. */
export const MAX_URL_LENGTH = 4000;

/** Roughly how long a call's input makes its address: its JSON, which the address escapes. */
export function inputChars(input: unknown): number {
  try {
    return JSON.stringify(input)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const linkOptions = {
  url: TRPC_URL,
  fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return readTooManyRequests(await fetch(input, init), url);
  },
  transformer: superjson,
  headers: ({ opList }: { opList: readonly { path: string }[] }) =>
    opList.some((op) => !isPortalProcedure(op.path)) ? handlers.staffHeaders() : {},
};

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    errorLink,
    splitLink({
      condition: (op) => op.type === 'query' && inputChars(op.input) > LARGE_INPUT_CHARS,
      true: httpBatchLink({ ...linkOptions, methodOverride: 'POST' }),
      false: httpBatchLink({ ...linkOptions, maxURLLength: MAX_URL_LENGTH }),
    }),
  ],
});

/** tRPC's 4xx codes: the answer will be the same however often it is asked. */
const FINAL_CODES = new Set([
  'PARSE_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_SUPPORTED',
  'TIMEOUT',
  'CONFLICT',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE_CONTENT',
  'CLIENT_CLOSED_REQUEST',
]);

/** How many times a 5xx or a dropped connection is tried again (the screen shows it is loading). */
export const TRANSIENT_RETRIES = 2;
/** How many times a 429 waits its Retry-After and tries again. */
export const RATE_LIMIT_RETRIES = 3;

/**
 * Queries' retry rule, for an idempotent mutation too: an answer that cannot change (any 4xx:
 * sign-in, access, validation, not found) fails at once; a 429 waits as told (retryDelay) a few
 * times; a 5xx or a dropped connection might pass on a second try.
 */
export function retryTransient(count: number, error: unknown): boolean {
  const data = errorData(error);
  const status = data?.httpStatus;
  // Too many requests: wait as told, a few times, rather than fail the screen.
  if (status === 429 || data?.code === 'TOO_MANY_REQUESTS') return count < RATE_LIMIT_RETRIES;
  if (typeof status === 'number' && status >= 400 && status < 500) return false;
  if (data?.code && FINAL_CODES.has(data.code)) return false;
  return count < TRANSIENT_RETRIES;
}

/** React Query's own backoff, except a 429 waits the Retry-After it was given (at most a minute). */
export function retryDelay(count: number, error: unknown): number {
  const wait = retryAfterSeconds(error);
  if (wait !== undefined) return Math.min(wait, 60) * 1000;
  return Math.min(1000 * 2 ** count, 30_000);
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: retryTransient,
      retryDelay,
      refetchOnWindowFocus: false,
    },
  },
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
