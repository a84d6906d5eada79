import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { OPEN_STATUSES, type TInvoiceStatus } from '../../../domain/billing/constants';
import { invoiceDisplayStatus } from '../../../domain/billing/status';
import { upiPayUri } from '../../../domain/billing/upi';
import type { ZPortalInvoiceList } from '../../../domain/client-portal';
import { todayIn } from '../../../domain/days';
import type { TPortalClientAccess } from '../../auth';
import type { TExecutor } from '../../db/client';
import { billingSettings, invoiceLines, invoices, orgs } from '../../db/schema';

// The client's invoices as the portal shows them: what the firm issued (invoices and credit notes),
// never a draft; a void one stays, shown void, since its number was sent. Only what is printed on the
// invoice leaves the server: never who issued it, internal notes' authors, or what lines were
// worth at standard.

export const invoiceNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Invoice not found' });

const OPEN = sql.raw(OPEN_STATUSES.map((s) => `'${s}'`).join(', '));

/** The client's issued invoices and credit notes (drafts never leave the firm). */
const clientInvoices = (access: TPortalClientAccess) =>
  and(eq(invoices.orgId, access.orgId), eq(invoices.clientId, access.clientId), ne(invoices.status, 'draft'));

/** Still to pay: an open invoice (not a credit note) with something left on it. */
const owing = sql`(${invoices.kind} = 'invoice' and ${invoices.status} in (${OPEN}) and ${invoices.balance} > 0)`;

const columns = {
  id: invoices.id,
  kind: invoices.kind,
  number: invoices.number,
  status: invoices.status,
  issueDate: invoices.issueDate,
  dueDate: invoices.dueDate,
  currency: invoices.currency,
  total: invoices.total,
  amountPaid: invoices.amountPaid,
  balance: invoices.balance,
};
type TRow = { kind: string; status: TInvoiceStatus; dueDate: string | null; balance: number };

/** The firm's today, and how it takes UPI payments (its UPI ID and the name the client's app shows). */
async function firmOf(db: TExecutor, orgId: string) {
  const [firm] = await db
    .select({
      timeZone: orgs.timeZone,
      name: orgs.name,
      legalName: orgs.legalName,
      upiVpa: billingSettings.upiVpa,
    })
    .from(orgs)
    .leftJoin(billingSettings, eq(billingSettings.orgId, orgs.id))
    .where(eq(orgs.id, orgId));
  return {
    today: todayIn(firm?.timeZone ?? 'UTC'),
    upiVpa: firm?.upiVpa ?? null,
    payee: firm?.legalName || firm?.name || '',
  };
}
type TFirm = Awaited<ReturnType<typeof firmOf>>;

/**
 * The UPI link an invoice's QR code and "Pay with a UPI app" open: an INR invoice with something
 * left to pay, from a firm with a UPI ID; the amount is the balance, the reference its number. The
 * same rule and payee as the QR printed on the PDF (billing/pdf invoiceUpiUri).
 */
function upiUriOf(row: TRow & { currency: string; number: string | null }, firm: TFirm, balance: number) {
  if (row.kind !== 'invoice' || !firm.upiVpa || row.currency.toUpperCase() !== 'INR') return null;
  if (balance <= 0 || !row.number || row.status === 'void') return null;
  try {
    return upiPayUri({
      vpa: firm.upiVpa,
      payeeName: firm.payee,
      amountMinor: balance,
      invoiceNumber: row.number,
    });
  } catch {
    // A UPI ID saved before the settings form checked it costs the client the QR, not the invoice.
    return null;
  }
}

/** A row as the portal shows it: Overdue derived (SPEC §4's rule), nothing owed on a credit note or a void one. */
function shown<T extends TRow & { currency: string; number: string | null }>(row: T, firm: TFirm) {
  const open = row.kind === 'invoice' && (OPEN_STATUSES as readonly string[]).includes(row.status);
  const balance = open ? row.balance : 0;
  return {
    ...row,
    balance,
    // A credit note is owed by the firm, never overdue.
    displayStatus: row.kind === 'invoice' ? invoiceDisplayStatus(row, firm.today) : row.status,
    upiUri: upiUriOf(row, firm, balance),
  };
}

