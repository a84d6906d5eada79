import { z } from 'zod';
import { BILLING_MODES, FEE_TRIGGERS } from './billing/constants';
import { isIsoDate } from './days';
import { zInt, zString, zText } from './fields';
import { ZPageInput } from './pagination';
import { ZOptionalMoney } from './services';

// Proposals and engagement letters (issue 37): a letter with placeholders, the services offered
// (packages the client chooses between, and optional add-ons) with billing's fee arrangements,
// terms; sent to signers who open it by a link and a one-time code, choose, and sign.

export const PROPOSAL_PLACEHOLDERS = [
  { key: 'client_name', label: 'Client name' },
  { key: 'contact_name', label: 'Signer name' },
  { key: 'firm_name', label: 'Firm name' },
  { key: 'services', label: 'Services offered (a list)' },
  { key: 'fees', label: 'Fees (a list with each arrangement)' },
  { key: 'date', label: "Today's date" },
  { key: 'expiry_date', label: 'Expiry date' },
] as const;
export type TProposalPlaceholder = (typeof PROPOSAL_PLACEHOLDERS)[number]['key'];
const KNOWN = new Set<string>(PROPOSAL_PLACEHOLDERS.map((p) => p.key));
const PLACEHOLDER = /\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}/g;

export function unknownProposalPlaceholders(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) if (!KNOWN.has(m[1] ?? '')) out.add(m[1] ?? '');
  return [...out];
}

/** Fills `{{key}}` / `{{key|fallback}}`; `raw` values are ready-made HTML (lists), the rest escaped. */
export function fillProposalPlaceholders(
  text: string,
  values: Partial<Record<TProposalPlaceholder, string | null>>,
  escapeValue: (s: string) => string,
  raw: Partial<Record<TProposalPlaceholder, string>> = {},
): string {
  return text.replace(PLACEHOLDER, (_all, key: string, fallback?: string) => {
    const k = key as TProposalPlaceholder;
    if (raw[k]) return raw[k];
    const value = values[k];
    return escapeValue(value?.trim() ? value : (fallback ?? '').trim());
  });
}

export const MAX_PACKAGES = 3;
export const MAX_ADD_ONS = 10;
export const MAX_SERVICES_PER_PACKAGE = 20;
export const MAX_SIGNERS = 4;
/** Reminders to a signer who has not answered: every few days, a few times, never past expiry. */
export const REMINDER_EVERY_DAYS = 3;
export const MAX_REMINDERS = 3;

/** One service offered, with billing's fee arrangement (as an engagement has). */
export const ZProposalService = z
  .object({
    serviceId: z.uuid('Choose a service from the catalogue'),
    fee: ZOptionalMoney,
    billingMode: z.enum(BILLING_MODES, { error: 'Choose how the service is billed' }),
    feeTrigger: z.enum(FEE_TRIGGERS, { error: 'Choose when the fee is billed' }).default('manual'),
    description: zText({ max: 500, label: 'Description' }).default(''),
  })
  .refine((v) => v.billingMode !== 'fixed' || (!!v.fee && Number(v.fee) > 0), {
    message: 'A fixed fee per period needs the fee',
    path: ['fee'],
  });
export type TProposalService = z.output<typeof ZProposalService>;

export const ZProposalPackage = z.object({
  name: zText({ min: 1, max: 80, label: 'Package name' }),
  services: z
    .array(ZProposalService)
    .min(1, 'A package needs at least one service')
    .max(MAX_SERVICES_PER_PACKAGE, `At most ${MAX_SERVICES_PER_PACKAGE} services in a package`),
});
export type TProposalPackage = z.output<typeof ZProposalPackage>;

const withKnownPlaceholders = <T extends z.ZodType<string>>(schema: T, label: string) =>
  schema.superRefine((value, ctx) => {
    const unknown = unknownProposalPlaceholders(value);
    if (unknown.length) {
      ctx.addIssue({
        code: 'custom',
        message: `${label} uses a placeholder that does not exist: ${unknown.map((u) => `{{${u}}}`).join(', ')}`,
      });
    }
  });

/**
 * What follows an acceptance (set on the template, copied to the proposal): an invoice for the
 * accepted fixed fees now due, or a retainer invoice, each a draft or issued; and an onboarding
 * client request from a request template, due some days later.
 */
export const FOLLOW_UP_BILLING = [
  'none',
  'fees_draft',
  'fees_issued',
  'retainer_draft',
  'retainer_issued',
] as const;
export type TFollowUpBilling = (typeof FOLLOW_UP_BILLING)[number];
export const FOLLOW_UP_BILLING_LABELS: Record<TFollowUpBilling, string> = {
  none: 'No invoice',
  fees_draft: 'First invoice for the accepted fixed fees, as a draft',
  fees_issued: 'First invoice for the accepted fixed fees, issued',
  retainer_draft: 'A retainer invoice, as a draft',
  retainer_issued: 'A retainer invoice, issued',
};
export const isRetainer = (b: TFollowUpBilling) => b === 'retainer_draft' || b === 'retainer_issued';

