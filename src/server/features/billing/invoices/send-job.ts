import { and, eq, inArray } from 'drizzle-orm';
import { portalInvoicesPath } from '../../../../domain/billing/invoice-list';
import type { TFormatter } from '../../../../domain/format';
import { invoiceDeliveries, invoices, orgs } from '../../../db/schema';
import type { TJob } from '../../../jobs/queue';
import { PermanentJobError, registerJob, type TJobContext } from '../../../jobs/registry';
import { MAIL_BACKOFF } from '../../../mail';
import { firmFormatter } from '../../settings';
import { audit } from '../../system-log';
import { refreshBalances, type TInvoiceRow } from '../ledger';
import { renderInvoicePdf } from '../pdf';
import { invoiceFileName, invoicePdfModel } from './pdf-model';
import { INVOICE_MAIL, type TInvoiceMailPayload } from './send';

export { INVOICE_MAIL };

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 1000);

function mailText(invoice: TInvoiceRow, firm: string, link: string, format: TFormatter) {
  const name = invoice.billTo?.name ?? '';
  const lines =
    invoice.kind === 'credit_note'
      ? [
          `Dear ${name},`,
          `Please find attached our credit note ${invoice.number} dated ${format.date(invoice.issueDate)} for ${format.moneyMinor(invoice.total)}.`,
        ]
      : [
          `Dear ${name},`,
          `Please find attached our invoice ${invoice.number} dated ${format.date(invoice.issueDate)} for ${format.moneyMinor(invoice.total)}${invoice.balance > 0 && invoice.dueDate ? `, due on ${format.date(invoice.dueDate)}` : ''}.`,
          ...(invoice.balance > 0 && invoice.balance !== invoice.total
            ? [`${format.moneyMinor(invoice.balance)} is still to be paid.`]
            : []),
        ];
  lines.push(`See your invoices and pay in the portal: ${link}`, `— ${firm}`);
  return `${lines.join('\n\n')}\n`;
}

/**
 * One attempt at an invoice's queued mailings: the PDF is made once, from the database as it is
 * now, and mailed to each address not yet reached, each delivery marked in the statement right
 * after the mail server took it (so a retry never sends it twice). The first mailing that arrives
 * marks the invoice sent.
 */
async function send(job: TJob, ctx: TJobContext) {
  const p = job.payload as TInvoiceMailPayload;
  const orgId = job.orgId;
  if (!orgId || !p?.invoiceId) throw new PermanentJobError('Malformed invoice mail job');
  const [invoice] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, p.invoiceId)));
  const queued = eq(invoiceDeliveries.status, 'queued');
  const mine = and(eq(invoiceDeliveries.orgId, orgId), eq(invoiceDeliveries.invoiceId, p.invoiceId));
  const pending = await ctx.db.select().from(invoiceDeliveries).where(and(mine, queued));
  if (!invoice || !pending.length) return;
  if (invoice.status === 'void' || invoice.status === 'draft') {
    await ctx.db
      .update(invoiceDeliveries)
      .set({ status: 'failed', error: 'The invoice was voided before it was sent' })
      .where(and(mine, queued));
    return;
  }
  const [org] = await ctx.db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, orgId));
  const format = await firmFormatter(ctx.db, orgId);
  const pdf = await renderInvoicePdf(await invoicePdfModel(ctx.db, orgId, invoice.id));
  const link = new URL(portalInvoicesPath(invoice.clientId), ctx.config.publicUrl).toString();
  const host = new URL(ctx.config.publicUrl).hostname || 'localhost';
  const what = invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice';
  const firm = org?.name ?? 'Practice';
  const failures: string[] = [];
  const reached: string[] = [];
  for (const d of pending) {
    try {
      await ctx.mailer.send({
        to: d.email,
        subject: `${what} ${invoice.number} from ${firm}`,
        text: mailText(invoice, firm, link, format),
        notes: { link },
        messageId: `<invoice.${d.id}@${host}>`,
        attachments: [
          { filename: invoiceFileName(invoice.number), content: pdf, contentType: 'application/pdf' },
        ],
      });
    } catch (e) {
      const error = errorText(e);
      failures.push(`${d.email}: ${error}`);
      await ctx.db
        .update(invoiceDeliveries)
        .set({ attempt: job.attempts, error })
        .where(and(mine, eq(invoiceDeliveries.id, d.id)));
      continue;
    }
    await ctx.db
      .update(invoiceDeliveries)
      .set({ status: 'sent', sentAt: new Date(), attempt: job.attempts, error: null })
      .where(and(mine, eq(invoiceDeliveries.id, d.id)));
    reached.push(d.email);
  }
  if (reached.length) {
    await ctx.db.transaction(async (tx) => {
      if (!invoice.sentAt) {
        await tx
          .update(invoices)
          .set({ sentAt: new Date() })
          .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoice.id)));
        // Issued becomes Sent; a paid or partly paid one keeps its status (the ledger decides).
        await refreshBalances(tx, orgId, [invoice.id]);
      }
      await audit(
        tx,
        { kind: 'system', orgId },
        {
          action: 'invoice.mailed',
          recordType: 'invoice',
          recordId: invoice.id,
          summary: `Mailed ${invoice.number} to ${reached.join(', ')}`,
        },
      );
    });
  }
  // The queue retries with backoff; the addresses reached are not mailed again.
  if (failures.length) throw new Error(`Could not deliver to ${failures.join('; ')}`);
}

/** The last attempt failed: the mailings not made are marked failed, with the reason, and logged. */
async function sendFailed(job: TJob, error: string, ctx: TJobContext) {
  const p = job.payload as TInvoiceMailPayload;
  const orgId = job.orgId;
  if (!orgId || !p?.invoiceId) return;
  await ctx.db.transaction(async (tx) => {
    const failed = await tx
      .update(invoiceDeliveries)
      .set({ status: 'failed', error: error.slice(0, 1000) })
      .where(
        and(
          eq(invoiceDeliveries.orgId, orgId),
          eq(invoiceDeliveries.invoiceId, p.invoiceId),
          inArray(invoiceDeliveries.status, ['queued']),
        ),
      )
      .returning({ email: invoiceDeliveries.email });
    if (!failed.length) return;
    const [invoice] = await tx
      .select({ number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.orgId, orgId), eq(invoices.id, p.invoiceId)));
    await audit(
      tx,
      { kind: 'system', orgId },
      {
        action: 'invoice.mail_failed',
        recordType: 'invoice',
        recordId: p.invoiceId,
        summary:
          `Could not mail ${invoice?.number ?? 'an invoice'} to ${failed.map((f) => f.email).join(', ')} after ${job.attempts} attempt${job.attempts === 1 ? '' : 's'}: ${error}`.slice(
            0,
            2000,
          ),
      },
    );
  });
}

/** The invoice mail job, registered with the mail jobs (jobs/setup.ts). */
export function registerInvoiceMailJob() {
  registerJob(INVOICE_MAIL, send, { backoff: MAIL_BACKOFF, onFailed: sendFailed });
}
