import { TRPCError } from '@trpc/server';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { reminderMembers, reminders } from '../../db/schema';
import { clientVisibility } from '../clients';

/**
 * A member limited to assigned clients sees the reminders of those clients, and the reminders tied
 * to no client that they wrote or are part of.
 */
export function reminderVisibility(scope: TScope): SQL | undefined {
  const onTeam = clientVisibility(scope, reminders.clientId);
  if (!onTeam) return undefined;
  return sql`(
    (${reminders.clientId} is not null and ${onTeam})
    or (${reminders.clientId} is null and (${reminders.createdBy} = ${scope.memberId} or exists (select 1 from ${reminderMembers} where ${reminderMembers.orgId} = ${reminders.orgId} and ${reminderMembers.reminderId} = ${reminders.id} and ${reminderMembers.memberId} = ${scope.memberId})))
  )`;
}

export async function visibleReminder(db: TExecutor, scope: TScope, id: string, lock = false) {
  const query = db
    .select()
    .from(reminders)
    .where(and(eq(reminders.orgId, scope.orgId), eq(reminders.id, id), reminderVisibility(scope)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Reminder not found' });
  return row;
}
