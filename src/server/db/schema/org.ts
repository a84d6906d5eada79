import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, orgId, updatedAt } from './columns';

/** The firm. */
export const orgs = pgTable('orgs', {
  id: id(),
  name: text('name').notNull(),
  legalName: text('legal_name'),
  country: text('country'),
  timeZone: text('time_zone').notNull().default('UTC'),
  currency: text('currency').notNull().default('USD'),
  fiscalYearStartMonth: smallint('fiscal_year_start_month').notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const roles = pgTable(
  'roles',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    /** Limits the role to the clients a member is assigned to. */
    assignedClientsOnly: boolean('assigned_clients_only').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('roles_org_id_id_key').on(t.orgId, t.id),
    unique('roles_org_id_name_key').on(t.orgId, t.name),
  ],
);

export const MEMBER_STATUSES = ['invited', 'active', 'disabled'] as const;

/** A staff user in a firm; `sub` is the identity provider's subject. */
export const members = pgTable(
  'members',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    sub: text('sub'),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    picture: text('picture'),
    phone: text('phone'),
    designation: text('designation'),
    roleId: uuid('role_id').notNull(),
    isOwner: boolean('is_owner').notNull().default(false),
    isVerified: boolean('is_verified').notNull().default(false),
    status: text('status', { enum: MEMBER_STATUSES }).notNull().default('active'),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('members_org_id_id_key').on(t.orgId, t.id),
    unique('members_org_id_email_key').on(t.orgId, t.email),
    index('members_sub_idx').on(t.sub),
    foreignKey({
      name: 'members_role_fk',
      columns: [t.orgId, t.roleId],
      foreignColumns: [roles.orgId, roles.id],
    }),
  ],
);
