import { and, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  SETUP_DISMISSED_SETTING,
  setupSteps,
  showSetupChecklist,
  type TSetupFacts,
} from '../../../domain/setup-checklist';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  clientUsers,
  memberInvites,
  members,
  orgs,
  projectTemplates,
  services,
  timesheetRates,
} from '../../db/schema';
import { audit } from '../system-log';

// Whether a table has a row for the firm: one index probe each, in one statement, however large
// the firm (a count of 50,000 clients would only be compared with zero).
const has = (table: PgTable, where: SQL | undefined) =>
  sql<boolean>`exists (select 1 from ${table} where ${where})`;

async function factsOf(db: TExecutor, orgId: string): Promise<TSetupFacts & { dismissed: boolean }> {
  const [row] = await db
    .select({
      settings: orgs.settings,
      team: has(members, and(eq(members.orgId, orgId), eq(members.isOwner, false))),
      invites: has(
        memberInvites,
        and(
          eq(memberInvites.orgId, orgId),
          isNull(memberInvites.acceptedAt),
          isNull(memberInvites.revokedAt),
          gt(memberInvites.expiresAt, sql`now()`),
        ),
      ),
      services: has(services, eq(services.orgId, orgId)),
      templates: has(projectTemplates, eq(projectTemplates.orgId, orgId)),
      clients: has(clients, eq(clients.orgId, orgId)),
      rates: has(timesheetRates, eq(timesheetRates.orgId, orgId)),
      portal: has(clientUsers, eq(clientUsers.orgId, orgId)),
    })
    .from(orgs)
    .where(eq(orgs.id, orgId));
  if (!row) throw new Error('the firm of a signed-in member is missing');
  return {
    otherMembers: Number(row.team),
    openInvites: Number(row.invites),
    services: Number(row.services),
    projectTemplates: Number(row.templates),
    clients: Number(row.clients),
    rates: Number(row.rates),
    portalUsers: Number(row.portal),
    dismissed: Boolean(row.settings[SETUP_DISMISSED_SETTING]),
  };
}

/** The set-up checklist of the caller's firm, or null once it is dismissed or every step is done. */
export async function setupChecklist(db: TExecutor, scope: TScope) {
  const { dismissed, ...facts } = await factsOf(db, scope.orgId);
  const steps = setupSteps(facts);
  return showSetupChecklist(steps, dismissed) ? { steps } : null;
}

/** Hides the checklist for the whole firm: it is the firm's set-up, not one person's. */
export async function dismissSetupChecklist(db: TDb, scope: TScope, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const stamp = { at: new Date().toISOString(), by: scope.memberId };
    await tx
      .update(orgs)
      .set({
        settings: sql`${orgs.settings} || jsonb_build_object(${SETUP_DISMISSED_SETTING}::text, ${JSON.stringify(stamp)}::jsonb)`,
        updatedAt: new Date(),
      })
      .where(eq(orgs.id, scope.orgId));
    await audit(tx, actorOf(scope, meta), {
      action: 'org.setup_checklist.dismiss',
      recordType: 'org',
      recordId: scope.orgId,
      summary: 'Dismissed the set-up checklist on the home page',
    });
    return { dismissed: true };
  });
}
