import { TRPCClientError } from '@trpc/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MFA_SETUP_REQUIRED_MESSAGE } from '../../domain/mfa';

const toastError = vi.fn();
vi.mock('../ui/toaster', () => ({ toast: { error: (...args: unknown[]) => toastError(...args) } }));

const location = { pathname: '/clients', assign: vi.fn() };
vi.stubGlobal('window', { location });
const documentStub = { cookie: '' };
vi.stubGlobal('document', documentStub);

const {
  ACCESS_TURNED_OFF_LOGIN,
  configureTrpc,
  errorMessage,
  holdStaffCalls,
  readTooManyRequests,
  reportCallError,
  retryDelay,
  retryTransient,
  trpcClient,
} = await import('./trpc');

function trpcError(message: string, httpStatus: number) {
  return new TRPCClientError(message, {
    result: { error: { message, code: -32001, data: { httpStatus } } } as never,
  });
}

describe('reportCallError', () => {
  const redirect = vi.fn();
  beforeEach(() => {
    toastError.mockClear();
    redirect.mockClear();
    location.pathname = '/clients';
    configureTrpc({ redirect });
  });

  it('shows the message in an error toast for 4000 ms', () => {
    reportCallError(trpcError('Client code already in use', 409), 'clients.create');
    expect(toastError).toHaveBeenCalledWith(
      'Client code already in use',
      expect.objectContaining({ duration: 4000 }),
    );
    expect(redirect).not.toHaveBeenCalled();
  });

  it('sends a 401 on a portal procedure to the portal login, any other to the staff login', async () => {
    const clearStaffSession = vi.fn(async (_target: string) => false);
    configureTrpc({ redirect, clearStaffSession });
    documentStub.cookie = '';
    reportCallError(trpcError('Please sign in', 401), 'clientPortalProfile.me');
    expect(redirect).toHaveBeenLastCalledWith('/clientportal/auth/login');
    // The companion cookie goes, or the guard would bounce the login back to the portal.
    expect(documentStub.cookie).toMatch(/^practice_portal=; Max-Age=0; path=\//);
    expect(clearStaffSession).not.toHaveBeenCalled();
    reportCallError(trpcError('Please sign in', 401), 'profile.me');
    // Back to the page once signed in again.
    await vi.waitFor(() => expect(redirect).toHaveBeenLastCalledWith('/auth/login?next=%2Fclients'));
    // The invalid staff session is signed out first, so the guard does not bounce back.
    expect(clearStaffSession).toHaveBeenCalledTimes(1);
    expect(clearStaffSession).toHaveBeenCalledWith('/auth/login?next=%2Fclients');
    // Leaving through the provider's /logout (hosted sign-in): no in-app redirect cuts it short.
    redirect.mockClear();
    clearStaffSession.mockResolvedValueOnce(true);
    reportCallError(trpcError('Please sign in', 401), 'profile.me');
    await vi.waitFor(() => expect(clearStaffSession).toHaveBeenCalledTimes(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(redirect).not.toHaveBeenCalled();
  });

  it('takes a member held back by the firm’s MFA rule to the set-up page, once, without a toast', () => {
    const forbidden = new TRPCClientError(MFA_SETUP_REQUIRED_MESSAGE, {
      result: {
        error: {
          message: MFA_SETUP_REQUIRED_MESSAGE,
          code: -32003,
          data: { code: 'FORBIDDEN', httpStatus: 403 },
        },
      } as never,
    });
    reportCallError(forbidden, 'profile.me');
    expect(redirect).toHaveBeenLastCalledWith('/auth/mfa-setup');
    expect(toastError).not.toHaveBeenCalled();
    location.pathname = '/auth/mfa-setup';
    redirect.mockClear();
    reportCallError(forbidden, 'notifications.unreadCount');
    expect(redirect).not.toHaveBeenCalled();
  });

  it('does not redirect to the page it is already on', () => {
    location.pathname = '/auth/login';
    reportCallError(trpcError('Please sign in', 401), 'profile.me');
    expect(redirect).not.toHaveBeenCalled();
  });
});

describe('a member without a firm', () => {
  it('is sent to onboarding without an error toast', () => {
    const redirect = vi.fn();
    configureTrpc({ redirect });
    toastError.mockClear();
    location.pathname = '/';
    reportCallError(
      new TRPCClientError('Create your firm to continue', {
        result: {
          error: { message: 'x', code: -32012, data: { httpStatus: 412, code: 'PRECONDITION_FAILED' } },
        } as never,
      }),
      'profile.me',
    );
    expect(redirect).toHaveBeenCalledWith('/onboarding');
    expect(toastError).not.toHaveBeenCalled();
  });
});

describe('the rate limit answer', () => {
  const limited = () =>
    new Response(
      JSON.stringify({ error: 'TOO_MANY_REQUESTS', message: 'Too many requests — try again in 42 s' }),
      {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '42' },
      },
    );

  it('becomes every batched call its own TOO_MANY_REQUESTS error with the wait', async () => {
    const res = await readTooManyRequests(
      limited(),
      '/api/trpc/profile.me,clients.list?batch=1&input=%7B%7D',
    );
    expect(res.status).toBe(429);
    const body = (await res.json()) as { error: { json: { message: string; data: object } } }[];
    expect(body).toHaveLength(2);
    expect(body[1]?.error.json).toEqual({
      message: 'Too many requests — try again in 42 s',
      code: -32029,
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path: 'clients.list', retryAfterS: 42 },
    });
  });

  it('leaves other answers and a procedure’s own tRPC 429 alone', async () => {
    const ok = new Response('[]', { status: 200 });
    expect(await readTooManyRequests(ok, '/api/trpc/a?batch=1')).toBe(ok);
    const own = new Response(JSON.stringify([{ error: { json: { message: 'x' } } }]), { status: 429 });
    expect(await readTooManyRequests(own, '/api/trpc/a?batch=1')).toBe(own);
  });

  it('reaches the toast through the client, and queries wait the Retry-After before trying again', async () => {
    toastError.mockClear();
    const realFetch = globalThis.fetch;
    globalThis.fetch = vi.fn(async () => limited()) as typeof fetch;
    try {
      const error = await trpcClient.profile.me.query().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCClientError);
      expect((error as Error).message).toBe('Too many requests — try again in 42 s');
      expect(toastError).toHaveBeenCalledWith('Too many requests — try again in 42 s', expect.anything());
      expect(retryTransient(0, error)).toBe(true);
      expect(retryTransient(3, error)).toBe(false);
      expect(retryDelay(0, error)).toBe(42_000);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

function coded(message: string, code: string, httpStatus: number | undefined) {
  return new TRPCClientError(message, {
    result: { error: { message, code: -32000, data: { code, httpStatus } } } as never,
  });
}

describe('the retry rule', () => {
  // tRPC's 4xx codes and their statuses: the same question gets the same answer.
  const final: [string, number][] = [
    ['PARSE_ERROR', 400],
    ['BAD_REQUEST', 400],
    ['UNAUTHORIZED', 401],
    ['PAYMENT_REQUIRED', 402],
    ['FORBIDDEN', 403],
    ['NOT_FOUND', 404],
    ['METHOD_NOT_SUPPORTED', 405],
    ['TIMEOUT', 408],
    ['CONFLICT', 409],
    ['PRECONDITION_FAILED', 412],
    ['PAYLOAD_TOO_LARGE', 413],
    ['UNSUPPORTED_MEDIA_TYPE', 415],
    ['UNPROCESSABLE_CONTENT', 422],
    ['CLIENT_CLOSED_REQUEST', 499],
  ];

  it.each(final)('never retries %s (%i), even on the first failure', (code, status) => {
    expect(retryTransient(0, coded('x', code, status))).toBe(false);
    // Known by its code alone too, should an answer come without its status.
    expect(retryTransient(0, coded('x', code, undefined))).toBe(false);
  });

  it('retries a 5xx and a dropped connection twice, then gives up', () => {
    for (const error of [
      coded('boom', 'INTERNAL_SERVER_ERROR', 500),
      coded('down', 'SERVICE_UNAVAILABLE', 503),
      new TRPCClientError('Failed to fetch'),
      new TypeError('Failed to fetch'),
    ]) {
      expect(retryTransient(0, error)).toBe(true);
      expect(retryTransient(1, error)).toBe(true);
      expect(retryTransient(2, error)).toBe(false);
    }
  });

  it('keeps waiting out a 429 a few times, by status or by code', () => {
    for (const error of [
      coded('slow', 'TOO_MANY_REQUESTS', 429),
      coded('slow', 'TOO_MANY_REQUESTS', undefined),
    ]) {
      expect(retryTransient(0, error)).toBe(true);
      expect(retryTransient(2, error)).toBe(true);
      expect(retryTransient(3, error)).toBe(false);
    }
  });
});

describe('a member whose access was turned off', () => {
  const turnedOff = () => coded('Your access to this firm has been turned off', 'FORBIDDEN', 403);

  it('is signed out to the login with the reason, and told in a toast', async () => {
    const redirect = vi.fn();
    const clearStaffSession = vi.fn(async (_target: string) => false);
    configureTrpc({ redirect, clearStaffSession });
    toastError.mockClear();
    location.pathname = '/clients';
    // A screen whose three calls all fail alike signs out once.
    reportCallError(turnedOff(), 'clients.list');
    reportCallError(turnedOff(), 'profile.me');
    reportCallError(turnedOff(), 'tasks.list');
    await vi.waitFor(() => expect(redirect).toHaveBeenCalledWith('/auth/login?reason=access-off'));
    expect(ACCESS_TURNED_OFF_LOGIN).toBe('/auth/login?reason=access-off');
    expect(clearStaffSession).toHaveBeenCalledTimes(1);
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(toastError).toHaveBeenCalledWith(
      'Your access to this firm has been turned off',
      expect.anything(),
    );
  });

  it('is not mistaken for a missing permission, which stays a toast on the page', () => {
    const redirect = vi.fn();
    configureTrpc({ redirect });
    toastError.mockClear();
    reportCallError(coded('You do not have permission to do this', 'FORBIDDEN', 403), 'clients.create');
    expect(toastError).toHaveBeenCalledWith('You do not have permission to do this', expect.anything());
    expect(redirect).not.toHaveBeenCalled();
  });
});

describe('a record that is not there', () => {
  it('shows its toast for a query (beside the screen panel) and for a mutation (SPEC.md §8)', () => {
    toastError.mockClear();
    reportCallError(coded('Client not found', 'NOT_FOUND', 404), 'clients.get');
    expect(toastError).toHaveBeenCalledWith('Client not found', expect.anything());
    toastError.mockClear();
    reportCallError(coded('Client not found', 'NOT_FOUND', 404), 'clients.update');
    expect(toastError).toHaveBeenCalledWith('Client not found', expect.anything());
  });
});

describe('a large input', () => {
  it('goes in a POST body, not the address; a small one stays a GET', async () => {
    const realFetch = globalThis.fetch;
    const sent: { url: string; method: string; body: string }[] = [];
    globalThis.fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ url: String(input), method: init?.method ?? 'GET', body: String(init?.body ?? '') });
      return new Response(JSON.stringify([{ result: { data: { json: { subject: 's', html: 'h' } } } }]), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    try {
      const bodyHtml = `<p>${'A long letter to every client. '.repeat(600)}</p>`;
      const clientId = '00000000-0000-4000-8000-000000000001';
      await trpcClient.broadcasts.preview.query({ subject: 'Hello', bodyHtml, clientId });
      await trpcClient.broadcasts.preview.query({ subject: 'Hello', bodyHtml: '<p>Hi</p>', clientId });
      expect(sent[0]?.method).toBe('POST');
      expect(sent[0]?.url.length).toBeLessThan(200);
      expect(sent[0]?.body).toContain('A long letter');
      expect(sent[1]?.method).toBe('GET');
      expect(sent[1]?.url).toContain('Hi');
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe('messages of the transport', () => {
  it('are said for a person', () => {
    expect(errorMessage(new TRPCClientError('Unable to transform response from server'))).not.toMatch(
      /transform/,
    );
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Network Error');
    expect(errorMessage(new TRPCClientError(`Unexpected token 'b', "boom" is not valid JSON`))).not.toMatch(
      /token|JSON/,
    );
    expect(errorMessage(new TRPCClientError('Client not found'))).toBe('Client not found');
  });
});

describe('after a sign-out has ended the session', () => {
  it('sends no more staff calls (none settles), while the portal’s still go', async () => {
    const realFetch = globalThis.fetch;
    const sent: string[] = [];
    globalThis.fetch = vi.fn(async (input: RequestInfo | URL) => {
      sent.push(String(input));
      return new Response(JSON.stringify({ result: { data: { json: null } } }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    try {
      holdStaffCalls();
      let settled = false;
      void trpcClient.notifications.unreadCount.query().finally(() => {
        settled = true;
      });
      await trpcClient.clientPortalProfile.me.query();
      expect(sent).toHaveLength(1);
      expect(sent[0]).toContain('clientPortalProfile.me');
      expect(sent[0]).not.toContain('notifications');
      expect(settled).toBe(false);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
