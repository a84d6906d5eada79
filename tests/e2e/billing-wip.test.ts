import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_ROLES } from '../../src/domain/permissions';
import { invoiceLines, orgs, roles } from '../../src/server/db/schema';
import { putOnTeam, seedClient } from '../../src/server/test/fixtures';
import { PNG } from '../../src/server/test/tenancy';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot, tempDir } from './support/browser';

let app: TE2eApp;
let browser: Browser;
beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const WEEK = '2026-03-02';

describe('work in progress in the browser', () => {
  it('approved time shows in WIP; the owner records a disbursement, chooses, and makes a draft invoice', async () => {
    const firm = await app.seedFirm('Wip & Co');
    await app.db
      .update(orgs)
      .set({ country: 'IN', currency: 'INR', timeZone: 'Asia/Kolkata', fiscalYearStartMonth: 4 })
      .where(eq(orgs.id, firm.org.id));
    const staffSeed = SEEDED_ROLES.find((r) => r.name === 'Staff');
    if (!staffSeed) throw new Error('no Staff role');
    await app.db
      .update(roles)
      .set({ permissions: [...staffSeed.permissions] })
      .where(eq(roles.id, firm.roles.staff.id));
    const client = await seedClient(app, firm.org.id, { name: 'Mehta Traders' });
    await putOnTeam(app, firm.org.id, client.id, firm.staff.id);
    const owner = app.client(firm.owner.token);
    const staff = app.client(firm.staff.token);
    // Sam logs two entries at his rate, submits the week, and the owner approves it.
    await owner.timesheets.rates.set.mutate({ kind: 'member', refId: firm.staff.id, rate: 150_000 });
    await staff.timesheets.create.mutate({
      date: WEEK,
      minutes: 150,
      clientId: client.id,
      note: 'GST reconciliation',
    });
    await staff.timesheets.create.mutate({
      date: '2026-03-03',
      minutes: 60,
      clientId: client.id,
      note: 'Call with the director',
    });
    await staff.timesheets.submitWeek.mutate({ weekStart: WEEK });
    await owner.timesheets.approve.mutate({ weekStart: WEEK, memberIds: [firm.staff.id] });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Work in progress' })
      .click();
    await page.waitForURL(`${app.url}/billing/wip`);
    const row = page.getByRole('row', { name: /Mehta Traders/ });
    // 3:30 h at ₹1,500 an hour.
    await row.getByText('₹5,250.00').first().waitFor();
    await screenshot(page, 'billing-wip');

    await row.getByRole('link', { name: /Mehta Traders/ }).click();
    await page.waitForURL(`${app.url}/billing/wip/${client.id}`);
    await page.getByRole('heading', { name: 'Mehta Traders', level: 1 }).waitFor();
    const time = page.getByRole('table', { name: 'Time' });
    await time.getByRole('row', { name: /GST reconciliation/ }).waitFor();
    // Names come once in the answer and are put back on each entry: the member shows on the row.
    await time
      .getByRole('row', { name: /GST reconciliation/ })
      .getByRole('cell', { name: 'Sam Staff', exact: true })
      .waitFor();

    // A disbursement with its receipt, uploaded into the client's documents.
    await page.getByRole('button', { name: 'Record disbursement' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record a disbursement' });
    await dialog.getByLabel('Description').fill('ROC filing fee');
    await dialog.getByLabel('Amount').fill('1500.50');
    const dir = tempDir('receipt-');
    const file = path.join(dir, 'challan.png');
    fs.writeFileSync(file, PNG);
    await dialog.locator('input[type="file"]').setInputFiles(file);
    await dialog.getByText(/challan\.png/).waitFor();
    await dialog.getByRole('button', { name: 'Record', exact: true }).click();
    await page.getByText('Recorded ROC filing fee').waitFor();
    const disbursements = page.getByRole('table', { name: 'Disbursements' });
    const disbursement = disbursements.getByRole('row', { name: /ROC filing fee/ });
    await disbursement.getByText('₹1,500.50').waitFor();
    await disbursement.getByRole('button', { name: /Receipt/ }).click();
    await page.getByRole('img', { name: /Preview of ROC filing fee/ }).waitFor();
    await page.keyboard.press('Escape');
    await screenshot(page, 'billing-wip-client');

    // Everything is chosen at first: leave the call out, one line per entry.
    const chosen = page.getByText(/chosen, 3 items/);
    await chosen.waitFor();
    await time.getByRole('checkbox', { name: /1:00 h/ }).click();
    await page.getByText(/chosen, 2 items/).waitFor();
    await page.getByRole('combobox', { name: 'Time on the invoice' }).click();
    await page.getByRole('option', { name: 'A line per entry' }).click();
    await page.getByRole('button', { name: 'Make draft invoice' }).click();
    await page.getByText('Draft invoice made').waitFor();
    await page.waitForURL(new RegExp(`${app.url}/billing/invoices/[0-9a-f-]{36}$`));
    const invoiceId = page.url().split('/').pop() ?? '';
    const lines = await app.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId));
    expect(lines.map((l) => [l.kind, l.quantityMilli, l.rate]).sort()).toEqual([
      ['disbursement', 1000, 150_050],
      ['time', 2500, 150_000],
    ]);

    // What was billed left WIP; the call is still there.
    await page.goto(`${app.url}/billing/wip/${client.id}`);
    await time.getByRole('row', { name: /Call with the director/ }).waitFor();
    expect(await page.getByRole('table', { name: 'Disbursements' }).count()).toBe(0);
    await page.getByText('No unbilled disbursements.').waitFor();
    expect(console.errors).toEqual([]);
  });
});
