import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, invoiceDeliveries, jobs, orgs, systemLog } from '../../../db/schema';
import { createTestApp, type TTestApp } from '../../../test/app';
import { seedClient } from '../../../test/fixtures';
import { readable, startSmtpServer, type TReceivedMail } from '../../../test/smtp-server';

// The invoice's PDF over HTTP, and its mailing through a real SMTP server: the PDF attached (read
// back with poppler's pdftotext), the portal link, the delivery history, the invoice marked sent.

let t: TTestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Practice <no-reply@practice.test>' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-pdf-'));
  try {
    const file = path.join(dir, 'invoice.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF a received message carries (nodemailer writes attachments as base64). */
function attachedPdf(mail: TReceivedMail | undefined): { name: string; bytes: Buffer } {
  const part = (mail?.data ?? '').split(/\r?\n--/).find((p) => /Content-Type: application\/pdf/i.test(p));
  if (!part) throw new Error('no PDF attached');
  const [head = '', ...body] = part.split(/\r?\n\r?\n/);
  const name = /filename="?([^";\r\n]+)"?/i.exec(head)?.[1] ?? '';
  return { name, bytes: Buffer.from(body.join('').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64') };
}

async function firmWithInvoice(name: string) {
  const firm = await t.seedFirm(name);
  await t.db
    .update(orgs)
    .set({
      currency: 'INR',
      country: 'IN',
      timeZone: 'Asia/Kolkata',
      fiscalYearStartMonth: 4,
      addressLine1: '12 MG Road',
      city: 'Pune',
      taxIds: [{ kind: 'GSTIN', value: '27AAAFK1234C1Z5' }],
    })
    .where(eq(orgs.id, firm.org.id));
  const api = t.client(firm.owner.token);
  const settings = (await api.billing.settings.get.query()).settings;
  await api.billing.settings.update.mutate({
    ...settings,
    taxRegime: 'gst',
    gstState: '27',
    roundTotals: true,
    bankDetails: 'HDFC Bank, Pune',
    upiVpa: 'firm@hdfcbank',
  });
  const client = await seedClient(t, firm.org.id, { name: 'Joshi Exports' });
  await t.db.update(clients).set({ email: 'accounts@joshi.test' }).where(eq(clients.id, client.id));
  const draft = await api.billing.invoices.create.mutate({ clientId: client.id });
  await api.billing.invoices.update.mutate({
    invoiceId: draft.id,
    lines: [
      {
        description: 'Annual audit',
        serviceId: null,
        taxCode: '998221',
        quantityMilli: 1000,
        rate: 5_000_000,
        discount: 0,
        taxRateBp: 1800,
      },
    ],
    notes: '',
    terms: '',
  });
  const issued = await api.billing.invoices.issue.mutate({ invoiceId: draft.id, issueDate: '2026-11-20' });
  return { firm, api, client, invoice: { id: draft.id, number: issued.number ?? '' } };
}

describe('the invoice PDF', () => {
  it('is made from the database for a member who may see it, named for its number', async () => {
    const { firm, invoice } = await firmWithInvoice('Pdf & Co');
    const res = await fetch(`${t.url}/api/billing/invoices/${invoice.id}/pdf`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('INV-2026-27-0001.pdf');
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('INV/2026-27/0001');
    expect(text).toContain('Joshi Exports');
    expect(text).toContain('Annual audit');
    expect(text).toContain('₹59,000.00');
    expect(text).toMatch(/Fifty-Nine Thousand/);
    // Staff (clients.view, tasks.view only) may not; a mangled id is not found.
    const staff = await fetch(`${t.url}/api/billing/invoices/${invoice.id}/pdf`, {
      headers: { authorization: `Bearer ${firm.staff.token}` },
    });
    expect(staff.status).toBe(403);
    const mangled = await fetch(`${t.url}/api/billing/invoices/not-an-id/pdf`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(mangled.status).toBe(404);
    const anonymous = await fetch(`${t.url}/api/billing/invoices/${invoice.id}/pdf`);
    expect(anonymous.status).toBe(401);
  });
});

describe('sending an invoice', () => {
  it('mails the PDF with the portal link to each address, once, and marks it sent', async () => {
    const { firm, api, client, invoice } = await firmWithInvoice('Mail & Co');
    await api.billing.invoices.send.mutate({ invoiceId: invoice.id });
    expect(await t.sendQueuedMail()).toBeGreaterThan(0);
    const received = smtp.received.filter((m) => m.to.includes('accounts@joshi.test'));
    expect(received).toHaveLength(1);
    const text = readable(received[0]);
    expect(text).toContain('Subject: Invoice INV/2026-27/0001 from Mail & Co');
    expect(text).toContain(`/clientportal/${client.id}/invoices`);
    const pdf = attachedPdf(received[0]);
    expect(pdf.name).toBe('INV-2026-27-0001.pdf');
    expect(pdfText(pdf.bytes)).toContain('INV/2026-27/0001');

    const detail = await api.billing.invoices.get.query({ invoiceId: invoice.id });
    expect(detail.invoice.status).toBe('sent');
    expect(detail.invoice.sentAt).toBeInstanceOf(Date);
    expect(detail.deliveries.map((d) => [d.email, d.status])).toEqual([['accounts@joshi.test', 'sent']]);
    const mailings = await api.billing.invoices.clientMailings.query({
      clientId: client.id,
      page: 1,
      pageSize: 10,
    });
    expect(mailings.rows.map((r) => [r.number, r.email, r.status])).toEqual([
      ['INV/2026-27/0001', 'accounts@joshi.test', 'sent'],
    ]);
    expect(detail.history.map((h) => h.action)).toContain('invoice.mailed');

    // Sent again to another address: that one only, and the status stays sent.
    await api.billing.invoices.send.mutate({ invoiceId: invoice.id, to: ['cfo@joshi.test'] });
    await t.sendQueuedMail();
    expect(smtp.received.filter((m) => m.to.includes('accounts@joshi.test'))).toHaveLength(1);
    expect(smtp.received.filter((m) => m.to.includes('cfo@joshi.test'))).toHaveLength(1);
    const again = await api.billing.invoices.get.query({ invoiceId: invoice.id });
    expect(again.invoice.status).toBe('sent');
    expect(again.deliveries).toHaveLength(2);
    expect(
      await t.db
        .select()
        .from(systemLog)
        .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'invoice.send'))),
    ).toHaveLength(2);
  });

  it('retries an address the server refused, and marks it failed after the last attempt', async () => {
    const { api, invoice } = await firmWithInvoice('Refused & Co');
    smtp.refuseNext(10, (address) => address === 'nobody@joshi.test');
    await api.billing.invoices.send.mutate({ invoiceId: invoice.id, to: ['nobody@joshi.test'] });
    await t.sendQueuedMail();
    const [delivery] = await t.db
      .select()
      .from(invoiceDeliveries)
      .where(eq(invoiceDeliveries.invoiceId, invoice.id));
    expect(delivery).toMatchObject({ status: 'queued', attempt: 1 });
    expect(delivery?.error).toMatch(/Mailbox unavailable|550/);
    // Its last attempt: the queue gives up, the delivery says so, the invoice is not sent.
    await t.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000), attempts: 4 })
      .where(eq(jobs.kind, 'billing.invoiceMail'));
    await t.sendQueuedMail();
    const detail = await api.billing.invoices.get.query({ invoiceId: invoice.id });
    expect(detail.deliveries[0]).toMatchObject({ status: 'failed' });
    expect(detail.invoice.status).toBe('issued');
    expect(detail.history.map((h) => h.action)).toContain('invoice.mail_failed');
    smtp.refuseNext(0);
  });
});
