import { PORTAL_LOGIN_COOKIE, STAFF_LOGIN_COOKIE } from '@domain/web-config';
import { appConfig } from './config';

/** Cookie names are URL-encoded by the cookie layer; compare decoded names. */
export function hasCookie(name: string, cookieString: string = document.cookie): boolean {
  return cookieString.split(';').some((part) => {
    const [rawName, ...rest] = part.trim().split('=');
    if (!rawName || rest.join('=') === '') return false;
    try {
      return decodeURIComponent(rawName) === name;
    } catch {
      return rawName === name;
    }
  });
}

export const hasStaffCookie = () => hasCookie(STAFF_LOGIN_COOKIE(appConfig.idp.clientId));
export const hasPortalCookie = () => hasCookie(PORTAL_LOGIN_COOKIE);

/**
 * Forgets the portal's companion cookie (the httpOnly session cookie is the server's to clear), so
 * the route guard stops treating a dead session as signed in.
 */
export function clearPortalCookie(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: one expiry write; the Cookie Store API is not in every browser we support.
  document.cookie = `${encodeURIComponent(PORTAL_LOGIN_COOKIE)}=; Max-Age=0; path=/; SameSite=Strict`;
}