export const ZProposalFollowUp = z
  .object({
    billing: z.enum(FOLLOW_UP_BILLING, { error: 'Choose what is billed after acceptance' }).default('none'),
    retainer: ZOptionalMoney,
    requestTemplateId: z
      .uuid('Choose a request template from the list')
      .nullish()
      .transform((v) => v ?? null),
    requestDueDays: zInt({ error: 'Give the days as a whole number' })
      .min(1, 'The request is due at least a day later')
      .max(90, 'The request is due at most 90 days later')
      .default(14),
  })
  .refine((v) => !isRetainer(v.billing) || (!!v.retainer && Number(v.retainer) > 0), {
    message: 'A retainer invoice needs its amount',
    path: ['retainer'],
  });
export type TProposalFollowUp = z.output<typeof ZProposalFollowUp>;
export const NO_FOLLOW_UP: TProposalFollowUp = {
  billing: 'none',
  retainer: null,
  requestTemplateId: null,
  requestDueDays: 14,
};

/** What a template and a proposal share: the letter, the packages, the add-ons, the terms. */
export const ZProposalContent = z.object({
  letterHtml: withKnownPlaceholders(
    zText({ min: 1, max: 100_000, label: 'Letter', minMessage: 'Write the letter' }),
    'The letter',
  ),
  packages: z
    .array(ZProposalPackage)
    .min(1, 'Offer at least one package')
    .max(MAX_PACKAGES, `At most ${MAX_PACKAGES} packages for the client to choose between`),
  addOns: z.array(ZProposalService).max(MAX_ADD_ONS, `At most ${MAX_ADD_ONS} add-ons`).default([]),
  terms: zText({ max: 20_000, label: 'Terms' }).default(''),
  followUp: ZProposalFollowUp.default(NO_FOLLOW_UP),
});
export type TProposalContent = z.output<typeof ZProposalContent>;

export const ZProposalTemplateSave = ZProposalContent.extend({
  templateId: z.uuid().optional(),
  name: zText({ min: 1, max: 120, label: 'Template name' }),
});
export type TProposalTemplateSave = z.input<typeof ZProposalTemplateSave>;
export const ZProposalTemplateRef = z.object({ templateId: z.uuid('Choose a template from the list') });

export const SIGNING_ORDERS = ['sequential', 'any'] as const;
export type TSigningOrder = (typeof SIGNING_ORDERS)[number];
export const SIGNING_ORDER_LABELS: Record<TSigningOrder, string> = {
  sequential: 'Each signs in turn, in the order listed',
  any: 'In any order',
};

export const ZSigner = z.object({
  name: zText({ min: 2, max: 120, label: 'Signer name' }),
  email: zString()
    .trim()
    .toLowerCase()
    .max(254, 'Email address is too long')
    .pipe(z.email('Enter a valid email address')),
});
/** Who signs: one to MAX_SIGNERS people, each by their own email. */
const ZSigners = z
  .array(ZSigner)
  .min(1, 'Add at least one signer')
  .max(MAX_SIGNERS, `At most ${MAX_SIGNERS} signers`)
  .refine((s) => new Set(s.map((x) => x.email)).size === s.length, 'Each signer needs their own email');

const ZIsoDay = zString().trim().refine(isIsoDate, 'Enter a date as YYYY-MM-DD');

export const ZProposalFields = ZProposalContent.extend({
  title: zText({ min: 1, max: 200, label: 'Title' }),
  expiresOn: ZIsoDay,
  signingOrder: z.enum(SIGNING_ORDERS).default('any'),
  signers: ZSigners,
});
export const ZProposalCreate = ZProposalFields.extend({
  clientId: z.uuid('Choose a client or prospect'),
  templateName: zText({ max: 120 }).nullish(),
});
export type TProposalCreate = z.input<typeof ZProposalCreate>;
export const ZProposalUpdate = ZProposalFields.extend({ proposalId: z.uuid() });
export const ZProposalClientSearch = z.object({ search: zString().trim().max(100).default('') });
export const ZProposalRef = z.object({ proposalId: z.uuid('Choose a proposal from the list') });
export const ZProposalFromTemplate = z.object({
  clientId: z.uuid('Choose a client or prospect'),
  templateId: z.uuid('Choose a template'),
});

/** A proposal (letter, services, fees), or a standalone signature request for a client's PDF. */
export const PROPOSAL_KINDS = ['proposal', 'document'] as const;
export type TProposalKind = (typeof PROPOSAL_KINDS)[number];

