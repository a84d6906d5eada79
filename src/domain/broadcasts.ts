import { z } from 'zod';
import { CLIENT_STATUSES, CLIENT_TYPES } from './clients';
import { MAX_DATE, zDate, zNumber, zText } from './fields';
import { ZPageInput } from './pagination';

// Broadcasts (/admin/broadcasts) and their templates (/admin/templates/broadcasts): one mail per
// client (or per person), personal through placeholders, each delivery kept with its state.

/**
 * The placeholders a template may use, `{{name}}` or `{{name|fallback}}`: the fallback stands in
 * when the recipient has no value (a client without an open project has no due date).
 */
export const BROADCAST_PLACEHOLDERS = [
  { key: 'client_name', label: 'Client name' },
  { key: 'client_code', label: 'Client code' },
  { key: 'contact_name', label: 'Contact name' },
  { key: 'firm_name', label: 'Firm name' },
  { key: 'service', label: 'Service' },
  { key: 'period', label: 'Period' },
  { key: 'due_date', label: 'Due date' },
  { key: 'fiscal_year', label: 'Fiscal year' },
  { key: 'portal_link', label: 'Portal link' },
  { key: 'pending_items', label: 'Pending items (open to-dos and documents awaited)' },
] as const;
export type TPlaceholder = (typeof BROADCAST_PLACEHOLDERS)[number]['key'];
const KNOWN = new Set<string>(BROADCAST_PLACEHOLDERS.map((p) => p.key));

const PLACEHOLDER = /\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}/g;

/** The placeholders a text names that are not in the list (each once, as written). */
export function unknownPlaceholders(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) if (!KNOWN.has(m[1] ?? '')) out.add(m[1] ?? '');
  return [...out];
}

/**
 * Fills the placeholders. `escape` runs on each value (HTML escaping for the HTML part, nothing for
 * the subject); a value may also be given pre-made for HTML (pending items as a list).
 */
export function fillPlaceholders(
  text: string,
  values: Partial<Record<TPlaceholder, string | null>>,
  escapeValue: (s: string) => string = (s) => s,
  raw: Partial<Record<TPlaceholder, string>> = {},
): string {
  return text.replace(PLACEHOLDER, (_all, key: string, fallback?: string) => {
    const k = key as TPlaceholder;
    if (raw[k]) return raw[k];
    const value = values[k];
    return escapeValue(value?.trim() ? value : (fallback ?? '').trim());
  });
}

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Refuses a placeholder the list does not have, naming it. */
const withKnownPlaceholders = <T extends z.ZodType<string>>(schema: T, label: string) =>
  schema.superRefine((value, ctx) => {
    const unknown = unknownPlaceholders(value);
    if (unknown.length) {
      ctx.addIssue({
        code: 'custom',
        message: `${label} uses a placeholder that does not exist: ${unknown.map((u) => `{{${u}}}`).join(', ')}`,
      });
    }
  });

export const ZBroadcastContent = z.object({
  subject: withKnownPlaceholders(zText({ min: 1, max: 200, label: 'Subject' }), 'The subject'),
  bodyHtml: withKnownPlaceholders(
    zText({ min: 1, max: 100_000, label: 'Message', minMessage: 'Write the message' }),
    'The message',
  ),
});
export type TBroadcastContent = z.output<typeof ZBroadcastContent>;

export const ZBroadcastTemplateInput = ZBroadcastContent.extend({
  name: zText({ min: 1, max: 120, label: 'Name', minMessage: 'Enter the template name' }),
});
export type TBroadcastTemplateInput = z.input<typeof ZBroadcastTemplateInput>;
export const ZBroadcastTemplateRef = z.object({ id: z.uuid('Choose a template from the list') });
export const ZBroadcastTemplateUpdate = ZBroadcastTemplateInput.extend({
  id: z.uuid('Choose a template from the list'),
});
export const ZBroadcastTemplateList = ZPageInput.pick({ page: true, pageSize: true, search: true });

export const PORTAL_ACCESS = ['any', 'with', 'without'] as const;
export const BROADCAST_MODES = ['client', 'person'] as const;
export type TBroadcastMode = (typeof BROADCAST_MODES)[number];
export const BROADCAST_MODE_LABELS: Record<TBroadcastMode, string> = {
  client: 'One mail per client (portal people in copy)',
  person: 'One mail per person',
};

const ids = (what: string) =>
  z
    .array(z.uuid(`Choose ${what} from the list`))
    .max(200)
    .default([]);

export const MAX_AUDIENCE_CLIENTS = 50_000;

