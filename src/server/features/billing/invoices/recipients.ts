import { and, eq } from 'drizzle-orm';
import type { TExecutor } from '../../../db/client';
import { clientBilling, clients } from '../../../db/schema';

/**
 * Who an invoice is mailed to when the sender names nobody: the client's billing contacts, else the
 * client's own email. Empty when the client has neither.
 */
export async function recipientsOf(db: TExecutor, orgId: string, clientId: string): Promise<string[]> {
  const [row] = await db
    .select({ email: clients.email, contacts: clientBilling.emails })
    .from(clients)
    .leftJoin(
      clientBilling,
      and(eq(clientBilling.orgId, clients.orgId), eq(clientBilling.clientId, clients.id)),
    )
    .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId)));
  if (row?.contacts?.length) return row.contacts;
  const own = row?.email?.trim();
  return own ? [own] : [];
}
