import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/** An in-app notification for one member (task assigned, leave decided, reminder due, …). */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body'),
    /** A path inside the app, e.g. /tasks?open=…; never an external URL. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_member_idx').on(t.orgId, t.memberId, t.createdAt.desc().nullsFirst()),
    index('notifications_unread_idx').on(t.orgId, t.memberId).where(sql`read_at is null`),
    foreignKey({
      name: 'notifications_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);

/** Per member and kind: whether it shows in the app and whether it is mailed. Absent = both on. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    kind: text('kind').notNull(),
    inApp: boolean('in_app').notNull().default(true),
    email: boolean('email').notNull().default(true),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.memberId, t.kind] }),
    foreignKey({
      name: 'notification_preferences_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);