/** Who a broadcast reaches: every filter narrows (an empty one does not filter). */
export const ZAudience = z.object({
  groupIds: ids('client groups'),
  serviceIds: ids('services'),
  tags: z
    .array(zText({ max: 60, label: 'Tag' }))
    .max(50)
    .default([]),
  types: z.array(z.enum(CLIENT_TYPES)).max(CLIENT_TYPES.length).default([]),
  statuses: z.array(z.enum(CLIENT_STATUSES)).max(CLIENT_STATUSES.length).default(['active']),
  portalAccess: z.enum(PORTAL_ACCESS).default('any'),
  overdueOnly: z.boolean().default(false),
  /**
   * Exactly these clients (still as the sender may see them, unarchived, and narrowed by the rest):
   * a statutory extension's notice goes to the clients whose projects it moved.
   */
  clientIds: z
    .array(z.uuid('Choose clients from the list'))
    .max(MAX_AUDIENCE_CLIENTS, `At most ${MAX_AUDIENCE_CLIENTS} clients by name`)
    .optional(),
});
export type TAudience = z.output<typeof ZAudience>;

export const ZAudienceInput = z.object({
  audience: ZAudience,
  mode: z.enum(BROADCAST_MODES).default('client'),
});

export const BROADCAST_NAME_MAX = 120;

/**
 * The name a broadcast gets when none is typed: its template's, else its subject without the
 * placeholders ("{{client_name}}: documents for 2026" → "documents for 2026"). Migration 0044 named
 * the broadcasts made before names by the same rule.
 */
export function defaultBroadcastName(subject: string, templateName?: string | null): string {
  const fromSubject = subject.replace(/\{\{[^}]*\}\}[\s:,–-]*/g, '').trim();
  return (templateName?.trim() || fromSubject || 'Broadcast').slice(0, BROADCAST_NAME_MAX);
}

export const ZBroadcastInput = ZBroadcastContent.extend({
  /** Blank: defaultBroadcastName. */
  name: zText({ max: BROADCAST_NAME_MAX, label: 'Name' }).optional(),
  templateId: z.uuid('Choose a template from the list').nullish(),
  audience: ZAudience,
  mode: z.enum(BROADCAST_MODES).default('client'),
  /** Null: now. */
  sendAt: zDate()
    .max(MAX_DATE)
    .nullish()
    .refine((d) => !d || d.getTime() > Date.now() - 60_000, 'Choose a time in the future, or send now'),
});
export type TBroadcastInput = z.input<typeof ZBroadcastInput>;

export const ZPreviewInput = ZBroadcastContent.extend({ clientId: z.uuid('Choose a client from the list') });
export const ZTestSendInput = ZBroadcastContent.extend({
  clientId: z.uuid('Choose a client from the list').nullish(),
});

export const BROADCAST_STATUSES = ['scheduled', 'sending', 'paused', 'completed', 'cancelled'] as const;
export type TBroadcastStatus = (typeof BROADCAST_STATUSES)[number];
export const BROADCAST_STATUS_LABELS: Record<TBroadcastStatus, string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** `sending` is a claim held while the SMTP conversation runs (see server/features/broadcasts/pump.ts). */
export const DELIVERY_STATES = ['queued', 'sending', 'sent', 'failed', 'bounced', 'unsubscribed'] as const;
export type TDeliveryState = (typeof DELIVERY_STATES)[number];
export const DELIVERY_STATE_LABELS: Record<TDeliveryState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  bounced: 'Bounced',
  unsubscribed: 'Unsubscribed',
};

export const ZBroadcastRef = z.object({ id: z.uuid('Choose a broadcast from the list') });
export const ZBroadcastList = ZPageInput.pick({ page: true, pageSize: true, search: true });
export const ZDeliveryList = ZPageInput.pick({ page: true, pageSize: true, search: true }).extend({
  id: z.uuid('Choose a broadcast from the list'),
  state: z.enum(DELIVERY_STATES).nullish(),
});
export const ZClientBroadcasts = ZPageInput.pick({ page: true, pageSize: true }).extend({
  clientId: z.uuid('Choose a client from the list'),
});

/** The firm's pace: messages a second, and at most so many in any 24 hours. */
export const DEFAULT_RATE_PER_SECOND = 10;
export const DEFAULT_DAILY_CAP = 10_000;
export const ZBroadcastSettings = z.object({
  ratePerSecond: zNumber()
    .int('Enter a whole number of messages a second')
    .min(1, 'Send at least 1 message a second')
    .max(100, 'Send at most 100 messages a second'),
  dailyCap: zNumber()
    .int('Enter a whole number of messages a day')
    .min(1, 'Allow at least 1 message a day')
    .max(1_000_000, 'Allow at most 1,000,000 messages a day'),
});

/** Above this share of failed deliveries a broadcast pauses itself. */
export const AUTO_PAUSE_FAILURE_RATE = 0.05;
/** …counted once this many deliveries have been tried (or on the whole broadcast, when smaller). */
export const AUTO_PAUSE_MIN_TRIED = 20;

export type TExcludedReason = 'no_email' | 'unsubscribed' | 'bounced';
export const EXCLUDED_REASON_LABELS: Record<TExcludedReason, string> = {
  no_email: 'No email address',
  unsubscribed: 'Unsubscribed',
  bounced: 'Suppressed after a bounce',
};
