// Webhooks (issue 40): subscriptions, the events other features emit in their transactions, and
// the job that delivers them.
export { deliverWebhook, registerWebhookJobs, resumeStaleDeliveries, STALE_CLAIM_MS } from './deliver';
export { webhooksRouter } from './router';
export { emitWebhookEvent, emitWebhookEvents, setWebhookSealer, WEBHOOK_DELIVER } from './service';
export { signWebhook, verifyWebhook } from './signing';
