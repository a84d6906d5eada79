import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { todayIn } from '../../../../domain/days';
import type { TScope } from '../../../auth';
import type { TExecutor } from '../../../db/client';
import { clients, invoices, orgs } from '../../../db/schema';
import { visibleClient } from '../../clients';
import type { TInvoiceRow } from '../ledger';

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Invoice not found' });

/**
 * The invoice, if the caller may see it: another firm's, a missing one and one of a client hidden
 * from an assigned-only member all answer the same NOT_FOUND. `lock` takes its row for the change.
 */
export async function visibleInvoice(
  db: TExecutor,
  scope: Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>,
  invoiceId: string,
  lock = false,
): Promise<TInvoiceRow> {
  const query = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orgId, scope.orgId), eq(invoices.id, invoiceId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound();
  if (scope.assignedClientsOnly) {
    await visibleClient(db, scope, row.clientId).catch(() => {
      throw notFound();
    });
  }
  return row;
}

/** The firm's today, which decides what is overdue. */
export async function firmToday(db: TExecutor, orgId: string): Promise<string> {
  const [org] = await db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, orgId));
  return todayIn(org?.timeZone ?? 'UTC');
}

/**
 * Takes the client's row before an invoice's, as every change to a client's credit does (payments,
 * credit notes): the same order everywhere, so two such changes wait rather than deadlock.
 */
export async function lockClientFirst(db: TExecutor, orgId: string, clientId: string): Promise<void> {
  await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId)))
    .for('no key update');
}
