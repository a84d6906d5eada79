import { and, eq, lt, sql } from 'drizzle-orm';
import type { TClientBillingSet } from '../../../../domain/billing/invoices';
import { actorOf, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { clientBilling, clientUserClients, clientUsers, invoices } from '../../../db/schema';
import { visibleClient } from '../../clients';
import { audit, diff } from '../../system-log';
import { firmToday } from './access';
import { owedWhere } from './list';

/**
 * A client's billing at a glance: what it owes and how much of that is overdue, who its invoices
 * go to (and the portal people's addresses to pick from), and whether reminders are paused.
 */
export async function getClientBilling(db: TExecutor, scope: TScope, clientId: string) {
  const client = await visibleClient(db, scope, clientId);
  const today = await firmToday(db, scope.orgId);
  const open = and(eq(invoices.orgId, scope.orgId), eq(invoices.clientId, client.id), owedWhere);
  const [[settings], [owed], portal] = await Promise.all([
    db
      .select({ emails: clientBilling.emails, remindersPaused: clientBilling.remindersPaused })
      .from(clientBilling)
      .where(and(eq(clientBilling.orgId, scope.orgId), eq(clientBilling.clientId, client.id))),
    db
      .select({
        outstanding: sql<string>`coalesce(sum(${invoices.balance}), 0)`,
        open: sql<number>`count(*)::int`,
        overdue: sql<string>`coalesce(sum(${invoices.balance}) filter (where ${lt(invoices.dueDate, today)}), 0)`,
        overdueCount: sql<number>`(count(*) filter (where ${lt(invoices.dueDate, today)}))::int`,
      })
      .from(invoices)
      .where(open),
    db
      .selectDistinct({ email: clientUsers.email })
      .from(clientUserClients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, clientUserClients.orgId),
          eq(clientUsers.id, clientUserClients.clientUserId),
        ),
      )
      .where(
        and(
          eq(clientUserClients.orgId, scope.orgId),
          eq(clientUserClients.clientId, client.id),
          eq(clientUsers.status, 'active'),
        ),
      )
      .orderBy(clientUsers.email)
      .limit(100),
  ]);
  return {
    clientId: client.id,
    clientEmail: client.email,
    emails: settings?.emails ?? [],
    remindersPaused: settings?.remindersPaused ?? false,
    portalEmails: portal.map((p) => p.email),
    outstanding: Number(owed?.outstanding ?? 0),
    openCount: owed?.open ?? 0,
    overdue: Number(owed?.overdue ?? 0),
    overdueCount: owed?.overdueCount ?? 0,
    today,
  };
}

export async function setClientBilling(db: TDb, scope: TScope, input: TClientBillingSet, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId, true);
    const [before] = await tx
      .select({ emails: clientBilling.emails, remindersPaused: clientBilling.remindersPaused })
      .from(clientBilling)
      .where(and(eq(clientBilling.orgId, scope.orgId), eq(clientBilling.clientId, client.id)));
    const after = { emails: input.emails, remindersPaused: input.remindersPaused };
    const changes = diff(before ?? { emails: [], remindersPaused: false }, after);
    if (!changes) return { changed: false };
    await tx
      .insert(clientBilling)
      .values({ orgId: scope.orgId, clientId: client.id, ...after })
      .onConflictDoUpdate({
        target: [clientBilling.orgId, clientBilling.clientId],
        set: { ...after, updatedAt: new Date() },
      });
    const what = [
      changes.emails
        ? after.emails.length
          ? `billing contacts ${after.emails.join(', ')}`
          : 'no billing contacts'
        : null,
      changes.remindersPaused
        ? after.remindersPaused
          ? 'payment reminders paused'
          : 'payment reminders on'
        : null,
    ].filter(Boolean);
    await audit(tx, actorOf(scope, meta), {
      action: 'client.billing.update',
      recordType: 'client',
      recordId: client.id,
      summary: `${client.name}: ${what.join('; ')}`,
      changes,
    });
    return { changed: true };
  });
}
