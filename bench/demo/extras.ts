import { sql } from 'drizzle-orm';
import type { TDb } from '../../src/server/db/client';

const COMMENTS = [
  'Client has shared the documents on email, uploading them now.',
  'Waiting for the bank statement for the last week of the month.',
  'Two invoices do not match the portal; I have asked the client.',
  'Reviewed. Please correct the input credit on the purchase register and resubmit.',
  'Filed. Acknowledgement sent to the client.',
  'Called the client, they will send the remaining proofs by Friday.',
];

/** Conversations on open tasks: one or two comments by the people working on them. */
export async function createDemoComments(db: TDb, orgId: string, tasks: number) {
  await db.execute(sql`
    with picked as (
      select t.id, a.member_id, (hashtext(t.id::text) & 2147483647) as r
      from tasks t join task_assignees a on a.org_id = t.org_id and a.task_id = t.id
      where t.org_id = ${orgId}::uuid and t.status in ('IN_PROGRESS', 'IN_REVIEW')
      order by hashtext(t.id::text) limit ${tasks}
    )
    insert into task_comments (id, org_id, task_id, author_member_id, body, created_at, updated_at)
    select gen_random_uuid(), ${orgId}::uuid, id, member_id,
      (${`{${COMMENTS.map((c) => `"${c}"`).join(',')}}`}::text[])[1 + (r + k) % ${COMMENTS.length}],
      now() - make_interval(hours => ((r / 7 + k * 5) % 96)::int), now()
    from picked cross join generate_series(0, 1) as k
    where k = 0 or r % 2 = 0`);
}

/**
 * The system log of the last weeks, as the firm's own work wrote it: clients added, tasks completed.
 * The demo inserts data directly, so it writes the entries those actions would have written.
 */
export async function createDemoActivity(db: TDb, orgId: string, ownerId: string) {
  await db.execute(sql`
    insert into system_log (id, org_id, actor_kind, actor_member_id, action, record_type, record_id, summary, at)
    select gen_random_uuid(), t.org_id, 'member', a.member_id, 'task.status', 'task', t.id::text,
      'Completed the task "' || t.title || '"' || coalesce(' for ' || c.name, ''), t.completed_date
    from tasks t
    join task_assignees a on a.org_id = t.org_id and a.task_id = t.id
    left join clients c on c.org_id = t.org_id and c.id = t.client_id
    where t.org_id = ${orgId}::uuid and t.status = 'COMPLETED' and t.completed_date > now() - interval '21 days'`);
  await db.execute(sql`
    insert into system_log (id, org_id, actor_kind, actor_member_id, action, record_type, record_id, summary, at)
    select gen_random_uuid(), c.org_id, 'member', ${ownerId}::uuid, 'client.create', 'client', c.id::text,
      'Created the client ' || c.name, now() - make_interval(days => 30 + (hashtext(c.id::text) & 255))
    from clients c where c.org_id = ${orgId}::uuid`);
}
