// Request → who is calling. Staff procedures and routes get a TScope, portal ones a portal session;
// nothing else in the server reads a token or a cookie.
export { actorOf, portalActorOf, type TActor } from './actor';
export {
  registerRouteAuth,
  routePortalAccess,
  routeStaffScope,
  sendHttpError,
  type TRouteAuth,
} from './http';
export { firmRequiresMfa, mfaRuleOfMember, refreshMfaRuleSince } from './mfa-rule';
export { portalClientAccess, portalScope, portalSessionOf } from './portal';
export {
  clearPortalCookies,
  createPortalSession,
  normaliseEmail,
  PORTAL_SESSION_COOKIE,
  PORTAL_SESSION_DAYS,
  portalSessionToken,
  purgePortalSessions,
  resolvePortalSession,
  revokePortalSession,
  revokePortalSessionsOf,
  setPortalCookies,
  type TPortalClientAccess,
  type TPortalSession,
} from './portal-session';
export { requestMeta, requirePermission, staffScope, type TRequestMeta, type TScope } from './scope';
