import { TRPCClientError } from '@trpc/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const toastError = vi.fn();
vi.mock('sonner', () => ({ toast: { error: (...args: unknown[]) => toastError(...args) } }));

const location = { pathname: '/clients', assign: vi.fn() };
vi.stubGlobal('window', { location });
const documentStub = { cookie: '' };
vi.stubGlobal('document', documentStub);

const { configureTrpc, readTooManyRequests, reportCallError, retryDelay, retryTransient, trpcClient } =
  await import('./trpc');

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
    const clearStaffSession = vi.fn(async () => {});
    configureTrpc({ redirect, clearStaffSession });
    documentStub.cookie = '';
    reportCallError(trpcError('Please sign in', 401), 'clientPortalProfile.me');
    expect(redirect).toHaveBeenLastCalledWith('/clientportal/auth/login');
    // The companion cookie goes, or the guard would bounce the login back to the portal.
    expect(documentStub.cookie).toMatch(/^practice_portal=; Max-Age=0; path=\//);
    expect(clearStaffSession).not.toHaveBeenCalled();
    reportCallError(trpcError('Please sign in', 401), 'profile.me');
    await vi.waitFor(() => expect(redirect).toHaveBeenLastCalledWith('/auth/login'));
    // The invalid staff session is signed out first, so the guard does not bounce back.
    expect(clearStaffSession).toHaveBeenCalledTimes(1);
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
