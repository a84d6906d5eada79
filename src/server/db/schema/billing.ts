import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  DISBURSEMENT_KINDS,
  INVOICE_KINDS,
  INVOICE_STATUSES,
  LINE_KINDS,
  PAYMENT_KINDS,
  PAYMENT_METHODS,
  RECURRING_MODES,
  TAX_REGIMES,
} from '../../../domain/billing/constants';
import { clients } from './clients';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { documents } from './documents';
import { clientServices } from './engagements';
import { members, orgs } from './org';
import { projects } from './projects';
import { services } from './services';

// Billing (issue 35). Money is an integer in the currency's minor unit everywhere (bigint columns
// read as JS numbers: the largest invoice total allowed, domain/billing/constants MAX_AMOUNT, is far
// inside 2^53). An issued invoice is never edited: its lines, totals and the client's address as
// printed are frozen on it; a change is a credit note.

/** The firm's billing rules: its tax profile, numbering, terms, how it is paid, reminders. */
export const billingSettings = pgTable('billing_settings', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  taxRegime: text('tax_regime', { enum: TAX_REGIMES }).notNull().default('none'),
  /** GST: the firm's state code (the first two digits of its GSTIN), which decides CGST+SGST or IGST. */
  gstState: text('gst_state'),
  /** Basis points (1800 = 18%): the rate a line gets when its service names none. */
  defaultTaxRateBp: integer('default_tax_rate_bp').notNull().default(0),
  /** Round an invoice's total to whole units with an explicit round-off line (India does). */
  roundTotals: boolean('round_totals').notNull().default(false),
  invoicePrefix: text('invoice_prefix').notNull().default('INV'),
  creditNotePrefix: text('credit_note_prefix').notNull().default('CN'),
  /** Digits of the running number: 4 gives INV/2026-27/0001. */
  seqDigits: smallint('seq_digits').notNull().default(4),
  dueDays: smallint('due_days').notNull().default(15),
  terms: text('terms').notNull().default(''),
  bankDetails: text('bank_details').notNull().default(''),
  upiVpa: text('upi_vpa'),
  upiPayee: text('upi_payee'),
  /** What a period's fixed fee makes by itself: a draft to review, or an issued invoice. */
  recurringMode: text('recurring_mode', { enum: RECURRING_MODES }).notNull().default('draft'),
  remindersEnabled: boolean('reminders_enabled').notNull().default(false),
  /** Payment reminders: N days before the due date (null: none), on it, then every N days after. */
  remindBeforeDays: smallint('remind_before_days'),
  remindOnDue: boolean('remind_on_due').notNull().default(true),
  remindEveryDays: smallint('remind_every_days'),
  /**
   * The accounting export's ledger names where the firm's books call them otherwise (Tally matches
   * ledgers by name); a key left out is the default (domain/accounting-export.ts `ledgersOf`).
   */
  ledgerNames: jsonb('ledger_names').$type<Record<string, string>>().notNull().default({}),
  updatedAt: updatedAt(),
});

/**
 * Per client: who receives its invoices, whether payment reminders are paused, and its credit.
 */
