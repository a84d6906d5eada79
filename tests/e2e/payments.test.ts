import { execFileSync } from 'node:child_process';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/domain/days';
import { billingSettings, invoices, orgs } from '../../src/server/db/schema';
import { seedInvoice } from '../../src/server/test/billing';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot, type TConsoleLog } from './support/browser';
import { cutOff } from './support/fit';
import { STORY_TIMEOUT, step } from './support/story';

// Money in, as a firm's accountant records it: a part payment with TDS from the invoice's page, the
// rest from the payments list, the receivables and the list on the way, one payment reversed (the
// invoice owes again), and the client's statement as a PDF.

let app: TE2eApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let log: TConsoleLog;
let invoiceUrl = '';
let invoiceNumber = '';
let clientId = '';
const CLIENT = 'Nair Textiles';

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});

/** Each attempt of the story starts here, on a firm of its own (support/story.ts). */
async function setUp() {
  const firm = await app.seedFirm('Iyer & Rao');
  await app.db
    .update(orgs)
    .set({ country: 'IN', currency: 'INR', timeZone: 'Asia/Kolkata', fiscalYearStartMonth: 4 })
    .where(eq(orgs.id, firm.org.id));
  await app.db.insert(billingSettings).values({ orgId: firm.org.id, dueDays: 15 });
  const client = await app.client(firm.owner.token).clients.create.mutate({ code: 'NT-01', name: CLIENT });
  clientId = client.id;
  const today = todayIn('Asia/Kolkata');
  // ₹1,00,000 billed today, due in a fortnight.
  const invoice = await seedInvoice(app, firm.org.id, {
    clientId,
    issueDate: today,
    lines: [{ description: 'Statutory audit, FY 2025-26', rate: 10_000_000 }],
  });
  await app.db
    .update(invoices)
    .set({ dueDate: addDays(today, 14) })
    .where(eq(invoices.id, invoice.id));
  invoiceNumber = invoice.number ?? '';
  invoiceUrl = `${app.url}/billing/invoices/${invoice.id}`;
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await signInWithCookies(context, app, firm.owner);
  ({ page, console: log } = await newPage(context));
}
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));
const heading = () => page.getByRole('heading', { level: 1 });

