import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { GST_SCHEMES, TURNOVER_BANDS } from '../../../domain/statutory/catalogue';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/**
 * A client's tax registrations (issue 39), one row per client: what decides the statutory filings it
 * must make. The GST state is the GSTIN's first two digits, kept for the state-wise extensions.
 */
export const clientRegistrations = pgTable(
  'client_registrations',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    gstin: text('gstin'),
    gstState: text('gst_state'),
    gstScheme: text('gst_scheme', { enum: GST_SCHEMES }),
    turnoverBand: text('turnover_band', { enum: TURNOVER_BANDS }),
    pan: text('pan'),
    tan: text('tan'),
    cin: text('cin'),
    llpin: text('llpin'),
    taxAudit: boolean('tax_audit').notNull().default(false),
    transferPricing: boolean('transfer_pricing').notNull().default(false),
    collectsTcs: boolean('collects_tcs').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'client_registrations_pkey', columns: [t.orgId, t.clientId] }),
    foreignKey({
      name: 'client_registrations_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    index('client_registrations_gstin_idx').on(t.orgId, t.gstin).where(sql`gstin is not null`),
  ],
);

/**
 * A government extension of a filing's due date for one period (issue 39): for everyone, or for the
 * GST registrations of one state. Recorded once per firm; applying it moves the affected projects.
 */
export const filingExtensions = pgTable(
  'filing_extensions',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    filingCode: text('filing_code').notNull(),
    periodKey: text('period_key').notNull(),
    /** A GST state code; null: everyone. */
    stateCode: text('state_code'),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    note: text('note'),
    createdBy: uuid('created_by'),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    /** How many projects the apply moved. */
    projectsMoved: integer('projects_moved'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('filing_extensions_org_id_id_key').on(t.orgId, t.id),
    index('filing_extensions_org_idx').on(t.orgId, t.filingCode, t.periodKey),
    foreignKey({
      name: 'filing_extensions_member_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);