export const clientBilling = pgTable(
  'client_billing',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    emails: text('emails').array().notNull().default(sql`'{}'::text[]`),
    remindersPaused: boolean('reminders_paused').notNull().default(false),
    /**
     * The client's unused credit in minor units (payments/credit.ts says what counts), kept by the
     * database's own triggers on payments, allocations and invoices (migration 0053), in the
     * transaction of each change: no writer can forget it, and the firm's aging reads the few
     * clients with credit instead of summing every payment and allocation the firm ever had.
     */
    credit: bigint('credit', { mode: 'number' }).notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.clientId] }),
    index('client_billing_credit_idx').on(t.orgId, t.clientId, t.credit).where(sql`credit <> 0`),
    foreignKey({
      name: 'client_billing_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The running number of a series (INV, CN) in a fiscal year. Issuing takes the next number with
 * an upsert on this row inside the issuing transaction: concurrent issues queue on the row lock,
 * and a rolled-back issue gives its number back, so numbers have no gap and no duplicate.
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    series: text('series').notNull(),
    fiscalYear: text('fiscal_year').notNull(),
    lastSeq: integer('last_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.series, t.fiscalYear] })],
);

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    kind: text('kind', { enum: INVOICE_KINDS }).notNull().default('invoice'),
    /** draft → issued → sent → partly_paid → paid; void. Overdue is derived (SPEC §4's rule). */
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('draft'),
    series: text('series'),
    fiscalYear: text('fiscal_year'),
    seq: integer('seq'),
    number: text('number'),
    issueDate: date('issue_date', { mode: 'string' }),
    dueDate: date('due_date', { mode: 'string' }),
    currency: text('currency').notNull(),
    /** The invoice's tax context, frozen at issue: regime, supply state, intra-state, zero-rated. */
    taxRegime: text('tax_regime', { enum: TAX_REGIMES }).notNull().default('none'),
    placeOfSupply: text('place_of_supply'),
    zeroRated: boolean('zero_rated').notNull().default(false),
    subtotal: bigint('subtotal', { mode: 'number' }).notNull().default(0),
    taxTotal: bigint('tax_total', { mode: 'number' }).notNull().default(0),
    roundOff: bigint('round_off', { mode: 'number' }).notNull().default(0),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    /** Payments and credit notes allocated to it (TDS and bank charges included). */
    amountPaid: bigint('amount_paid', { mode: 'number' }).notNull().default(0),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    /** The client as printed, frozen at issue: name, code, address lines, tax ids. */
    billTo: jsonb('bill_to').$type<{
      name: string;
      code: string;
      addressLines: string[];
      taxIds: { kind: string; value: string }[];
    }>(),
    notes: text('notes').notNull().default(''),
    terms: text('terms').notNull().default(''),
    /** A credit note names the invoice it corrects. */
    creditForId: uuid('credit_for_id'),
    /** Made by the recurring job for an engagement's period (never twice: see invoice_lines). */
    recurring: boolean('recurring').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    issuedBy: uuid('issued_by'),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('invoices_org_id_id_key').on(t.orgId, t.id),
    uniqueIndex('invoices_number_key').on(t.orgId, t.series, t.fiscalYear, t.seq).where(sql`seq is not null`),
    index('invoices_client_idx').on(t.orgId, t.clientId, t.issueDate),
    index('invoices_org_created_idx').on(t.orgId, t.createdAt, t.id),
    index('invoices_org_issue_idx').on(t.orgId, t.issueDate, t.id),
    // The list's total counts a firm's invoices: a key of org_id alone deduplicates to a few pages
    // (120 for 137,000 invoices, against 830 for (org_id, id)), which halves the count (bench/README.md).
    index('invoices_org_idx').on(t.orgId),
    // Receivables and reminders read the open ones by due date; with kind and balance in the key, the
    // aging and the list's outstanding sum them from the index alone.
    index('invoices_open_balance_idx')
      .on(t.orgId, t.dueDate, t.clientId, t.kind, t.balance)
      .where(sql`status in ('issued', 'sent', 'partly_paid')`),
    // A client's credit adds its issued credit notes: read from the index alone.
    index('invoices_credit_notes_idx')
      .on(t.orgId, t.clientId, t.total)
      .where(sql`kind = 'credit_note' and status not in ('draft', 'void')`),
    foreignKey({
      name: 'invoices_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }),
    foreignKey({
      name: 'invoices_credit_for_fk',
      columns: [t.orgId, t.creditForId],
      foreignColumns: [t.orgId, t.id],
    }),
    foreignKey({
      name: 'invoices_issued_by_fk',
      columns: [t.orgId, t.issuedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (issued_by)
    foreignKey({
      name: 'invoices_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/**
 * A line of an invoice or credit note. It names what it bills (time entries point at it, a fixed
 * fee's engagement and period, a disbursement), and keeps the standard value of that next to the
 * amount billed: the difference is the write-up or write-down that realization reports.
 */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    invoiceId: uuid('invoice_id').notNull(),
    position: smallint('position').notNull(),
    kind: text('kind', { enum: LINE_KINDS }).notNull().default('custom'),
    description: text('description').notNull(),
    serviceId: uuid('service_id'),
    projectId: uuid('project_id'),
    engagementId: uuid('engagement_id'),
    /** A fixed fee's period (its first day). */
    periodStart: date('period_start', { mode: 'string' }),
    taxCode: text('tax_code').notNull().default(''),
    /** Thousandths of a unit: 2.5 hours is 2500. */
    quantityMilli: bigint('quantity_milli', { mode: 'number' }).notNull(),
    rate: bigint('rate', { mode: 'number' }).notNull(),
    discount: bigint('discount', { mode: 'number' }).notNull().default(0),
    /** Quantity × rate − discount, rounded per line: what tax is charged on. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** What the billed work was worth at standard rates (time at its rates, a fee, a cost). */
    standardValue: bigint('standard_value', { mode: 'number' }).notNull().default(0),
    taxRateBp: integer('tax_rate_bp').notNull().default(0),
    cgst: bigint('cgst', { mode: 'number' }).notNull().default(0),
    sgst: bigint('sgst', { mode: 'number' }).notNull().default(0),
    igst: bigint('igst', { mode: 'number' }).notNull().default(0),
    /** VAT or sales tax where the regime is not GST. */
    otherTax: bigint('other_tax', { mode: 'number' }).notNull().default(0),
    /** Set when its invoice is voided: what it billed is back in WIP, and its fee period free. */
    released: boolean('released').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('invoice_lines_org_id_id_key').on(t.orgId, t.id),
    index('invoice_lines_invoice_idx').on(t.orgId, t.invoiceId, t.position),
    // A fixed fee is billed once per engagement and period, whoever (or whichever instance's
    // recurring job) tries twice: the second insert fails here.
    uniqueIndex('invoice_lines_fee_period_key')
      .on(t.orgId, t.engagementId, t.periodStart)
      .where(sql`kind = 'fee' and not released`),
    index('invoice_lines_service_idx').on(t.orgId, t.serviceId).where(sql`service_id is not null`),
    foreignKey({
      name: 'invoice_lines_invoice_fk',
      columns: [t.orgId, t.invoiceId],
      foreignColumns: [invoices.orgId, invoices.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'invoice_lines_service_fk',
      columns: [t.orgId, t.serviceId],
      foreignColumns: [services.orgId, services.id],
    }).onDelete('set null'), // SET NULL (service_id)
    foreignKey({
      name: 'invoice_lines_project_fk',
      columns: [t.orgId, t.projectId],
      foreignColumns: [projects.orgId, projects.id],
    }).onDelete('set null'), // SET NULL (project_id)
    foreignKey({
      name: 'invoice_lines_engagement_fk',
      columns: [t.orgId, t.engagementId],
      foreignColumns: [clientServices.orgId, clientServices.id],
    }).onDelete('set null'), // SET NULL (engagement_id)
  ],
);

/** Paid on the client's behalf (government fees, courier): billed at cost, with its receipt. */
export const disbursements = pgTable(
  'disbursements',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    projectId: uuid('project_id'),
    kind: text('kind', { enum: DISBURSEMENT_KINDS }).notNull().default('other'),
    spentOn: date('spent_on', { mode: 'string' }).notNull(),
    description: text('description').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    receiptDocumentId: uuid('receipt_document_id'),
    invoiceLineId: uuid('invoice_line_id'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('disbursements_org_id_id_key').on(t.orgId, t.id),
    index('disbursements_unbilled_idx')
      .on(t.orgId, t.clientId, t.spentOn)
      .where(sql`invoice_line_id is null`),
    index('disbursements_line_idx').on(t.orgId, t.invoiceLineId).where(sql`invoice_line_id is not null`),
    foreignKey({
      name: 'disbursements_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'disbursements_project_fk',
      columns: [t.orgId, t.projectId],
      foreignColumns: [projects.orgId, projects.id],
    }).onDelete('set null'), // SET NULL (project_id)
    foreignKey({
      name: 'disbursements_receipt_fk',
      columns: [t.orgId, t.receiptDocumentId],
      foreignColumns: [documents.orgId, documents.id],
    }).onDelete('set null'), // SET NULL (receipt_document_id)
    foreignKey({
      name: 'disbursements_line_fk',
      columns: [t.orgId, t.invoiceLineId],
      foreignColumns: [invoiceLines.orgId, invoiceLines.id],
    }).onDelete('set null'), // SET NULL (invoice_line_id)
    foreignKey({
      name: 'disbursements_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/**
 * Money from (a receipt) or back to (a refund) a client. A receipt settles invoices with what was
 * received plus the tax the client deducted at source and the bank's charges; what is not allocated
 * is the client's credit. A payment is never deleted: it is reversed (reversed_at), which takes its
 * allocations back. `gateway*` wait for online card payments.
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    kind: text('kind', { enum: PAYMENT_KINDS }).notNull().default('receipt'),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    reference: text('reference').notNull().default(''),
    currency: text('currency').notNull(),
    /** Received in the bank (or paid back, for a refund). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    tdsAmount: bigint('tds_amount', { mode: 'number' }).notNull().default(0),
    tdsSection: text('tds_section'),
    tdsCertificateReceived: boolean('tds_certificate_received').notNull().default(false),
    bankCharges: bigint('bank_charges', { mode: 'number' }).notNull().default(0),
    notes: text('notes').notNull().default(''),
    gateway: text('gateway'),
    gatewayRef: text('gateway_ref'),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversedBy: uuid('reversed_by'),
    reverseReason: text('reverse_reason'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('payments_org_id_id_key').on(t.orgId, t.id),
    index('payments_client_idx').on(t.orgId, t.clientId, t.receivedOn),
    index('payments_org_received_idx').on(t.orgId, t.receivedOn, t.id),
    // The firm's aging sums every client's live money in for its credit, from the index alone.
    index('payments_credit_idx')
      .on(t.orgId, t.clientId, t.kind, t.amount, t.tdsAmount, t.bankCharges)
      .where(sql`reversed_at is null`),
    foreignKey({
      name: 'payments_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }),
    foreignKey({
      name: 'payments_reversed_by_fk',
      columns: [t.orgId, t.reversedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (reversed_by)
    foreignKey({
      name: 'payments_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/**
 * Settles part of an invoice from a receipt or from an issued credit note (exactly one source).
 * Allocations of a reversed payment are marked reversed, never deleted, so the history holds.
 */
export const allocations = pgTable(
  'allocations',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    paymentId: uuid('payment_id'),
    creditNoteId: uuid('credit_note_id'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    allocatedOn: date('allocated_on', { mode: 'string' }).notNull(),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('allocations_org_id_id_key').on(t.orgId, t.id),
    index('allocations_invoice_idx').on(t.orgId, t.invoiceId),
    index('allocations_payment_idx').on(t.orgId, t.paymentId).where(sql`payment_id is not null`),
    index('allocations_credit_note_idx').on(t.orgId, t.creditNoteId).where(sql`credit_note_id is not null`),
    // A client's credit subtracts its live allocations: read by client, not by invoice, with the
    // amount in the key so the firm's aging sums them from the index alone.
    index('allocations_client_amount_idx').on(t.orgId, t.clientId, t.amount).where(sql`reversed_at is null`),
    foreignKey({
      name: 'allocations_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }),
    foreignKey({
      name: 'allocations_invoice_fk',
      columns: [t.orgId, t.invoiceId],
      foreignColumns: [invoices.orgId, invoices.id],
    }),
    foreignKey({
      name: 'allocations_payment_fk',
      columns: [t.orgId, t.paymentId],
      foreignColumns: [payments.orgId, payments.id],
    }),
    foreignKey({
      name: 'allocations_credit_note_fk',
      columns: [t.orgId, t.creditNoteId],
      foreignColumns: [invoices.orgId, invoices.id],
    }),
    foreignKey({
      name: 'allocations_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/**
 * A payment reminder step done for an invoice ('before', 'due', 'after:3' for the third reminder
 * after the due date): the primary key makes each step happen once across instances.
 */
export const invoiceReminderSteps = pgTable(
  'invoice_reminder_steps',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    invoiceId: uuid('invoice_id').notNull(),
    step: text('step').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.invoiceId, t.step] }),
    foreignKey({
      name: 'invoice_reminder_steps_invoice_fk',
      columns: [t.orgId, t.invoiceId],
      foreignColumns: [invoices.orgId, invoices.id],
    }).onDelete('cascade'),
  ],
);

export const INVOICE_DELIVERY_STATUSES = ['queued', 'sent', 'failed'] as const;

/**
 * Every mailing of an invoice to one address: the client's history of what it was sent and when,
 * as reminder_deliveries and broadcast_deliveries keep theirs. Queued with the send (in its
 * transaction), marked sent right after the mail server took the message, or failed with its answer.
 */
export const invoiceDeliveries = pgTable(
  'invoice_deliveries',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    invoiceId: uuid('invoice_id').notNull(),
    clientId: uuid('client_id').notNull(),
    email: text('email').notNull(),
    status: text('status', { enum: INVOICE_DELIVERY_STATUSES }).notNull().default('queued'),
    attempt: integer('attempt').notNull().default(0),
    error: text('error'),
    requestedBy: uuid('requested_by'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('invoice_deliveries_org_id_id_key').on(t.orgId, t.id),
    index('invoice_deliveries_invoice_idx').on(t.orgId, t.invoiceId, t.createdAt),
    index('invoice_deliveries_client_idx').on(t.orgId, t.clientId, t.createdAt),
    foreignKey({
      name: 'invoice_deliveries_invoice_fk',
      columns: [t.orgId, t.invoiceId],
      foreignColumns: [invoices.orgId, invoices.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'invoice_deliveries_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'invoice_deliveries_requested_by_fk',
      columns: [t.orgId, t.requestedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (requested_by)
  ],
);
