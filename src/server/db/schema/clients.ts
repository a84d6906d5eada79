import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { CLIENT_STATUSES, CLIENT_TYPES } from '../../../domain/clients';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/** A family or a business group of clients. */
export const clientGroups = pgTable(
  'client_groups',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('client_groups_org_id_id_key').on(t.orgId, t.id),
    unique('client_groups_org_id_name_key').on(t.orgId, t.name),
  ],
);

/**
 * A client of the firm. Archiving hides a client without destroying its history; `searchText` is
 * what the list's typo-tolerant search matches (a trigram index), kept by the database itself.
 */
export const clients = pgTable(
  'clients',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: CLIENT_TYPES }).notNull().default('individual'),
    groupId: uuid('group_id'),
    email: text('email'),
    phone: text('phone'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    city: text('city'),
    region: text('region'),
    postalCode: text('postal_code'),
    country: text('country'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    /** [{ kind: 'PAN' | 'GSTIN' | 'EIN' | …, value }] */
    taxIds: jsonb('tax_ids').$type<{ kind: string; value: string }[]>().notNull().default([]),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    status: text('status', { enum: CLIENT_STATUSES }).notNull().default('active'),
    /** Not yet engaged (proposals, issue 37): left out of lists, reports and the grid unless asked for. */
    prospect: boolean('prospect').notNull().default(false),
    notes: text('notes'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(name || ' ' || code || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || tax_ids::text)`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('clients_org_id_id_key').on(t.orgId, t.id),
    unique('clients_org_id_code_key').on(t.orgId, t.code),
    // Keyset pagination and sorting by name within a firm.
    index('clients_org_name_idx').on(t.orgId, t.name, t.id),
    // The list as it opens (current clients, prospects left out) and its count: an index-only
    // scan, where a firm's rows spread over a table shared by many firms cost a page read each.
    index('clients_current_name_idx')
      .on(t.orgId, t.name, t.id)
      .where(sql`archived_at is null and not prospect`),
    index('clients_org_created_idx').on(t.orgId, t.createdAt, t.id),
    index('clients_org_group_idx').on(t.orgId, t.groupId),
    // A client's label by id from the index alone: the receivables' aging names every client with a
    // balance, and on a database shared by many firms each client's row is a heap page of its own.
    index('clients_org_label_idx').on(t.orgId, t.id, t.name, t.code, t.groupId),
    index('clients_org_email_idx').on(t.orgId, t.email),
    // The few archived clients the reports leave out (coveredClient): a sequential scan of every
    // client to find them cost 5-10 ms in each of a report's measures.
    index('clients_archived_idx').on(t.orgId, t.id).where(sql`archived_at is not null`),
    // The few prospects the reports leave out, found as the archived ones are.
    index('clients_prospect_idx').on(t.orgId, t.id).where(sql`prospect`),
    // One GIN index over the firm, the type and the trigrams (btree_gin): a search with a type
    // filter intersects posting lists in the index instead of rechecking every name match on the heap.
    index('clients_org_type_search_idx').using('gin', t.orgId, t.type, sql`${t.searchText} gin_trgm_ops`),
    index('clients_tags_idx').using('gin', t.tags),
    foreignKey({
      name: 'clients_group_fk',
      columns: [t.orgId, t.groupId],
      foreignColumns: [clientGroups.orgId, clientGroups.id],
    }),
  ],
);

/** The members responsible for a client, and for what (partner in charge, manager, preparer…). */
export const clientTeam = pgTable(
  'client_team',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    memberId: uuid('member_id').notNull(),
    responsibility: text('responsibility'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.clientId, t.memberId] }),
    index('client_team_member_idx').on(t.orgId, t.memberId),
    foreignKey({
      name: 'client_team_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'client_team_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);
