import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_ROLES } from '../../src/domain/permissions';
import { billingSettings, orgs, roles } from '../../src/server/db/schema';
import { putOnTeam } from '../../src/server/test/fixtures';
import { seedPortalUser } from '../../src/server/test/portal';
import { signInToPortal, signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot, type TConsoleLog, tempDir } from './support/browser';
import { pdfAttachmentOf, rawMailTo } from './support/mail';
import { freshAddress, STORY_TIMEOUT, step } from './support/story';

// Billing's whole day, as issue 35 tells it: time a member logged and the owner approved shows in
// WIP; the owner makes the invoice from it, issues it and mails it; the client opens it from the
// mail in the portal; a part payment with TDS, then the rest; the invoice is paid, and the client
// sees that too. Only the time is made through procedures (the timesheet has its own browser test).

let app: TE2eApp;
let browser: Browser;
let staff: Page;
let portal: Page;
const logs: TConsoleLog[] = [];
let clientId = '';
let number = '';
let invoiceUrl = '';
const CLIENT = 'Desai Exports';
let EMAIL = '';
const WEEK = '2026-03-02';

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});

/** Each attempt of the story starts here, on a firm of its own (support/story.ts). */
async function setUp() {
  EMAIL = freshAddress('accounts@desai-exports.test');
  logs.length = 0;
  const firm = await app.seedFirm('Joshi & Partners');
  await app.db
    .update(orgs)
    .set({ country: 'IN', currency: 'INR', timeZone: 'Asia/Kolkata', fiscalYearStartMonth: 4 })
    .where(eq(orgs.id, firm.org.id));
  await app.db.insert(billingSettings).values({
    orgId: firm.org.id,
    dueDays: 15,
    upiVpa: 'joshi.partners@okicici',
    upiPayee: 'Joshi & Partners',
  });
  const staffSeed = SEEDED_ROLES.find((r) => r.name === 'Staff');
  if (!staffSeed) throw new Error('no Staff role');
  await app.db
    .update(roles)
    .set({ permissions: [...staffSeed.permissions] })
    .where(eq(roles.id, firm.roles.staff.id));
  const owner = app.client(firm.owner.token);
  const client = await owner.clients.create.mutate({ code: 'DE-01', name: CLIENT, email: EMAIL });
  clientId = client.id;
  await putOnTeam(app, firm.org.id, clientId, firm.staff.id);
  // Sam's week: 4 hours at ₹2,000 an hour, sent and approved.
  await owner.timesheets.rates.set.mutate({ kind: 'member', refId: firm.staff.id, rate: 200_000 });
  const sam = app.client(firm.staff.token);
  await sam.timesheets.create.mutate({ date: WEEK, minutes: 180, clientId, note: 'Export incentive claim' });
  await sam.timesheets.create.mutate({ date: '2026-03-04', minutes: 60, clientId, note: 'LUT renewal' });
  await sam.timesheets.submitWeek.mutate({ weekStart: WEEK });
  await owner.timesheets.approve.mutate({ weekStart: WEEK, memberIds: [firm.staff.id] });
  const person = await seedPortalUser(app, {
    orgId: firm.org.id,
    clientIds: [clientId],
    email: EMAIL,
    name: 'Nikhil Desai',
  });

  const office = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await signInWithCookies(office, app, firm.owner);
  const phone = await browser.newContext({ viewport: { width: 375, height: 800 } });
  await signInToPortal(phone, app, person.token);
  const a = await newPage(office);
  const b = await newPage(phone);
  staff = a.page;
  portal = b.page;
  logs.push(a.console, b.console);
}
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

