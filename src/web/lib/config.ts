import type { TWebConfig } from '@domain/web-config';

declare global {
  interface Window {
    __PRACTICE_CONFIG__?: TWebConfig;
  }
}

const fallback: TWebConfig = {
  idp: { userPoolId: 'local-1_Practice', clientId: 'practiceweb', endpointPath: '/api/idp' },
  oauth: null,
  productionHost: null,
  posthog: null,
  gtmId: null,
  chat: null,
};

/** Deployment settings served by /api/config.js before the bundle runs. */
export const appConfig: TWebConfig =
  (typeof window !== 'undefined' && window.__PRACTICE_CONFIG__) || fallback;