/** A client's PDF sent for signature: who signs, in what order, until when. Sent at once. */
export const ZSignatureRequest = z.object({
  documentId: z.uuid('Choose a PDF from the client’s documents'),
  title: zText({ min: 1, max: 200, label: 'Title' }),
  message: zText({ max: 2000, label: 'Message' }).default(''),
  expiresOn: ZIsoDay,
  signingOrder: z.enum(SIGNING_ORDERS).default('any'),
  signers: ZSigners,
});
export type TSignatureRequest = z.input<typeof ZSignatureRequest>;
export const ZSignerOptions = z.object({ clientId: z.uuid('Choose a client') });

export const PROPOSAL_STATUSES = ['draft', 'sent', 'accepted', 'declined', 'withdrawn'] as const;
export type TProposalStatus = (typeof PROPOSAL_STATUSES)[number];
/** What a list shows: a sent proposal past its expiry date is Expired. */
export type TProposalDisplayStatus = TProposalStatus | 'expired';
export const PROPOSAL_STATUS_LABELS: Record<TProposalDisplayStatus, string> = {
  draft: 'Draft',
  sent: 'Awaiting signature',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  expired: 'Expired',
};
export function displayStatus(
  status: TProposalStatus,
  expiresOn: string,
  today: string,
): TProposalDisplayStatus {
  return status === 'sent' && expiresOn < today ? 'expired' : status;
}

export const ZProposalListInput = ZPageInput.pick({ page: true, pageSize: true }).extend({
  clientId: z.uuid().optional(),
  status: z.enum([...PROPOSAL_STATUSES, 'expired']).optional(),
});

export const ZProposalWithdraw = ZProposalRef.extend({
  reason: zText({ max: 500, label: 'Reason' }).default(''),
});

// The signer's side: a link names the proposal, the signer and a secret; a code mailed to the
// signer opens a short session (the portal's code rules).

export const ZSignerLink = z.object({
  proposalId: z.uuid('This link is not valid'),
  signerId: z.uuid('This link is not valid'),
  token: zString().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is not valid'),
});
export const ZSignerCodeVerify = ZSignerLink.extend({
  code: zString()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from the email'),
});
/** After the code: a session secret the page holds in memory (not a cookie: one tab, one signer). */
export const ZSignerSession = ZSignerLink.extend({
  session: zString().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Your session has ended: open the link again'),
});

export const ESIGN_CONSENT_TEXT =
  'I agree to sign this document electronically. My electronic signature has the same effect as my handwritten signature, and I can ask the firm for a paper copy.';

export const ZSignatureDrawn = zString()
  .max(200_000, 'The drawing is too large: clear it and draw again')
  .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, 'Draw your signature again');

export const ZSignerSign = ZSignerSession.extend({
  packageIndex: zInt()
    .min(0)
    .max(MAX_PACKAGES - 1),
  addOnIndexes: z
    .array(
      zInt()
        .min(0)
        .max(MAX_ADD_ONS - 1),
    )
    .max(MAX_ADD_ONS)
    .default([]),
  signature: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('typed'), text: zText({ min: 2, max: 120, label: 'Your typed signature' }) }),
    z.object({ kind: z.literal('drawn'), image: ZSignatureDrawn }),
  ]),
  consent: z.literal(true, 'Agree to sign electronically to continue'),
});
export type TSignerSign = z.input<typeof ZSignerSign>;

/** Signing in the client portal: the portal's sign-in stands for the link and the code. */
export const ZPortalSignRef = z.object({ proposalId: z.uuid('Choose something to sign from the list') });
export const ZPortalSign = ZSignerSign.omit({
  proposalId: true,
  signerId: true,
  token: true,
  session: true,
}).extend(ZPortalSignRef.shape);
export type TPortalSign = z.input<typeof ZPortalSign>;
export const ZSignerDecline = ZSignerSession.extend({
  reason: zText({ min: 3, max: 1000, label: 'Reason', minMessage: 'Tell the firm why, in a few words' }),
});

export const ZPortalSignDecline = ZPortalSignRef.extend({
  reason: zText({ min: 3, max: 1000, label: 'Reason', minMessage: 'Tell the firm why, in a few words' }),
});

export const PROPOSAL_EVENT_KINDS = [
  'created',
  'sent',
  'reminded',
  'opened',
  'code_sent',
  'verified',
  'signed',
  'declined',
  'withdrawn',
  'accepted',
] as const;
export type TProposalEventKind = (typeof PROPOSAL_EVENT_KINDS)[number];

export const signerPath = (proposalId: string, signerId: string, token: string) =>
  `/sign/${proposalId}/${signerId}?t=${token}`;

/** The firm's own signing certificate, a PKCS#12 (.p12 / .pfx) file read in the browser. */
export const ZSigningCertificateUpload = z.object({
  fileBase64: zString()
    .max(200_000, 'The file is too large for a signing certificate')
    .regex(/^[A-Za-z0-9+/=]+$/, 'Choose a .p12 or .pfx file'),
  password: zString().max(200, 'The password is too long').default(''),
});
