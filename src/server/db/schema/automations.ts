import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/** A rule: when (trigger) if (conditions) then (actions), each stored as validated JSON. */
export const automationRules = pgTable(
  'automation_rules',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    /** The trigger's kind, copied from `trigger` so an event finds its rules by index. */
    triggerKind: text('trigger_kind').notNull(),
    trigger: jsonb('trigger').notNull(),
    conditions: jsonb('conditions').notNull().default([]),
    actions: jsonb('actions').notNull().default([]),
    ownerId: uuid('owner_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('automation_rules_org_id_id_key').on(t.orgId, t.id),
    index('automation_rules_trigger_idx').on(t.orgId, t.triggerKind, t.enabled),
    foreignKey({
      name: 'automation_rules_owner_fk',
      columns: [t.orgId, t.ownerId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (owner_id)
  ],
);

/**
 * Something that happened (a request submitted, a project entering a stage), recorded by the feature
 * where it happened inside its own transaction. `depth` counts the rules that led to it.
 */
export const automationEvents = pgTable(
  'automation_events',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** The project the event is about, when there is one (no key: the history outlives it). */
    projectId: uuid('project_id'),
    clientId: uuid('client_id'),
    data: jsonb('data').notNull().default({}),
    depth: integer('depth').notNull().default(0),
    causedByRuleId: uuid('caused_by_rule_id'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('automation_events_org_id_id_key').on(t.orgId, t.id),
    index('automation_events_kind_idx').on(t.orgId, t.kind, t.createdAt),
  ],
);

/** One rule's handling of one event: unique, so a rule runs once per event whichever instance claims it. */
export const automationRuns = pgTable(
  'automation_runs',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').notNull(),
    eventId: uuid('event_id').notNull(),
    projectId: uuid('project_id'),
    outcome: text('outcome', { enum: ['done', 'failed', 'stopped_loop'] }).notNull(),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('automation_runs_rule_event_key').on(t.ruleId, t.eventId),
    index('automation_runs_rule_idx').on(t.orgId, t.ruleId, t.createdAt),
    foreignKey({
      name: 'automation_runs_rule_fk',
      columns: [t.orgId, t.ruleId],
      foreignColumns: [automationRules.orgId, automationRules.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'automation_runs_event_fk',
      columns: [t.orgId, t.eventId],
      foreignColumns: [automationEvents.orgId, automationEvents.id],
    }).onDelete('cascade'),
  ],
);
