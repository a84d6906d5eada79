import { z } from 'zod';
import { zId, zString } from './fields';

// Webhooks (issue 40): a firm subscribes a URL to events; each event is POSTed as JSON, signed the
// Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature).

export const WEBHOOK_EVENTS = [
  'client.created',
  'client.updated',
  'task.status_changed',
  'task.completed',
  'project.completed',
  'document.uploaded_by_client',
  'request.submitted',
  'invoice.issued',
  'invoice.paid',
  'proposal.signed',
] as const;
export type TWebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<TWebhookEvent, string> = {
  'client.created': 'Client created',
  'client.updated': 'Client changed',
  'task.status_changed': 'Task status changed',
  'task.completed': 'Task completed',
  'project.completed': 'Project completed',
  'document.uploaded_by_client': 'Document uploaded by a client',
  'request.submitted': 'Request submitted by a client',
  'invoice.issued': 'Invoice issued',
  'invoice.paid': 'Invoice paid',
  'proposal.signed': 'Proposal signed',
};

/** The test button's event: sent to one subscription whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/**
 * When each attempt is made, counted from the event (Standard Webhooks' reference schedule): at once,
 * then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after the attempt before — about 28 hours in all.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
] as const;

/** The delay before attempt `n` (1-based), or null when no attempt is left. */
export function webhookRetryDelay(attempt: number): number | null {
  return WEBHOOK_RETRY_DELAYS_MS[attempt - 1] ?? null;
}

export const WEBHOOK_DELIVERY_STATES = ['pending', 'sending', 'succeeded', 'failed'] as const;
export type TWebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

const ZWebhookUrl = zString()
  .trim()
  .max(2000, 'The URL must be at most 2000 characters')
  .pipe(z.url({ protocol: /^https?$/, error: 'Enter the full http:// or https:// address' }));

export const ZWebhookFields = z.object({
  url: ZWebhookUrl,
  description: zString().trim().max(200, 'The description must be at most 200 characters').default(''),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'Choose events from the list' }))
    .min(1, 'Choose at least one event')
    .max(WEBHOOK_EVENTS.length)
    .transform((events) => WEBHOOK_EVENTS.filter((e) => events.includes(e))),
});
export type TWebhookFieldsInput = z.input<typeof ZWebhookFields>;

export const ZWebhookRef = z.object({ subscriptionId: zId('Choose a webhook from the list') });
export const ZWebhookUpdate = ZWebhookFields.extend({
  subscriptionId: zId('Choose a webhook from the list'),
  paused: z.boolean(),
});
export const ZWebhookDeliveryRef = z.object({ deliveryId: zId('Choose a delivery from the list') });
