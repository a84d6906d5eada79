import { TRPCClientError } from '@trpc/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const toastError = vi.fn();
vi.mock('sonner', () => ({ toast: { error: (...args: unknown[]) => toastError(...args) } }));

const location = { pathname: '/clients', assign: vi.fn() };
vi.stubGlobal('window', { location });
const documentStub = { cookie: '' };
vi.stubGlobal('document', documentStub);

const { configureTrpc, reportCallError } = await import('./trpc');

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
