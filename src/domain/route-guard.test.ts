import { describe, expect, it } from 'vitest';
import { guardRedirect, unauthorizedRedirect } from './route-guard';

const base = { isPublic: false, hasStaffCookie: false, hasPortalCookie: false };

describe('route guard, staff zone', () => {
  it('sends a visitor without the staff cookie from a private route to the staff login', () => {
    expect(guardRedirect({ ...base, pathname: '/clients' })).toBe('/auth/login');
    expect(guardRedirect({ ...base, pathname: '/auth/login', isPublic: true })).toBeNull();
  });
  it('sends a signed-in member from a public route home, except verify', () => {
    const signedIn = { ...base, hasStaffCookie: true };
    expect(guardRedirect({ ...signedIn, pathname: '/auth/login', isPublic: true })).toBe('/');
    expect(
      guardRedirect({ ...signedIn, pathname: '/auth/verify/abc', isPublic: true, skipRedirect: true }),
    ).toBeNull();
    expect(guardRedirect({ ...signedIn, pathname: '/clients' })).toBeNull();
  });
  it('ignores the portal cookie in the staff zone', () => {
    expect(guardRedirect({ ...base, hasPortalCookie: true, pathname: '/' })).toBe('/auth/login');
  });
});

describe('route guard, portal zone', () => {
  it('sends a visitor without the portal cookie to the portal login', () => {
    expect(guardRedirect({ ...base, pathname: '/clientportal/abc/tasks' })).toBe('/clientportal/auth/login');
    expect(guardRedirect({ ...base, hasStaffCookie: true, pathname: '/clientportal' })).toBe(
      '/clientportal/auth/login',
    );
  });
  it('sends a signed-in client from a public route to the portal home unless flagged to skip', () => {
    const signedIn = { ...base, hasPortalCookie: true };
    expect(guardRedirect({ ...signedIn, pathname: '/clientportal/auth/login', isPublic: true })).toBe(
      '/clientportal',
    );
    expect(
      guardRedirect({
        ...signedIn,
        pathname: '/clientportal/auth/logout',
        isPublic: true,
        skipRedirect: true,
      }),
    ).toBeNull();
    expect(guardRedirect({ ...signedIn, pathname: '/clientportal/abc' })).toBeNull();
  });
});

describe('401 redirect', () => {
  it('depends on the failing procedure path', () => {
    expect(unauthorizedRedirect('clientPortalDocuments.list')).toBe('/clientportal/auth/login');
    expect(unauthorizedRedirect('clients.list')).toBe('/auth/login');
  });
});
