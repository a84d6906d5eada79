// The public API's surface (issue 40): keys, the REST routes and their OpenAPI document.

export { registerAccountingExport } from './accounting-http';
export { resolveApiKey } from './keys';
export { API_PREFIX, registerPublicApi } from './rest';
export { apiKeysRouter } from './router';
