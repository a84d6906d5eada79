import { and, eq, inArray } from 'drizzle-orm';
import { taxIdsWithRegistrations } from '../../../domain/client-import';
import { splitTaxIds, type TRegisteredTaxIds } from '../../../domain/statutory/registrations';
import type { TExecutor } from '../../db/client';
import { clientRegistrations } from '../../db/schema';

// PAN, TAN and GSTIN live in the client's registrations (issue 39), nowhere else: a client's tax
// identifiers as the screens, the invoice and the API show them are its own others (tax_ids) with
// these added, and a saved list gives them back to the registrations. Every reader asks here.

/** The registrations' PAN, TAN and GSTIN of these clients. */
export async function registeredTaxIdsOf(
  db: TExecutor,
  orgId: string,
  clientIds: readonly string[],
): Promise<Map<string, TRegisteredTaxIds & { gstState: string | null }>> {
  if (!clientIds.length) return new Map();
  const rows = await db
    .select({
      clientId: clientRegistrations.clientId,
      pan: clientRegistrations.pan,
      tan: clientRegistrations.tan,
      gstin: clientRegistrations.gstin,
      gstState: clientRegistrations.gstState,
    })
    .from(clientRegistrations)
    .where(and(eq(clientRegistrations.orgId, orgId), inArray(clientRegistrations.clientId, [...clientIds])));
  return new Map(rows.map(({ clientId, ...r }) => [clientId, r]));
}

/** One client's whole list: its tax_ids with the registrations' PAN, TAN and GSTIN. */
export async function clientTaxIds(
  db: TExecutor,
  orgId: string,
  clientId: string,
  taxIds: readonly { kind: string; value: string }[],
) {
  return taxIdsWithRegistrations(
    taxIds,
    (await registeredTaxIdsOf(db, orgId, [clientId])).get(clientId) ?? null,
  );
}

/**
 * Saves a client's list of tax identifiers: PAN, TAN and GSTIN (those passing their checks) into its
 * registrations, the rest answered for tax_ids. The list is the whole of them: a PAN left out is
 * cleared. A GSTIN keeps the registration's scheme (regular when it had none).
 */
export async function saveTaxIds(
  tx: TExecutor,
  orgId: string,
  clientId: string,
  taxIds: readonly { kind: string; value: string }[],
): Promise<{ rest: { kind: string; value: string }[]; before: TRegisteredTaxIds; after: TRegisteredTaxIds }> {
  const { registered, rest } = splitTaxIds(taxIds);
  const [row] = await tx
    .select({
      pan: clientRegistrations.pan,
      tan: clientRegistrations.tan,
      gstin: clientRegistrations.gstin,
      gstScheme: clientRegistrations.gstScheme,
    })
    .from(clientRegistrations)
    .where(and(eq(clientRegistrations.orgId, orgId), eq(clientRegistrations.clientId, clientId)))
    .limit(1)
    .for('update');
  const before = { pan: row?.pan ?? null, tan: row?.tan ?? null, gstin: row?.gstin ?? null };
  const same =
    before.pan === registered.pan && before.tan === registered.tan && before.gstin === registered.gstin;
  if (!same) {
    const values = {
      ...registered,
      gstState: registered.gstin ? registered.gstin.slice(0, 2) : null,
      gstScheme: registered.gstin ? (row?.gstScheme ?? 'regular') : null,
    };
    await tx
      .insert(clientRegistrations)
      .values({ orgId, clientId, ...values })
      .onConflictDoUpdate({
        target: [clientRegistrations.orgId, clientRegistrations.clientId],
        set: { ...values, updatedAt: new Date() },
      });
  }
  return { rest, before, after: registered };
}
