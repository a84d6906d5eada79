import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import type { TClientBillingSet } from '../../../../domain/billing/invoices';
import { actorOf, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import {
  clientBilling,
  clientUserClients,
  clientUsers,
  invoiceDeliveries,
  invoices,
} from '../../../db/schema';
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

/** The client's history of invoices mailed to it, newest first: each address, when, and how it went. */
export async function clientMailings(
  db: TExecutor,
  scope: TScope,
  input: { clientId: string; page: number; pageSize: number },
) {
  await visibleClient(db, scope, input.clientId);
  const where = and(eq(invoiceDeliveries.orgId, scope.orgId), eq(invoiceDeliveries.clientId, input.clientId));
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: invoiceDeliveries.id,
        invoiceId: invoiceDeliveries.invoiceId,
        number: invoices.number,
        kind: invoices.kind,
        email: invoiceDeliveries.email,
        status: invoiceDeliveries.status,
        error: invoiceDeliveries.error,
        sentAt: invoiceDeliveries.sentAt,
        createdAt: invoiceDeliveries.createdAt,
      })
      .from(invoiceDeliveries)
      .innerJoin(
        invoices,
        and(eq(invoices.orgId, invoiceDeliveries.orgId), eq(invoices.id, invoiceDeliveries.invoiceId)),
      )
      .where(where)
      .orderBy(desc(invoiceDeliveries.createdAt), desc(invoiceDeliveries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(invoiceDeliveries).where(where),
  ]);
  return { rows, total: total?.n ?? 0, page: input.page, pageSize: input.pageSize };
}
