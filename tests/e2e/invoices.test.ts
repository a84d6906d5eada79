import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, orgs } from '../../src/server/db/schema';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot, type TConsoleLog, tempDir } from './support/browser';
import { cutOff } from './support/fit';
import { pdfAttachmentOf, rawMailTo } from './support/mail';
import { freshAddress, STORY_TIMEOUT, step } from './support/story';

let app: TE2eApp;
let browser: Browser;
let firm: Awaited<ReturnType<TE2eApp['seedFirm']>>;
let context: BrowserContext;
let page: Page;
let log: TConsoleLog;
let invoiceUrl = '';
const CLIENT = 'Mehta Traders';
let CLIENT_EMAIL = '';

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});

/** Each attempt of the story starts here, on a firm of its own (support/story.ts). */
async function setUp() {
  CLIENT_EMAIL = freshAddress('accounts@mehta-traders.test');
  firm = await app.seedFirm('Kulkarni & Co');
  await app.db
    .update(orgs)
    .set({ country: 'IN', currency: 'INR', timeZone: 'Asia/Kolkata', fiscalYearStartMonth: 4 })
    .where(eq(orgs.id, firm.org.id));
  const api = app.client(firm.owner.token);
  const client = await api.clients.create.mutate({ code: 'MT-01', name: CLIENT, email: CLIENT_EMAIL });
  await app.db
    .update(clients)
    .set({ taxIds: [{ kind: 'GSTIN', value: '27AAAPM1234C1Z5' }], city: 'Pune', country: 'IN' })
    .where(eq(clients.id, client.id));
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await signInWithCookies(context, app, firm.owner);
  ({ page, console: log } = await newPage(context));
}
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));

