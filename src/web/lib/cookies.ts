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
