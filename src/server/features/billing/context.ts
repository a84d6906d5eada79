import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import type { TInvoiceKind } from '../../../domain/billing/constants';
import type { TTaxContext } from '../../../domain/billing/totals';
import { gstStateOf } from '../../../domain/billing/totals';
import { createFormatter } from '../../../domain/format';
import type { TExecutor } from '../../db/client';
import { billingSettings, clients, orgs } from '../../db/schema';
import { registeredTaxIdsOf } from '../clients';

export type TBillingSettingsRow = typeof billingSettings.$inferSelect;

/** What a firm that never opened the billing settings bills with. */
export function defaultBillingSettings(orgId: string): TBillingSettingsRow {
  return {
    orgId,
    taxRegime: 'none',
    gstState: null,
    defaultTaxRateBp: 0,
    roundTotals: false,
    invoicePrefix: 'INV',
    creditNotePrefix: 'CN',
    seqDigits: 4,
    dueDays: 15,
    terms: '',
    bankDetails: '',
    upiVpa: null,
    upiPayee: null,
    recurringMode: 'draft',
    remindersEnabled: false,
    remindBeforeDays: null,
    remindOnDue: true,
    remindEveryDays: null,
    ledgerNames: {},
    updatedAt: new Date(0),
  };
}

/** The firm as billing needs it: its settings, currency and its digits, fiscal year, clock, GST state. */
export async function billingContext(tx: TExecutor, orgId: string) {
  const [[firm], [settings]] = await Promise.all([
    tx
      .select({
        name: orgs.name,
        currency: orgs.currency,
        country: orgs.country,
        timeZone: orgs.timeZone,
        fiscalYearStartMonth: orgs.fiscalYearStartMonth,
        taxIds: orgs.taxIds,
      })
      .from(orgs)
      .where(eq(orgs.id, orgId)),
    tx.select().from(billingSettings).where(eq(billingSettings.orgId, orgId)),
  ]);
  if (!firm) throw new TRPCError({ code: 'NOT_FOUND', message: 'Firm not found' });
  const format = createFormatter(firm);
  const resolved = settings ?? defaultBillingSettings(orgId);
  return {
    firm,
    settings: resolved,
    format,
    digits: format.currencyDigits,
    firmState: resolved.gstState ?? gstStateOf(firm.taxIds),
  };
}
export type TBillingContext = Awaited<ReturnType<typeof billingContext>>;

/**
 * The tax context of an invoice: GST within the state when the place of supply is the firm's
 * state (or unknown: a client with no GSTIN or state is taken to be local), IGST otherwise.
 */
export function taxContextOf(
  ctx: TBillingContext,
  invoice: { taxRegime: TTaxContext['regime']; placeOfSupply: string | null; zeroRated: boolean },
): TTaxContext {
  return {
    regime: invoice.taxRegime,
    intraState: !invoice.placeOfSupply || !ctx.firmState || invoice.placeOfSupply === ctx.firmState,
    zeroRated: invoice.zeroRated,
    roundTotals: ctx.settings.roundTotals,
    digits: ctx.digits,
  };
}

/** Where a new invoice for a client is supplied to: its GSTIN's state; abroad is zero-rated. */
export async function supplyOf(tx: TExecutor, ctx: TBillingContext, orgId: string, clientId: string) {
  const [client] = await tx
    .select({ taxIds: clients.taxIds, country: clients.country })
    .from(clients)
    .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId)));
  const foreign =
    !!client?.country &&
    !!ctx.firm.country &&
    client.country.toUpperCase() !== ctx.firm.country.toUpperCase();
  return {
    // The GSTIN's state, from the client's registrations (the GSTIN's one home).
    placeOfSupply:
      ctx.settings.taxRegime === 'gst' && client
        ? ((await registeredTaxIdsOf(tx, orgId, [clientId])).get(clientId)?.gstState ??
          gstStateOf(client.taxIds))
        : null,
    zeroRated: ctx.settings.taxRegime === 'gst' && foreign,
  };
}

export const seriesOf = (ctx: TBillingContext, kind: TInvoiceKind) =>
  kind === 'credit_note' ? ctx.settings.creditNotePrefix : ctx.settings.invoicePrefix;