/** What the client owes today: the open invoices' balances and how many of them are overdue. */
export async function portalBalance(db: TExecutor, access: TPortalClientAccess, today?: string) {
  const day = today ?? (await firmOf(db, access.orgId)).today;
  const [row] = await db
    .select({
      outstanding: sql<string>`coalesce(sum(${invoices.balance}) filter (where ${owing}), 0)`,
      overdue: sql<string>`coalesce(sum(${invoices.balance}) filter (where ${owing} and ${invoices.dueDate} < ${day}::date), 0)`,
      overdueCount: sql<number>`(count(*) filter (where ${owing} and ${invoices.dueDate} < ${day}::date))::int`,
      issued: sql<number>`count(*)::int`,
    })
    .from(invoices)
    .where(clientInvoices(access));
  return {
    outstanding: Number(row?.outstanding ?? 0),
    overdue: Number(row?.overdue ?? 0),
    overdueCount: Number(row?.overdueCount ?? 0),
    /** Whether the firm has issued the client anything at all (the home shows billing only then). */
    hasInvoices: Number(row?.issued ?? 0) > 0,
  };
}

/** A page of the client's invoices: what is still to pay first (soonest due first), then the rest, newest first. */
export async function listPortalInvoices(
  db: TExecutor,
  access: TPortalClientAccess,
  input: z.output<typeof ZPortalInvoiceList>,
) {
  const firm = await firmOf(db, access.orgId);
  const where = clientInvoices(access);
  const [rows, [total], balance] = await Promise.all([
    db
      .select(columns)
      .from(invoices)
      .where(where)
      .orderBy(
        sql`${owing} desc`,
        sql`case when ${owing} then ${invoices.dueDate} end asc nulls last`,
        sql`${invoices.issueDate} desc nulls last`,
        sql`${invoices.seq} desc nulls last`,
        asc(invoices.id),
      )
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(invoices).where(where),
    portalBalance(db, access, firm.today),
  ]);
  return {
    rows: rows.map((r) => shown(r, firm)),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
    balance,
    today: firm.today,
  };
}

/**
 * One of the client's issued invoices (or credit notes) with its lines as printed; a draft, another
 * client's or another firm's answers NOT_FOUND.
 */
export async function portalInvoice(db: TExecutor, access: TPortalClientAccess, invoiceId: string) {
  const [row] = await db
    .select({
      ...columns,
      subtotal: invoices.subtotal,
      taxTotal: invoices.taxTotal,
      roundOff: invoices.roundOff,
      notes: invoices.notes,
      terms: invoices.terms,
      creditForId: invoices.creditForId,
    })
    .from(invoices)
    .where(and(clientInvoices(access), eq(invoices.id, invoiceId)))
    .limit(1);
  if (!row) throw invoiceNotFound();
  const [firm, lines, credited] = await Promise.all([
    firmOf(db, access.orgId),
    db
      .select({
        id: invoiceLines.id,
        description: invoiceLines.description,
        quantityMilli: invoiceLines.quantityMilli,
        rate: invoiceLines.rate,
        discount: invoiceLines.discount,
        amount: invoiceLines.amount,
        tax: sql<string>`${invoiceLines.cgst} + ${invoiceLines.sgst} + ${invoiceLines.igst} + ${invoiceLines.otherTax}`,
      })
      .from(invoiceLines)
      .where(and(eq(invoiceLines.orgId, access.orgId), eq(invoiceLines.invoiceId, row.id)))
      .orderBy(asc(invoiceLines.position)),
    // The invoice a credit note corrects, by its number (the client has that one too).
    row.creditForId
      ? db
          .select({ id: invoices.id, number: invoices.number })
          .from(invoices)
          .where(and(clientInvoices(access), eq(invoices.id, row.creditForId)))
          .limit(1)
      : Promise.resolve([]),
  ]);
  const { creditForId: _, ...invoice } = row;
  return {
    ...shown(invoice, firm),
    lines: lines.map((l) => ({ ...l, tax: Number(l.tax) })),
    creditFor: credited[0] ?? null,
  };
}
