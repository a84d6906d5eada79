import type { TWebConfig } from '../../domain/web-config';
import type { TConfig } from '../config';

/**
 * What the web app needs from the deployment, handed over at load time so one build serves every
 * deployment. Nothing secret goes here: the page shows it to anyone.
 */
export function webConfig(config: TConfig): TWebConfig {
  return {
    idp: {
      userPoolId: config.idp.userPoolId,
      clientId: config.idp.clientId,
      // Amplify posts to the embedded provider on this origin; for a Cognito pool it finds the endpoint itself.
      endpointPath: config.idp.mode === 'embedded' ? '/api/idp' : null,
    },
    oauth: config.oauthDomain
      ? {
          domain: config.oauthDomain,
          providers: config.idp.mode === 'embedded' ? config.idp.hosted.providers.map((p) => p.name) : [],
        }
      : null,
    productionHost: config.web.productionHost ?? null,
    posthog: config.web.posthog ?? null,
    gtmId: config.web.gtmId ?? null,
    chat: config.web.chat ?? null,
  };
}

export function webConfigScript(config: TConfig): string {
  return `window.__PRACTICE_CONFIG__=${JSON.stringify(webConfig(config)).replace(/</g, '\\u003c')};`;
}

/** A content security policy that allows exactly the configured third-party hosts. */
export function contentSecurityPolicy(config: TConfig) {
  const origin = (u: string) => new URL(u).origin;
  const script = ["'self'"];
  const connect = ["'self'"];
  // The documents preview frames the preview route itself, opened by a signed link (same origin).
  const frame: string[] = ["'self'"];
  const img = ["'self'", 'data:', 'blob:', 'https:'];
  const { posthog, gtmId, chat } = config.web;
  if (config.idp.endpoint) connect.push(origin(config.idp.endpoint));
  if (posthog) {
    const api = new URL(posthog.host);
    // PostHog serves its scripts from an "-assets" sibling of the ingestion host.
    const assets = `${api.protocol}//${api.hostname.replace(/^([a-z]+)\./, '$1-assets.')}${api.port ? `:${api.port}` : ''}`;
    script.push(api.origin, assets);
    connect.push(api.origin, assets);
  }
  if (gtmId) {
    script.push('https://www.googletagmanager.com');
    connect.push('https://www.googletagmanager.com', 'https://www.google-analytics.com');
    frame.push('https://www.googletagmanager.com');
  }
  if (chat) {
    script.push(origin(chat.baseUrl));
    connect.push(origin(chat.baseUrl), origin(chat.baseUrl).replace(/^http/, 'ws'));
    frame.push(origin(chat.baseUrl));
  }
  return {
    defaultSrc: ["'self'"],
    scriptSrc: script,
    connectSrc: connect,
    imgSrc: img,
    styleSrc: ["'self'", "'unsafe-inline'"],
    fontSrc: ["'self'", 'data:'],
    frameSrc: frame,
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
}
