import { tagManagerEnabled } from '@domain/analytics';
import { appConfig } from './config';

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** Injects the tag manager on the production hostname only, with a well-formed id (SPEC.md §1). */
export function startTagManager(): void {
  const { gtmId, productionHost } = appConfig;
  if (!gtmId || !tagManagerEnabled(window.location.hostname, productionHost, gtmId)) return;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(gtmId)}`;
  script.dataset.tagManager = gtmId;
  document.head.appendChild(script);
}
