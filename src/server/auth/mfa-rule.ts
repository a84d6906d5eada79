import { type SQL, sql } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { rowsOf } from '../db/sql';

// The firm's two-step sign-in rule (orgs.mfa_policy, mfa_role_ids, mfa_grace_days), in one place:
// the staff check refuses an overdue member, the identity provider asks it at sign-in, and the
// account screen shows it.
//
// Grace counts from when the rule started to apply to the member: members.mfa_required_since,
// stamped when a saved rule or a role change brings them under it (refreshMfaRuleSince) and
// cleared when it no longer does; a member who joined under the rule counts from joining.

/** SQL: the rule covers member `m` of firm `o` (the aliases of the calling query). */
export const mfaCovered = sql.raw(
  `(o.mfa_policy = 'all' or (o.mfa_policy = 'roles' and m.role_id = any(o.mfa_role_ids)))`,
);

/** SQL: the end of member `m`'s grace. */
export const mfaDueAt = sql.raw(
  'coalesce(m.mfa_required_since, m.created_at) + make_interval(days => o.mfa_grace_days::int)',
);

/** SQL: covered and past grace (whether they have an authenticator is the caller's part). */
export const mfaPastGrace: SQL = sql`(${mfaCovered} and ${mfaDueAt} <= now())`;

/**
 * After the rule or a member's role changed: stamps members the rule now covers and clears those
 * it no longer does. Members already covered keep their date, so re-saving never restarts grace.
 */
export async function refreshMfaRuleSince(tx: TExecutor, orgId: string): Promise<void> {
  await tx.execute(sql`
    update members m
    set mfa_required_since = case when ${mfaCovered} then now() else null end
    from orgs o
    where o.id = m.org_id and m.org_id = ${orgId}
      and (m.mfa_required_since is null) = ${mfaCovered}`);
}

/** The rule for a person across the firms they are an active member of (the IdP's hook). */
export async function mfaRuleOfPerson(db: TExecutor, sub: string) {
  const result = await db.execute(sql`
    select coalesce(bool_or(${mfaCovered}), false) as covered,
           coalesce(bool_or(${mfaPastGrace}), false) as past_grace
    from members m join orgs o on o.id = m.org_id
    where m.sub = ${sub} and m.status = 'active'`);
  const [row] = rowsOf<{ covered: boolean; past_grace: boolean }>(result);
  return { covered: row?.covered === true, pastGrace: row?.past_grace === true };
}

/** The rule for one member of one firm (the account screen). */
export async function mfaRuleOfMember(db: TExecutor, orgId: string, memberId: string) {
  const result = await db.execute(sql`
    select ${mfaCovered} as covered, ${mfaDueAt} as due_at, ${mfaPastGrace} as past_grace
    from members m join orgs o on o.id = m.org_id
    where m.org_id = ${orgId} and m.id = ${memberId}`);
  const [row] = rowsOf<{ covered: boolean; due_at: Date | string; past_grace: boolean }>(result);
  if (!row?.covered) return { covered: false, dueAt: null, pastGrace: false };
  return { covered: true, dueAt: new Date(row.due_at), pastGrace: row.past_grace === true };
}

/**
 * The identity provider's `mfaRequired` hook: at sign-in, set-up is forced once the grace of any
 * firm the person is active in is over; turning MFA off is refused as soon as a rule covers them.
 */
export async function firmRequiresMfa(db: TExecutor, sub: string, when: 'sign_in' | 'turn_off') {
  const rule = await mfaRuleOfPerson(db, sub);
  return when === 'sign_in' ? rule.pastGrace : rule.covered;
}
