import { and, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { automationRules } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { AUTOMATION_EVENT_JOB } from '../../events';
import { enqueue } from '../../jobs/queue';

export const AUTOMATION_DUE_SCAN = 'automations.dueScan';

/**
 * The hourly pass for "N days before/after the due date": for each distinct `days` of the switched-on
 * rules, the open projects whose due date plus `days` is their firm's today get one event, once per
 * project, `days` and day (a later pass the same day finds the event and adds none). Set-based: one
 * statement per `days` value; a job is queued per event, as the features' events are.
 */
/** Each firm's switched-on rules of a day-counting trigger, as (firm, days) pairs. */
export function dayTriggers(db: TDb, kind: 'project.due' | 'message.no_reply', orgId?: string) {
  return db
    .selectDistinct({
      orgId: automationRules.orgId,
      days: sql<number>`(${automationRules.trigger}->>'days')::int`,
    })
    .from(automationRules)
    .where(
      and(
        eq(automationRules.triggerKind, kind),
        eq(automationRules.enabled, true),
        orgId ? eq(automationRules.orgId, orgId) : undefined,
      ),
    );
}

export async function scanDueDates(db: TDb, options: { orgId?: string } = {}) {
  const wanted = await dayTriggers(db, 'project.due', options.orgId);
  let events = 0;
  for (const w of wanted) {
    const inserted = rowsOf<{ id: string; org_id: string }>(
      await db.execute(sql`
        with today as (
          select (now() at time zone o.time_zone)::date as day from orgs o where o.id = ${w.orgId}
        )
        insert into automation_events (id, org_id, kind, project_id, client_id, data, depth)
        select gen_random_uuid(), p.org_id, 'project.due', p.id, p.client_id,
               jsonb_build_object('days', ${w.days}::int, 'on', t.day::text, 'dueDate', p.due_date::text), 0
        from projects p, today t
        where p.org_id = ${w.orgId} and p.archived_at is null and p.status <> 'COMPLETED'
          and p.due_date = t.day - ${w.days}::int
          and not exists (
            select 1 from automation_events e
            where e.org_id = p.org_id and e.kind = 'project.due' and e.project_id = p.id
              and e.data->>'days' = ${String(w.days)} and e.data->>'on' = t.day::text)
        returning id, org_id`),
    );
    for (const e of inserted) {
      await enqueue(
        db,
        AUTOMATION_EVENT_JOB,
        { eventId: e.id },
        { orgId: e.org_id, dedupeKey: `automation-event:${e.id}` },
      );
    }
    events += inserted.length;
  }
  return { events };
}
