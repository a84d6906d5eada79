import { TRPCError } from '@trpc/server';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { OPEN_STATUSES } from '../../../../domain/billing/constants';
import type { TAllocationInput } from '../../../../domain/billing/payments';
import type { TScope } from '../../../auth';
import type { TExecutor } from '../../../db/client';
import { allocations, clientBilling, clients, invoices, payments } from '../../../db/schema';
import { rowsOf } from '../../../db/sql';
import { FieldError } from '../../../trpc/field-errors';
import { clientVisibility } from '../../clients';
import type { TInvoiceRow } from '../ledger';

// A client's credit and the locks every change to it takes. Credit is what the client has paid (or
// been credited) and not yet used: receipts with their TDS and bank charges, plus issued credit
// notes, less refunds and every live allocation. The database keeps it on client_billing with
// triggers on those three tables (migration 0053), in the transaction of each change, so no writer
// can leave it behind; the ledger's property tests check it against the rows.

export const badField = (field: string, message: string) =>
  new TRPCError({ code: 'BAD_REQUEST', message, cause: new FieldError(field, message) });

/**
 * The client, if the caller may see it, locked for the change: every change to a client's credit
 * takes this lock first (then its invoices), so two refunds or applications of the same credit
 * queue instead of both spending it. NO KEY UPDATE, so new invoices of the client (which only
 * share-lock it through their foreign key) are not held up.
 */
export async function lockClient(
  tx: TExecutor,
  scope: Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>,
  clientId: string,
) {
  const [row] = await tx
    .select({ id: clients.id, name: clients.name, code: clients.code })
    .from(clients)
    .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, clientId), clientVisibility(scope)))
    .limit(1)
    .for('no key update');
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  return row;
}

/** The client's unused credit, in minor units (never negative while the rules hold). */
export async function clientCredit(tx: TExecutor, orgId: string, clientId: string): Promise<number> {
  const [row] = await tx
    .select({ credit: clientBilling.credit })
    .from(clientBilling)
    .where(and(eq(clientBilling.orgId, orgId), eq(clientBilling.clientId, clientId)));
  return row?.credit ?? 0;
}

/**
 * The invoices an allocation settles, locked (in id order, so two payments never wait on each
 * other crosswise), each checked: this firm's and this client's (NOT_FOUND otherwise, as for an id
 * that does not exist), open, and owing at least what is allocated to it.
 */
export async function lockAllocatable(
  tx: TExecutor,
  orgId: string,
  clientId: string,
  list: readonly TAllocationInput[],
  money: (minor: number) => string,
): Promise<Map<string, TInvoiceRow>> {
  const ids = [...new Set(list.map((a) => a.invoiceId))].sort();
  if (!ids.length) return new Map();
  const rows = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.clientId, clientId), inArray(invoices.id, ids)))
    .orderBy(asc(invoices.id))
    .for('update');
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [i, a] of list.entries()) {
    const invoice = byId.get(a.invoiceId);
    if (invoice?.kind !== 'invoice') {
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Invoice not found' });
    }
    const label = invoice.number ?? 'This invoice';
    if (!(OPEN_STATUSES as readonly string[]).includes(invoice.status)) {
      const why =
        invoice.status === 'paid'
          ? 'is paid already'
          : invoice.status === 'void'
            ? 'is void'
            : 'is not issued yet';
      throw badField(`allocations.${i}.amount`, `${label} ${why}: nothing can be allocated to it`);
    }
    if (a.amount > invoice.balance) {
      throw badField(
        `allocations.${i}.amount`,
        `${label} has ${money(invoice.balance)} left to pay: allocate no more than that`,
      );
    }
  }
  return byId;
}

export type TCreditSource = { kind: 'payment' | 'credit_note'; id: string; left: number };

/**
 * Where unused credit sits, oldest first: receipts not fully allocated, then by date with credit
 * notes not fully applied. Applying credit takes from these in order.
 */
export async function creditSources(
  tx: TExecutor,
  orgId: string,
  clientId: string,
): Promise<TCreditSource[]> {
  const result = await tx.execute(sql`
    select * from (
      select 'payment' as kind, p.id, p.received_on::text as day, p.created_at as at,
        p.amount + p.tds_amount + p.bank_charges - coalesce((select sum(a.amount) from ${allocations} a
          where a.org_id = p.org_id and a.payment_id = p.id and a.reversed_at is null), 0) as remaining
      from ${payments} p
      where p.org_id = ${orgId} and p.client_id = ${clientId} and p.kind = 'receipt' and p.reversed_at is null
      union all
      select 'credit_note', i.id, i.issue_date::text, i.created_at,
        i.total - coalesce((select sum(a.amount) from ${allocations} a
          where a.org_id = i.org_id and a.credit_note_id = i.id and a.reversed_at is null), 0)
      from ${invoices} i
      where i.org_id = ${orgId} and i.client_id = ${clientId} and i.kind = 'credit_note'
        and i.status not in ('draft', 'void')
    ) s where remaining > 0 order by day, at, id`);
  return rowsOf<{ kind: 'payment' | 'credit_note'; id: string; remaining: string }>(result).map((r) => ({
    kind: r.kind,
    id: r.id,
    left: Number(r.remaining),
  }));
}
