import { describe, expect, it } from 'vitest';
import { guardRedirect, safeReturnPath, unauthorizedRedirect } from './route-guard';

const base = { isPublic: false, hasStaffCookie: false, hasPortalCookie: false };

describe('route guard, staff zone', () => {
  it('sends a visitor without the staff cookie from a private route to the staff login', () => {
    expect(guardRedirect({ ...base, pathname: '/clients' })).toBe('/auth/login');
    expect(guardRedirect({ ...base, pathname: '/', href: '/' })).toBe('/auth/login');
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

describe('returning to the page asked for', () => {
  it('keeps a deep link through the login, staff and portal', () => {
    expect(
      guardRedirect({
        ...base,
        pathname: '/reports/team/summary',
        href: '/reports/team/summary?week=2026-11-23',
      }),
    ).toBe('/auth/login?next=%2Freports%2Fteam%2Fsummary%3Fweek%3D2026-11-23');
    expect(
      guardRedirect({ ...base, pathname: '/clientportal/abc/tasks', href: '/clientportal/abc/tasks' }),
    ).toBe('/clientportal/auth/login?next=%2Fclientportal%2Fabc%2Ftasks');
  });
  it('sends someone already signed in on to the page the login was asked to return to', () => {
    const login = { ...base, pathname: '/auth/login', isPublic: true, hasStaffCookie: true };
    expect(guardRedirect({ ...login, next: '/reports/team/summary' })).toBe('/reports/team/summary');
    expect(guardRedirect({ ...login, next: '//evil.example' })).toBe('/');
    const portal = { ...base, pathname: '/clientportal/auth/login', isPublic: true, hasPortalCookie: true };
    expect(guardRedirect({ ...portal, next: '/clientportal/abc' })).toBe('/clientportal/abc');
    expect(guardRedirect({ ...portal, next: '/clients' })).toBe('/clientportal');
  });
  it('carries the page into the 401 redirect', () => {
    expect(unauthorizedRedirect('clients.list', '/clients?page=2')).toBe(
      '/auth/login?next=%2Fclients%3Fpage%3D2',
    );
    expect(unauthorizedRedirect('clients.list', '/')).toBe('/auth/login');
  });
});

describe('safeReturnPath', () => {
  it('accepts a path of the app in the same zone, with its search and hash', () => {
    expect(safeReturnPath('/reports/team/summary', 'staff')).toBe('/reports/team/summary');
    expect(safeReturnPath('/clients?page=2&search=a%2Fb#top', 'staff')).toBe(
      '/clients?page=2&search=a%2Fb#top',
    );
    expect(safeReturnPath('/clientportal/abc/documents', 'portal')).toBe('/clientportal/abc/documents');
  });
  it.each([
    ['an absolute address', 'https://evil.example/'],
    ['a scheme', 'javascript:alert(1)'],
    ['a protocol-relative address', '//evil.example'],
    ['a backslash that browsers read as a slash', '/\\evil.example'],
    ['a backslash later on', '/clients\\..\\x'],
    ['an encoded second slash', '/%2F%2Fevil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['a double-encoded slash', '/%252F%252Fevil.example'],
    ['a tab browsers drop', '/\t/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['an encoded tab', '/%09/evil.example'],
    ['a relative path', 'clients'],
    ['empty', ''],
    ['not a string', { toString: (): string => '/clients' }],
    ['a broken escape', '/clients%E0%A4%A'],
    ['far too long', `/${'a'.repeat(3000)}`],
    ['a sign-in page (a loop)', '/auth/login?next=%2Fclients'],
  ])('refuses %s', (_name, value) => {
    expect(safeReturnPath(value, 'staff')).toBeNull();
  });
  it('keeps each zone to its own pages', () => {
    expect(safeReturnPath('/clientportal/abc', 'staff')).toBeNull();
    expect(safeReturnPath('/clients', 'portal')).toBeNull();
    expect(safeReturnPath('/clientportal/auth/logout', 'portal')).toBeNull();
  });
});
