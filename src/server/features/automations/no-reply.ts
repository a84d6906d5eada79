import { sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { AUTOMATION_EVENT_JOB } from '../../events';
import { enqueue } from '../../jobs/queue';
import { dayTriggers } from './due';

export const AUTOMATION_NO_REPLY_SCAN = 'automations.noReplyScan';

/** A conversation waiting longer than this past its N days is left alone (no reminder months late). */
export const NO_REPLY_WINDOW_DAYS = 7;

/**
 * The hourly pass for "no client reply for N days": for each distinct N of the switched-on rules, the
 * open conversations whose last message the client sees is the firm's, written N days ago or more
 * (and within NO_REPLY_WINDOW_DAYS more), get one event per waiting spell. A spell is named by the
 * client's last message (its number, 0 for none): a reminder the rule posts does not start a new
 * one, so the rule fires once until the client answers. Set-based, as the due-date scan.
 */
export async function scanNoReply(db: TDb, options: { orgId?: string; now?: Date } = {}) {
  const now = options.now ?? new Date();
  const wanted = await dayTriggers(db, 'message.no_reply', options.orgId);
  let events = 0;
  for (const w of wanted) {
    const inserted = rowsOf<{ id: string; org_id: string }>(
      await db.execute(sql`
        insert into automation_events (id, org_id, kind, project_id, client_id, data, depth)
        select gen_random_uuid(), t.org_id, 'message.no_reply', null, t.client_id,
               jsonb_build_object('days', ${w.days}::int, 'threadId', t.id::text, 'since', s.since,
                                  'subject', t.subject), 0
        from message_threads t
        join messages last on last.org_id = t.org_id and last.thread_id = t.id and last.seq = t.last_public_seq
        cross join lateral (
          select coalesce(max(c.seq), 0) as since from messages c
          where c.org_id = t.org_id and c.thread_id = t.id and not c.internal and c.author_member_id is null
        ) s
        where t.org_id = ${w.orgId} and t.status = 'open'
          and t.last_public_at <= ${now}::timestamptz - make_interval(days => ${w.days}::int)
          and t.last_public_at > ${now}::timestamptz - make_interval(days => ${w.days + NO_REPLY_WINDOW_DAYS}::int)
          and last.author_member_id is not null
          and not exists (
            select 1 from automation_events e
            where e.org_id = t.org_id and e.kind = 'message.no_reply'
              and e.data->>'threadId' = t.id::text and e.data->>'days' = ${String(w.days)}
              and (e.data->>'since')::int = s.since)
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
