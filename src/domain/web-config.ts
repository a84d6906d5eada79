/** Deployment settings the server hands the web app at load time (window.__PRACTICE_CONFIG__). */
export type TWebConfig = {
  idp: { userPoolId: string; clientId: string; endpointPath: string | null };
  /** Hosted sign-in (Amplify's signInWithRedirect): the OAuth domain and the external providers. */
  oauth: { domain: string; providers: string[] } | null;
  productionHost: string | null;
  posthog: { key: string; host: string } | null;
  gtmId: string | null;
  chat: { baseUrl: string; websiteToken: string } | null;
};

export const STAFF_LOGIN_COOKIE = (clientId: string) =>
  `CognitoIdentityServiceProvider.${clientId}.LastAuthUser`;
/** A non-secret companion of the httpOnly portal session cookie, read only by the route guard. */
export const PORTAL_LOGIN_COOKIE = 'practice_portal';