describe('invoices in the browser', () => {
  it(
    "from GST set-up to a credited invoice on the client's Billing tab",
    async () => {
      await setUp();
      await step('sets the firm up for GST, with the next number previewed as it is typed', async () => {
        await page.goto(`${app.url}/admin`);
        await page
          .getByRole('link', { name: /Billing settings/ })
          .first()
          .click();
        await page.getByRole('heading', { name: 'Billing settings', level: 1 }).waitFor();
        await page.getByLabel('Tax profile').click();
        await page.getByRole('option', { name: /^GST/ }).click();
        await page.getByLabel("The firm's state").click();
        await page.getByRole('option', { name: 'Maharashtra (27)' }).click();
        await page.getByLabel('Default tax rate (%)').fill('18');
        await page.getByLabel('Round totals to whole units, with an explicit round-off line').click();
        await page.getByLabel('Invoice prefix').fill('KC');
        await page.getByText('KC/2026-27/0001').waitFor();
        await page.getByLabel('Bank details').fill('HDFC Bank, Pune\nA/c 50200012345678\nIFSC HDFC0000123');
        await page.getByLabel('UPI address').fill('kulkarni@hdfcbank');
        // The accounting export's ledgers, named as the firm's books name them.
        await page.getByLabel('Fees (income)').fill('Fees Received');
        await screenshot(page, 'billing-settings');
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.getByText('Billing settings saved').waitFor();
        await page.reload();
        await expect.poll(() => page.getByLabel('Fees (income)').inputValue()).toBe('Fees Received');
        expect(await page.getByLabel('IGST collected').inputValue()).toBe('Output IGST');
      });

      await step(
        'makes a draft with a custom line, sees live totals, and issues it with its number',
        async () => {
          await page.goto(`${app.url}/billing/invoices`);
          await page.getByText('No invoices yet').waitFor();
          await page.getByRole('button', { name: 'New invoice' }).click();
          const dialog = page.getByRole('dialog', { name: 'New invoice' });
          await dialog.getByLabel('Client').fill(`${CLIENT} (MT-01)`);
          await dialog.getByRole('button', { name: 'Start draft' }).click();
          await page.waitForURL(/\/billing\/invoices\/[0-9a-f-]{36}$/);
          invoiceUrl = page.url();
          await page.getByRole('heading', { name: /Draft invoice/ }).waitFor();

          await page.getByRole('button', { name: 'Add line' }).click();
          await page.getByLabel('Line 1 description').fill('Income tax return and advance tax planning');
          await page.getByLabel('Line 1 rate').fill('15000');
          await page.getByLabel('Line 1 quantity').fill('1.5');
          // 1.5 × 15,000 = 22,500; CGST and SGST 9% each (the client is in the firm's state).
          await expect.poll(() => page.getByLabel('Line 1 amount').textContent()).toBe('₹22,500.00');
          const totals = page.getByRole('definition').filter({ hasText: '₹26,550.00' });
          await totals.first().waitFor();
          await page.getByText('CGST 9%').waitFor();
          // A mistyped rate is marked on its cell and nothing is saved.
          await page.getByLabel('Line 1 discount').fill('abc');
          await page.getByText('Type an amount like 1500 or 1500.50').waitFor();
          await page.getByLabel('Line 1 discount').fill('');
          await screenshot(page, 'invoice-editor');
          expect(await cutOff(page)).toEqual([]);
          await page.getByRole('button', { name: 'Save', exact: true }).click();
          await page.getByText('Draft saved').waitFor();

          await page.getByRole('button', { name: 'Issue', exact: true }).click();
          await page.getByRole('alertdialog').getByRole('button', { name: 'Issue invoice' }).click();
          await page.getByRole('heading', { name: /KC\/2026-27\/0001/ }).waitFor();
          await page.getByText('Balance due').waitFor();
          expect(await cutOff(page)).toEqual([]);
          await screenshot(page, 'invoice-issued');
        },
      );

      await step('downloads the PDF, with the number in it', async () => {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download PDF' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('KC-2026-27-0001.pdf');
        const text = execFileSync('pdftotext', ['-layout', (await download.path()) as string, '-'], {
          encoding: 'utf8',
        });
        expect(text).toContain('KC/2026-27/0001');
        expect(text).toContain(CLIENT);
        expect(text).toContain('₹26,550.00');
        fs.mkdirSync(path.resolve('test-results/screens'), { recursive: true });
        fs.copyFileSync((await download.path()) as string, path.resolve('test-results/screens/invoice.pdf'));
      });

      await step(
        'sends it: the mail carries the PDF and the portal link, and the send is in the history',
        async () => {
          await page.getByRole('button', { name: 'Send', exact: true }).click();
          const dialog = page.getByRole('dialog', { name: /Send KC\/2026-27\/0001/ });
          await expect.poll(() => dialog.getByLabel('To').inputValue()).toBe(CLIENT_EMAIL);
          await dialog.getByRole('button', { name: 'Send', exact: true }).click();
          await page.getByText(`Queued for ${CLIENT_EMAIL}`).waitFor();
          const mail = await app.lastMail(CLIENT_EMAIL);
          expect(mail.subject).toContain('KC/2026-27/0001');
          expect(mail.text).toMatch(/\/clientportal\/[0-9a-f-]{36}\/invoices/);
          const raw = rawMailTo(app.config.mail.outboxDir, CLIENT_EMAIL).at(-1) ?? '';
          const pdf = pdfAttachmentOf(raw);
          const dir = tempDir('invoice-mail-');
          fs.writeFileSync(path.join(dir, 'attached.pdf'), pdf);
          expect(
            execFileSync('pdftotext', [path.join(dir, 'attached.pdf'), '-'], { encoding: 'utf8' }),
          ).toContain('KC/2026-27/0001');
          await page.reload();
          await page.getByRole('list', { name: 'Mailed' }).getByText(CLIENT_EMAIL).waitFor();
          await page.getByRole('list', { name: 'Mailed' }).getByText('Sent').waitFor();
          await page
            .getByRole('heading', { name: /KC\/2026-27\/0001/ })
            .getByText('Sent')
            .waitFor();
        },
      );

      await step('raises a full credit note, which settles the invoice', async () => {
        await page.getByRole('button', { name: 'Raise credit note' }).click();
        const dialog = page.getByRole('dialog', { name: /Raise a credit note/ });
        await dialog.getByLabel('Reason').fill('Engagement cancelled');
        // Its own lines start from the invoice's.
        await dialog.getByRole('switch', { name: /Credit the whole invoice/ }).click();
        await expect
          .poll(() => dialog.getByLabel('Line 1 description').inputValue())
          .toContain('Income tax return');
        await screenshot(page, 'invoice-credit-note');
        await dialog.getByRole('switch', { name: /Credit the whole invoice/ }).click();
        await dialog.getByRole('button', { name: 'Issue credit note' }).click();
        await page.getByText('Issued CN/2026-27/0001 for ₹26,550.00').waitFor();
        await page
          .getByRole('heading', { name: /KC\/2026-27\/0001/ })
          .getByText('Paid')
          .waitFor();
        await page
          .getByRole('list', { name: 'Credit notes' })
          .getByRole('link', { name: 'CN/2026-27/0001' })
          .click();
        await page.getByRole('heading', { name: /CN\/2026-27\/0001/ }).waitFor();
        await page.getByText('Engagement cancelled').waitFor();
      });

      await step("shows the client's Billing tab: its invoices, contacts and what was mailed", async () => {
        await page.goto(invoiceUrl);
        await page.getByRole('link', { name: CLIENT }).click();
        await page.getByRole('link', { name: 'Billing', exact: true }).waitFor();
        await page
          .getByRole('table', { name: 'Invoices' })
          .getByRole('row', { name: /KC\/2026-27\/0001/ })
          .waitFor();
        await page.getByRole('list', { name: 'Invoices mailed' }).getByText(CLIENT_EMAIL).waitFor();
        await page.getByLabel('Another address').fill('cfo@mehta-traders.test');
        await page.getByRole('button', { name: 'Add', exact: true }).click();
        await page.getByLabel('Pause payment reminders for this client').click();
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.getByText('Billing contacts saved').waitFor();
        expect(await cutOff(page)).toEqual([]);
        await screenshot(page, 'client-billing');

        // The firm's list: the invoice paid by its credit note, filters in the URL.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invoices' }).click();
        const table = page.getByRole('table', { name: 'Invoices' });
        await table.getByRole('row', { name: /CN\/2026-27\/0001/ }).waitFor();
        await page.getByLabel('Status').click();
        await page.getByRole('option', { name: 'Paid', exact: true }).click();
        await page.waitForURL(/status=paid/);
        await expect.poll(() => table.getByRole('row').count()).toBe(2);
        expect(await cutOff(page)).toEqual([]);
        await screenshot(page, 'invoices-list');
        expect(faults(log.errors)).toEqual([]);
      });
    },
    STORY_TIMEOUT,
  );
});
