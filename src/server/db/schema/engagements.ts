import {
  date,
  foreignKey,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { BILLING_MODES, FEE_TRIGGERS } from '../../../domain/billing/constants';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';
import { services } from './services';

/** An engagement: a client takes a service from a date, for a fee, with members assigned. */
export const clientServices = pgTable(
  'client_services',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    serviceId: uuid('service_id').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }),
    fee: numeric('fee', { precision: 12, scale: 2 }),
    /** The fee arrangement (billing, issue 35): fixed per period, hourly, or not billed. */
    billingMode: text('billing_mode', { enum: BILLING_MODES }).notNull().default('fixed'),
    feeTrigger: text('fee_trigger', { enum: FEE_TRIGGERS }).notNull().default('manual'),
    /**
     * Fixed fees are due for periods from this day on: engagements older than billing start from the
     * day billing arrived (migration), so years of past periods do not appear as unbilled.
     */
    billFrom: date('bill_from', { mode: 'string' }),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('client_services_org_id_id_key').on(t.orgId, t.id),
    index('client_services_client_idx').on(t.orgId, t.clientId),
    // With the dates, a service's count of clients engaged today and the services summary's
    // engagements by date are index-only scans.
    index('client_services_service_idx').on(t.orgId, t.serviceId, t.clientId, t.endDate, t.startDate),
    foreignKey({
      name: 'client_services_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'client_services_service_fk',
      columns: [t.orgId, t.serviceId],
      foreignColumns: [services.orgId, services.id],
    }),
  ],
);

export const clientServiceAssignees = pgTable(
  'client_service_assignees',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientServiceId: uuid('client_service_id').notNull(),
    memberId: uuid('member_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.clientServiceId, t.memberId] }),
    index('client_service_assignees_member_idx').on(t.orgId, t.memberId),
    foreignKey({
      name: 'client_service_assignees_engagement_fk',
      columns: [t.orgId, t.clientServiceId],
      foreignColumns: [clientServices.orgId, clientServices.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'client_service_assignees_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);
