import {
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  NO_FOLLOW_UP,
  PROPOSAL_EVENT_KINDS,
  PROPOSAL_KINDS,
  PROPOSAL_STATUSES,
  SIGNING_ORDERS,
  type TProposalFollowUp,
  type TProposalPackage,
  type TProposalService,
} from '../../../domain/proposals';
import { invoices } from './billing';
import { clients } from './clients';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { documents } from './documents';
import { members, orgs } from './org';
import { requests } from './requests';

// Proposals and engagement letters (issue 37). A template keeps its letter, packages and add-ons as
// documents (the editor saves them whole); a proposal copies them, so editing the template later
// never changes what a client was sent or signed.

export const proposalTemplates = pgTable(
  'proposal_templates',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    letterHtml: text('letter_html').notNull(),
    packages: jsonb('packages').$type<TProposalPackage[]>().notNull(),
    addOns: jsonb('add_ons').$type<TProposalService[]>().notNull().default([]),
    terms: text('terms').notNull().default(''),
    followUp: jsonb('follow_up').$type<TProposalFollowUp>().notNull().default(NO_FOLLOW_UP),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('proposal_templates_org_id_id_key').on(t.orgId, t.id),
    index('proposal_templates_org_name_idx').on(t.orgId, t.name),
  ],
);

export const proposals = pgTable(
  'proposals',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    /** A proposal, or a standalone signature request for one of the client's PDFs (sourceDocumentId). */
    kind: text('kind', { enum: PROPOSAL_KINDS }).notNull().default('proposal'),
    sourceDocumentId: uuid('source_document_id'),
    /** The version sent for signature: what the signers see and what is sealed, whatever comes later. */
    sourceVersion: integer('source_version'),
    title: text('title').notNull(),
    templateName: text('template_name'),
    letterHtml: text('letter_html').notNull(),
    packages: jsonb('packages').$type<TProposalPackage[]>().notNull(),
    addOns: jsonb('add_ons').$type<TProposalService[]>().notNull().default([]),
    terms: text('terms').notNull().default(''),
    /** What follows the acceptance (an invoice, a request): done once by the follow-up job. */
    followUp: jsonb('follow_up').$type<TProposalFollowUp>().notNull().default(NO_FOLLOW_UP),
    /** The invoice and the request the follow-up made, and when it ran (null: not yet). */
    invoiceId: uuid('invoice_id'),
    requestId: uuid('request_id'),
    followedUpAt: timestamp('followed_up_at', { withTimezone: true }),
    /** draft → sent → accepted | declined | withdrawn; Expired is derived from expiresOn. */
    status: text('status', { enum: PROPOSAL_STATUSES }).notNull().default('draft'),
    signingOrder: text('signing_order', { enum: SIGNING_ORDERS }).notNull().default('any'),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    /** What the signers chose: the package's index and the add-ons' (the first signer's choice binds). */
    chosenPackage: smallint('chosen_package'),
    chosenAddOns: jsonb('chosen_add_ons').$type<number[]>(),
    declineReason: text('decline_reason'),
    /** The sealed PDF in the client's documents (made by the seal job after the last signature). */
    documentId: uuid('document_id'),
    /** SHA-256 of the agreement as signed (letter, chosen services, signatures), on the certificate page. */
    contentSha256: text('content_sha256'),
    createdBy: uuid('created_by'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('proposals_org_id_id_key').on(t.orgId, t.id),
    index('proposals_org_created_idx').on(t.orgId, t.createdAt, t.id),
    index('proposals_org_client_idx').on(t.orgId, t.clientId, t.createdAt),
    index('proposals_org_status_idx').on(t.orgId, t.status, t.expiresOn),
    foreignKey({
      name: 'proposals_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'proposals_document_fk',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }).onDelete('set null'), // SET NULL (document_id)
    foreignKey({
      name: 'proposals_source_document_fk',
      columns: [t.orgId, t.sourceDocumentId],
      foreignColumns: [documents.orgId, documents.id],
    }).onDelete('set null'), // SET NULL (source_document_id)
    foreignKey({
      name: 'proposals_invoice_fk',
      columns: [t.orgId, t.invoiceId],
      foreignColumns: [invoices.orgId, invoices.id],
    }).onDelete('set null'), // SET NULL (invoice_id)
    foreignKey({
      name: 'proposals_request_fk',
      columns: [t.orgId, t.requestId],
      foreignColumns: [requests.orgId, requests.id],
    }).onDelete('set null'), // SET NULL (request_id)
    foreignKey({
      name: 'proposals_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/** A person who signs: the link's secret and the one-time code are kept as hashes. */
export const proposalSigners = pgTable(
  'proposal_signers',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    proposalId: uuid('proposal_id').notNull(),
    position: smallint('position').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    linkHash: text('link_hash'),
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    codeAttempts: integer('code_attempts').notNull().default(0),
    sessionHash: text('session_hash'),
    sessionExpiresAt: timestamp('session_expires_at', { withTimezone: true }),
    /** When the signer was last mailed the link (sent or reminded), and how many reminders went. */
    lastMailedAt: timestamp('last_mailed_at', { withTimezone: true }),
    remindersSent: integer('reminders_sent').notNull().default(0),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    /** 'typed' text or a 'drawn' PNG data URL; what the sealed PDF shows. */
    signatureKind: text('signature_kind', { enum: ['typed', 'drawn'] }),
    signature: text('signature'),
    consentText: text('consent_text'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('proposal_signers_org_id_id_key').on(t.orgId, t.id),
    index('proposal_signers_proposal_idx').on(t.orgId, t.proposalId, t.position),
    foreignKey({
      name: 'proposal_signers_proposal_fk',
      columns: [t.orgId, t.proposalId],
      foreignColumns: [proposals.orgId, proposals.id],
    }).onDelete('cascade'),
  ],
);

/** The audit trail: each event with its time, address and browser (the certificate page lists them). */
export const proposalEvents = pgTable(
  'proposal_events',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    proposalId: uuid('proposal_id').notNull(),
    signerId: uuid('signer_id'),
    kind: text('kind', { enum: PROPOSAL_EVENT_KINDS }).notNull(),
    who: text('who').notNull(),
    detail: text('detail').notNull().default(''),
    ip: text('ip'),
    userAgent: text('user_agent'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('proposal_events_proposal_idx').on(t.orgId, t.proposalId, t.at),
    foreignKey({
      name: 'proposal_events_signer_fk',
      columns: [t.orgId, t.signerId],
      foreignColumns: [proposalSigners.orgId, proposalSigners.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'proposal_events_proposal_fk',
      columns: [t.orgId, t.proposalId],
      foreignColumns: [proposals.orgId, proposals.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The firm's document-signing certificate: made on first use (self-signed), or the firm's own
 * PKCS#12 uploaded on the settings page. The private key is sealed by the vault key.
 */
export const firmSigningCerts = pgTable('firm_signing_certs', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  source: text('source', { enum: ['generated', 'uploaded'] }).notNull(),
  certPem: text('cert_pem').notNull(),
  /** Any intermediate certificates of an uploaded chain, PEM, leaf first excluded. */
  chainPem: text('chain_pem').notNull().default(''),
  keySealed: text('key_sealed').notNull(),
  subject: text('subject').notNull(),
  notAfter: timestamp('not_after', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
