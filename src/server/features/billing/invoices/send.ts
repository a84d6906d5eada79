import { TRPCError } from '@trpc/server';
import { actorOf, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { invoiceDeliveries } from '../../../db/schema';
import { enqueue } from '../../../jobs/queue';
import { audit } from '../../system-log';
import { issueInvoice } from '../issue';
import type { TInvoiceRow } from '../ledger';
import { visibleInvoice } from './access';
import { recipientsOf } from './recipients';

export const INVOICE_MAIL = 'billing.invoiceMail';
export const INVOICE_MAIL_ATTEMPTS = 5;
export type TInvoiceMailPayload = { invoiceId: string };

/**
 * Queues the mailing of an issued invoice (or credit note) to each address, in the caller's
 * transaction: a delivery row per address (the client's history of what it was sent) and one job
 * that renders the PDF and mails it. Sending again is allowed: each send is its own deliveries.
 */
async function queueSend(
  tx: TExecutor,
  scope: TScope,
  invoice: TInvoiceRow,
  to: string[] | undefined,
  meta: TRequestMeta,
) {
  if (invoice.status === 'draft')
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Issue the invoice before sending it' });
  if (invoice.status === 'void')
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'A void invoice is not sent' });
  const emails = to?.length ? to : await recipientsOf(tx, scope.orgId, invoice.clientId);
  if (!emails.length) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: "Nobody to send it to: add the client's billing contacts or its email, or type an address",
    });
  }
  await tx.insert(invoiceDeliveries).values(
    emails.map((email) => ({
      orgId: scope.orgId,
      invoiceId: invoice.id,
      clientId: invoice.clientId,
      email,
      requestedBy: scope.memberId,
    })),
  );
  await enqueue(tx, INVOICE_MAIL, { invoiceId: invoice.id } satisfies TInvoiceMailPayload, {
    orgId: scope.orgId,
    maxAttempts: INVOICE_MAIL_ATTEMPTS,
  });
  await audit(tx, actorOf(scope, meta), {
    action: 'invoice.send',
    recordType: 'invoice',
    recordId: invoice.id,
    summary: `${invoice.sentAt ? 'Sent again' : 'Sent'} ${invoice.number} to ${emails.join(', ')}`,
  });
  return { to: emails };
}

export async function sendInvoice(
  db: TDb,
  scope: TScope,
  input: { invoiceId: string; to?: string[] },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const invoice = await visibleInvoice(tx, scope, input.invoiceId, true);
    return queueSend(tx, scope, invoice, input.to, meta);
  });
}

/** "Issue and send": numbered and queued for mailing together, or neither. */
export async function issueAndSend(
  db: TDb,
  scope: TScope,
  input: { invoiceId: string; issueDate?: string; to?: string[] },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    await visibleInvoice(tx, scope, input.invoiceId);
    const issued = await issueInvoice(tx, actorOf(scope, meta), input.invoiceId, {
      issueDate: input.issueDate,
      memberId: scope.memberId,
    });
    const sent = await queueSend(tx, scope, issued, input.to, meta);
    return { id: issued.id, number: issued.number, ...sent };
  });
}
