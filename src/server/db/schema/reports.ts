import { foreignKey, index, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { REPORT_VIEW_KINDS } from '../../../domain/reports';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/** A member's saved view of a report: its name and the URL's filters, sort and view. */
export const reportViews = pgTable(
  'report_views',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    report: text('report', { enum: REPORT_VIEW_KINDS }).notNull(),
    name: text('name').notNull(),
    search: jsonb('search').$type<Record<string, string | number>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('report_views_org_id_id_key').on(t.orgId, t.id),
    unique('report_views_member_name_key').on(t.orgId, t.memberId, t.report, t.name),
    index('report_views_member_idx').on(t.orgId, t.memberId, t.report),
    foreignKey({
      name: 'report_views_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);
