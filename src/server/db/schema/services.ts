import {
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { BILLING_MODES, FEE_TRIGGERS } from '../../../domain/billing/constants';
import { SERVICE_FREQUENCIES } from '../../../domain/services';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { orgs } from './org';
import { projectTemplates } from './project-templates';

/** A service in the firm's catalogue (GST returns, audit, bookkeeping…). */
export const services = pgTable(
  'services',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    category: text('category'),
    description: text('description'),
    frequency: text('frequency', { enum: SERVICE_FREQUENCIES }).notNull().default('yearly'),
    /** When work of a period falls due, e.g. { dayOfMonth: 20, monthsAfterPeriod: 1 }. */
    dueDateRule: jsonb('due_date_rule').$type<{ dayOfMonth: number; monthsAfterPeriod: number }>(),
    defaultFee: numeric('default_fee', { precision: 12, scale: 2 }),
    /** How its engagements are billed by default, and what its invoice lines carry (issue 35). */
    billingMode: text('billing_mode', { enum: BILLING_MODES }).notNull().default('fixed'),
    feeTrigger: text('fee_trigger', { enum: FEE_TRIGGERS }).notNull().default('manual'),
    /** SAC or HSN code printed on its lines. */
    taxCode: text('tax_code').notNull().default(''),
    /** Basis points; null: the firm's default rate. */
    taxRateBp: integer('tax_rate_bp'),
    projectTemplateId: uuid('project_template_id'),
    /** A statutory filing of the catalogue (issue 39): its periods and due dates come from there. */
    statutoryFilingCode: text('statutory_filing_code'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('services_org_id_id_key').on(t.orgId, t.id),
    unique('services_org_id_code_key').on(t.orgId, t.code),
    index('services_org_name_idx').on(t.orgId, t.name),
    foreignKey({
      name: 'services_project_template_fk',
      columns: [t.orgId, t.projectTemplateId],
      foreignColumns: [projectTemplates.orgId, projectTemplates.id],
    }).onDelete('set null'), // SET NULL (project_template_id)
  ],
);