describe("billing's day", () => {
  it(
    'from approved time to a paid invoice the client sees paid',
    async () => {
      await setUp();
      await step('approved time is in WIP, and becomes a draft invoice', async () => {
        await staff.goto(`${app.url}/billing/wip`);
        const row = staff.getByRole('row', { name: new RegExp(CLIENT) });
        await row.getByText('₹8,000.00').first().waitFor();
        await row.getByRole('link', { name: new RegExp(CLIENT) }).click();
        await staff.waitForURL(`${app.url}/billing/wip/${clientId}`);
        await staff.getByText(/chosen, 2 items/).waitFor();
        await staff.getByRole('button', { name: 'Make draft invoice' }).click();
        await staff.getByText('Draft invoice made').waitFor();
        await staff.waitForURL(new RegExp(`${app.url}/billing/invoices/[0-9a-f-]{36}$`));
        invoiceUrl = staff.url();
        // The time left WIP with the draft.
        await staff.goto(`${app.url}/billing/wip/${clientId}`);
        await staff.getByText('Nothing to bill').waitFor();
      });

      await step('is issued with its number and mailed with its PDF', async () => {
        await staff.goto(invoiceUrl);
        await staff.getByRole('button', { name: 'Issue', exact: true }).click();
        await staff.getByRole('alertdialog').getByRole('button', { name: 'Issue invoice' }).click();
        await heading(staff).getByText(/\//).waitFor();
        number = ((await heading(staff).textContent()) ?? '').match(/[A-Z]+\/\d{4}-\d{2}\/\d{4}/)?.[0] ?? '';
        expect(number).not.toBe('');
        await staff.getByText('Balance due').waitFor();
        await staff.getByRole('button', { name: 'Send', exact: true }).click();
        const dialog = staff.getByRole('dialog', { name: new RegExp(`Send ${number}`) });
        await expect.poll(() => dialog.getByLabel('To').inputValue()).toBe(EMAIL);
        await dialog.getByRole('button', { name: 'Send', exact: true }).click();
        await staff.getByText(`Queued for ${EMAIL}`).waitFor();

        const mail = await app.lastMail(EMAIL);
        expect(mail.subject).toContain(number);
        const eml = rawMailTo(app.config.mail.outboxDir, EMAIL).find((m) => /application\/pdf/i.test(m));
        if (!eml) throw new Error('no mail with a PDF');
        const file = path.join(tempDir('billing-day-'), 'invoice.pdf');
        fs.writeFileSync(file, pdfAttachmentOf(eml));
        const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
        expect(text).toContain(number);
        expect(text).toContain(CLIENT);
        expect(text).toContain('8,000.00');
        // The mail takes the client to the invoice in the portal.
        const link = mail.text.match(/https?:\/\/\S+\/clientportal\/[0-9a-f-]{36}\/invoices\S*/)?.[0];
        expect(link).toBeDefined();
        await staff.reload();
        await heading(staff).getByText('Sent').waitFor();
      });

      await step('the client opens it from the mail in the portal, on a phone', async () => {
        const mail = await app.lastMail(EMAIL);
        const link = mail.text.match(/https?:\/\/\S+\/clientportal\/[0-9a-f-]{36}\/invoices\S*/)?.[0] ?? '';
        await portal.goto(`${app.url}${new URL(link).pathname}${new URL(link).search}`);
        const list = portal.getByRole('list', { name: 'Invoices' });
        const item = list.getByRole('listitem').filter({ hasText: number });
        await item.getByText('₹8,000.00').first().waitFor();
        await list.getByRole('link', { name: `Invoice ${number}` }).click();
        const drawer = portal.getByRole('dialog', { name: `Invoice ${number}` });
        await drawer.getByText('₹8,000.00').first().waitFor();
        await drawer.getByTestId('upi-qr').waitFor();
        expect(await portal.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        await screenshot(portal, 'billing-day-portal-invoice');
        await portal.keyboard.press('Escape');
        await drawer.waitFor({ state: 'detached' });
      });

      await step('a part payment with TDS leaves it partly paid; the rest pays it', async () => {
        await staff.goto(invoiceUrl);
        await staff.getByRole('button', { name: 'Record payment' }).click();
        let dialog = staff.getByRole('dialog', { name: 'Record payment' });
        await expect.poll(() => dialog.getByLabel('Amount received').inputValue()).toBe('8000.00');
        // ₹3,000 received and ₹800 deducted at source under section 194J.
        await dialog.getByLabel('Amount received').fill('3000');
        await dialog.getByLabel('TDS amount').fill('800');
        await dialog.getByLabel('TDS section').fill('194J');
        await dialog.getByLabel('Reference').fill('NEFT 9921');
        await expect.poll(() => dialog.getByLabel(`Allocate to ${number}`).inputValue()).toBe('3800.00');
        await dialog.getByRole('button', { name: 'Record payment' }).click();
        await staff.getByText('Recorded ₹3,000.00').waitFor();
        await heading(staff).getByText('Partly paid').waitFor();
        await staff.getByRole('definition').filter({ hasText: '₹4,200.00' }).first().waitFor();

        await staff.getByRole('button', { name: 'Record payment' }).click();
        dialog = staff.getByRole('dialog', { name: 'Record payment' });
        await expect.poll(() => dialog.getByLabel('Amount received').inputValue()).toBe('4200.00');
        await dialog.getByLabel('Method').click();
        await staff.getByRole('option', { name: 'UPI' }).click();
        await dialog.getByRole('button', { name: 'Record payment' }).click();
        await staff.getByText('Recorded ₹4,200.00').waitFor();
        await heading(staff).getByText('Paid', { exact: true }).waitFor();
        const paidBy = staff.getByRole('list', { name: 'Payments and credits' });
        await paidBy.getByRole('link', { name: 'Payment by bank transfer · NEFT 9921' }).waitFor();
        await paidBy.getByRole('link', { name: 'Payment by UPI', exact: true }).waitFor();
        await screenshot(staff, 'billing-day-paid');
      });

      await step('the client sees it paid, and owes nothing', async () => {
        await portal.goto(`${app.url}/clientportal/${clientId}/invoices`);
        const item = portal
          .getByRole('list', { name: 'Invoices' })
          .getByRole('listitem')
          .filter({ hasText: number });
        await item.getByText('Paid').waitFor();
        await portal.goto(`${app.url}/clientportal/${clientId}`);
        await portal.getByRole('heading', { level: 1 }).waitFor();
        await portal.getByText('All paid. Thank you!').waitFor();
        expect(await portal.getByTestId('home-outstanding').textContent()).toBe('₹0.00');
        expect(logs.flatMap((l) => l.errors)).toEqual([]);
      });
    },
    STORY_TIMEOUT,
  );
});