describe('payments in the browser', () => {
  it(
    'from a part payment with TDS to a reversal and the client statement',
    async () => {
      await setUp();
      await step(
        "records a part payment with TDS from the invoice's page: the invoice is partly paid",
        async () => {
          await page.goto(invoiceUrl);
          await heading().getByText(invoiceNumber).waitFor();
          await page.getByRole('button', { name: 'Record payment' }).click();
          const dialog = page.getByRole('dialog', { name: 'Record payment' });
          // The invoice's balance is the amount to start from, all of it on this invoice.
          await expect.poll(() => dialog.getByLabel('Amount received').inputValue()).toBe('100000.00');
          await dialog.getByText(`${CLIENT} (NT-01)`).waitFor();
          await dialog.getByLabel('Amount received').fill('45000');
          await dialog.getByLabel('TDS amount').fill('10000');
          await dialog.getByLabel('TDS section').fill('194j');
          await dialog.getByLabel('Reference').fill('UTR 4417');
          const allocation = dialog.getByLabel(`Allocate to ${invoiceNumber}`);
          // 45,000 received and 10,000 deducted at source settle 55,000 of it.
          await expect.poll(() => allocation.inputValue()).toBe('55000.00');
          await dialog.getByText('Allocated ₹55,000.00 of ₹55,000.00').waitFor();
          // Never beyond the invoice's balance: the form says so on the invoice's row.
          await allocation.fill('100000.01');
          await dialog.getByRole('button', { name: 'Record payment' }).click();
          await dialog.getByText("More than the invoice's balance").waitFor();
          await dialog.getByRole('button', { name: 'Fill oldest first' }).click();
          await expect.poll(() => allocation.inputValue()).toBe('55000.00');
          await expect.poll(() => dialog.getByText("More than the invoice's balance").count()).toBe(0);
          expect(await cutOff(page)).toEqual([]);
          await screenshot(page, 'payment-record');
          await dialog.getByRole('button', { name: 'Record payment' }).click();
          await page.getByText('Recorded ₹45,000.00').waitFor();
          await heading().getByText('Partly paid').waitFor();
          await page.getByRole('definition').filter({ hasText: '₹45,000.00' }).first().waitFor();
          await page
            .getByRole('list', { name: 'Payments and credits' })
            .getByRole('link', { name: /Payment by bank transfer · UTR 4417/ })
            .waitFor();
        },
      );

      await step('shows what the client owes on the receivables, which lead to its Billing tab', async () => {
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Receivables' })
          .click();
        const table = page.getByRole('table', { name: 'Receivables' });
        const row = table.getByRole('row', { name: new RegExp(CLIENT) });
        await row.waitFor();
        expect(await row.getByRole('cell').allTextContents()).toEqual([
          `${CLIENT}NT-01`,
          '₹45,000.00',
          '—',
          '—',
          '—',
          '—',
          '₹45,000.00',
          '—',
        ]);
        await table.getByRole('rowheader', { name: /^Total · 1 client$/ }).waitFor();
        expect(await cutOff(page)).toEqual([]);
        await screenshot(page, 'receivables');
        await page.getByLabel('Group by').click();
        await page.getByRole('option', { name: 'By partner' }).click();
        await page.waitForURL(/dimension=partner/);
        await table.getByRole('row', { name: /No partner/ }).waitFor();
        await page.getByLabel('Group by').click();
        await page.getByRole('option', { name: 'By client', exact: true }).click();
        await row.getByRole('link', { name: new RegExp(CLIENT) }).click();
        await page.waitForURL(new RegExp(`/clients/${clientId}/billing`));
        await page.getByRole('button', { name: 'Record payment' }).waitFor();
      });

      await step(
        'records the rest from the payments list: the invoice is paid, and both payments are listed',
        async () => {
          await page
            .getByRole('navigation', { name: 'Main' })
            .getByRole('link', { name: 'Payments' })
            .click();
          await heading().getByText('Payments').waitFor();
          await page.getByRole('button', { name: 'Record payment' }).click();
          const dialog = page.getByRole('dialog', { name: 'Record payment' });
          await dialog.getByLabel('Client').fill(`${CLIENT} (NT-01)`);
          const allocation = dialog.getByLabel(`Allocate to ${invoiceNumber}`);
          await allocation.waitFor();
          await dialog.getByLabel('Method').click();
          await page.getByRole('option', { name: 'UPI' }).click();
          await dialog.getByLabel('Amount received').fill('45,000');
          await expect.poll(() => allocation.inputValue()).toBe('45000.00');
          // The first payment's toast said the same words: it must be gone, so the one seen is this one's.
          await expect.poll(() => page.getByText('Recorded ₹45,000.00').count()).toBe(0);
          await dialog.getByRole('button', { name: 'Record payment' }).click();
          await page.getByText('Recorded ₹45,000.00').waitFor();

          const table = page.getByRole('table', { name: 'Payments' });
          await expect.poll(() => table.getByRole('row').count()).toBe(3);
          const upi = table.getByRole('row', { name: /UPI/ });
          expect(await upi.getByRole('cell').allTextContents()).toEqual([
            expect.any(String),
            CLIENT,
            'UPI',
            '—',
            '₹45,000.00',
            '—',
            '—',
            'Received',
          ]);
          const bank = table.getByRole('row', { name: /UTR 4417/ });
          await bank.getByText('₹10,000.00').waitFor();
          await bank.getByText('194J').waitFor();
          await bank.getByText('Certificate pending').waitFor();
          // The TDS whose certificate has not come in, by its filter, in the URL.
          await page.getByLabel('TDS', { exact: true }).click();
          await page.getByRole('option', { name: 'TDS certificate pending' }).click();
          await page.waitForURL(/tds=pending/);
          await expect.poll(() => table.getByRole('row').count()).toBe(2);
          expect(await cutOff(page)).toEqual([]);
          await screenshot(page, 'payments-list');

          await page.goto(invoiceUrl);
          await heading().getByText('Paid', { exact: true }).waitFor();
          expect(await page.getByRole('button', { name: 'Record payment' }).count()).toBe(0);
        },
      );

      await step('reverses the UPI payment with a reason: the invoice is owed again', async () => {
        await page.goto(`${app.url}/billing/payments?method=upi`);
        const table = page.getByRole('table', { name: 'Payments' });
        await expect.poll(() => table.getByRole('row').count()).toBe(2);
        await table.getByRole('link', { name: CLIENT }).click();
        await heading().getByText(`₹45,000.00 from ${CLIENT}`).waitFor();
        await page
          .getByRole('list', { name: 'Allocated to' })
          .getByRole('link', { name: invoiceNumber })
          .waitFor();
        expect(await cutOff(page)).toEqual([]);
        await screenshot(page, 'payment-page');
        await page.getByRole('button', { name: 'Reverse' }).click();
        const dialog = page.getByRole('dialog', { name: 'Reverse this payment?' });
        await dialog.getByRole('button', { name: 'Reverse payment' }).click();
        await dialog.getByText('Enter reason').waitFor();
        await dialog.getByLabel('Reason').fill('UPI transfer returned by the bank');
        await dialog.getByRole('button', { name: 'Reverse payment' }).click();
        await page.getByText('Reversed the payment of ₹45,000.00').waitFor();
        await heading().getByText('Reversed').waitFor();
        await page
          .getByRole('note')
          .getByText(/UPI transfer returned by the bank/)
          .waitFor();
        expect(await page.getByRole('button', { name: 'Reverse' }).count()).toBe(0);

        await page
          .getByRole('list', { name: 'Allocated to' })
          .getByRole('link', { name: invoiceNumber })
          .click();
        await heading().getByText('Partly paid').waitFor();
        await page.getByRole('definition').filter({ hasText: '₹45,000.00' }).first().waitFor();
      });

      await step("shows the client's statement and downloads it as a PDF", async () => {
        await page.goto(`${app.url}/clients/${clientId}/billing`);
        // Billed 1,00,000; received 90,000 and 10,000 of TDS; 45,000 of it reversed: 45,000 owed.
        const totals = page.getByLabel('Statement totals');
        await totals.getByText('₹1,45,000.00').waitFor();
        await totals.getByText('₹1,00,000.00').waitFor();
        const statement = page.getByRole('table', { name: 'Statement' });
        await statement.getByRole('row', { name: /Payment reversed/ }).waitFor();
        await statement.getByRole('row', { name: /TDS deducted.*Section 194J/ }).waitFor();
        await statement.getByRole('row', { name: /Closing balance.*₹45,000\.00/ }).waitFor();
        expect(await cutOff(page)).toEqual([]);
        await screenshot(page, 'client-billing-statement');
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download PDF' }).click(),
        ]);
        const file = (await download.path()) as string;
        const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
        expect(text).toContain(CLIENT);
        expect(text).toContain(invoiceNumber);
        expect(faults(log.errors)).toEqual([]);
      });
    },
    STORY_TIMEOUT,
  );
});
