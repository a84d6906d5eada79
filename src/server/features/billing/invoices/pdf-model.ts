import { TRPCError } from '@trpc/server';
import { and, asc, eq } from 'drizzle-orm';
import { gstStateLabel } from '../../../../domain/billing/gst-states';
import { quantityText } from '../../../../domain/billing/invoices';
import { invoiceTotals } from '../../../../domain/billing/totals';
import { localeForCountry } from '../../../../domain/format';
import { LOGO_CONTENT_TYPES, type TLogoContentType } from '../../../../domain/settings';
import type { TExecutor } from '../../../db/client';
import { clients, invoiceLines, invoices, orgLogos, orgs } from '../../../db/schema';
import { clientTaxIds } from '../../clients';
import { billingContext } from '../context';
import type { TInvoicePdfModel } from '../pdf';
import { shownTaxContext } from './taxes';

const cityLine = (r: { city: string | null; region: string | null; postalCode: string | null }) =>
  [r.city, r.region, r.postalCode].filter(Boolean).join(', ');

/**
 * An invoice or credit note as its PDF prints it, read from the database: the firm as it is today
 * (name, address, tax ids, logo), the client as frozen at issue (a draft: as it is now), and the
 * lines, taxes and totals the ledger wrote. The caller has checked who may see it.
 */
export async function invoicePdfModel(
  tx: TExecutor,
  orgId: string,
  invoiceId: string,
): Promise<TInvoicePdfModel> {
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)));
  if (!invoice) throw new TRPCError({ code: 'NOT_FOUND', message: 'Invoice not found' });
  const ctx = await billingContext(tx, orgId);
  const [[firm], [logo], [client], lines, [against]] = await Promise.all([
    tx.select().from(orgs).where(eq(orgs.id, orgId)),
    tx
      .select({ contentType: orgLogos.contentType, bytes: orgLogos.bytes })
      .from(orgLogos)
      .where(eq(orgLogos.orgId, orgId)),
    tx
      .select()
      .from(clients)
      .where(and(eq(clients.orgId, orgId), eq(clients.id, invoice.clientId))),
    tx
      .select()
      .from(invoiceLines)
      .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoice.id)))
      .orderBy(asc(invoiceLines.position)),
    invoice.creditForId
      ? tx
          .select({ number: invoices.number })
          .from(invoices)
          .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoice.creditForId)))
      : Promise.resolve([]),
  ]);
  if (!firm) throw new TRPCError({ code: 'NOT_FOUND', message: 'Firm not found' });
  const billTo = invoice.billTo ?? {
    name: client?.name ?? '',
    code: client?.code ?? '',
    addressLines: client
      ? [client.addressLine1, client.addressLine2, cityLine(client), client.country].filter(
          (l): l is string => !!l,
        )
      : [],
    taxIds: client ? await clientTaxIds(tx, orgId, client.id, client.taxIds) : [],
  };
  const taxed = invoice.taxRegime !== 'none';
  const totals = invoiceTotals(lines, shownTaxContext(ctx, invoice, lines));
  const logoType = logo?.contentType as TLogoContentType | undefined;
  return {
    locale: localeForCountry(firm.country),
    currency: invoice.currency,
    kind: invoice.kind,
    taxInvoice: invoice.taxRegime === 'gst',
    number: invoice.number,
    againstNumber: against?.number ?? null,
    status: invoice.status,
    voidReason: invoice.voidReason,
    issueDate: invoice.issueDate,
    dueDate: invoice.kind === 'invoice' ? invoice.dueDate : null,
    firm: {
      name: firm.name,
      legalName: firm.legalName,
      addressLines: [firm.addressLine1, firm.addressLine2, cityLine(firm), firm.country].filter(
        (l): l is string => !!l,
      ),
      taxIds: firm.taxIds,
      logo:
        logo && logoType && LOGO_CONTENT_TYPES.includes(logoType)
          ? { bytes: new Uint8Array(logo.bytes), contentType: logoType }
          : null,
    },
    client: {
      name: billTo.name,
      code: billTo.code,
      addressLines: billTo.addressLines,
      taxIds: billTo.taxIds,
      placeOfSupply: invoice.taxRegime === 'gst' ? gstStateLabel(invoice.placeOfSupply) || null : null,
    },
    lines: lines.map((l) => ({
      description: l.description,
      taxCode: l.taxCode || null,
      quantity: quantityText(l.quantityMilli),
      rateMinor: l.rate,
      discountMinor: l.discount,
      amountMinor: l.amount,
      taxRatePercent: taxed ? (invoice.zeroRated ? 0 : l.taxRateBp / 100) : null,
    })),
    taxes: totals.taxes.map((t) => ({ label: t.label, amountMinor: t.amount })),
    subtotalMinor: invoice.subtotal,
    roundOffMinor: invoice.roundOff,
    totalMinor: invoice.total,
    amountPaidMinor: invoice.amountPaid,
    balanceDueMinor: invoice.kind === 'invoice' && invoice.status !== 'void' ? invoice.balance : 0,
    terms: invoice.terms || null,
    notes: invoice.notes || null,
    bankDetails: invoice.kind === 'invoice' ? ctx.settings.bankDetails || null : null,
    upiVpa: ctx.settings.upiVpa,
    upiPayee: ctx.settings.upiPayee,
  };
}

/** The PDF's file name: its number with the slashes a file name cannot hold turned to dashes. */
export const invoiceFileName = (number: string | null) =>
  `${(number ?? 'draft-invoice').replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
