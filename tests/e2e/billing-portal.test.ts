import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingSettings, clientTeam, invoices, orgs } from '../../src/server/db/schema';
import { seedInvoice, seedReceipt } from '../../src/server/test/billing';
import { seedPortalUser } from '../../src/server/test/portal';
import { seedPortalClient } from '../../src/server/test/portal-world';
import { signInToPortal, signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

// Billing where the client and the partner read it: the portal's invoices (owed first, one opened,
// its PDF, the UPI QR on a phone) and the billing summary report.

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

/** An Indian firm that takes UPI, with a client that owes on two invoices (one overdue) and paid a third. */
async function billedClient() {
  const firm = await app.seedFirm('Sharma & Associates');
  await app.db
    .update(orgs)
    .set({ country: 'IN', currency: 'INR', timeZone: 'Asia/Kolkata', fiscalYearStartMonth: 4 })
    .where(eq(orgs.id, firm.org.id));
  await app.db.insert(billingSettings).values({
    orgId: firm.org.id,
    upiVpa: 'sharma.associates@okhdfcbank',
    upiPayee: 'Sharma & Associates',
    terms: 'Payable within 15 days.',
  });
  const own = await seedPortalClient(app, firm, 'Mehta Traders');
  await app.db.insert(clientTeam).values({
    orgId: firm.org.id,
    clientId: own.client.id,
    memberId: firm.owner.id,
    responsibility: 'Partner in charge',
  });
  const o = firm.org.id;
  const clientId = own.client.id;
  const paid = await seedInvoice(app, o, {
    clientId,
    issueDate: '2026-06-01',
    lines: [{ description: 'Bookkeeping, May', rate: 1_500_000 }],
  });
  await seedReceipt(app, o, {
    clientId,
    receivedOn: '2026-06-10',
    amount: 1_500_000,
    allocate: [{ invoiceId: paid.id, amount: 1_500_000 }],
  });
  const overdue = await seedInvoice(app, o, {
    clientId,
    issueDate: '2026-08-01',
    lines: [
      { description: 'GST returns, July', rate: 450_000 },
      { description: 'Reply to a notice under section 143(1)', quantityMilli: 2500, rate: 200_000 },
    ],
  });
  await app.db.update(invoices).set({ dueDate: '2026-08-16' }).where(eq(invoices.id, overdue.id));
  await app.db.update(invoices).set({ dueDate: '2099-06-01' }).where(eq(invoices.id, own.invoice.id));
  const portal = await seedPortalUser(app, { orgId: o, clientIds: [clientId], name: 'Priya Mehta' });
  return { firm, own, overdue, paid, portal };
}

describe('billing in the portal', () => {
  it('a client on a phone sees what is owed, overdue first, opens an invoice; at 1280 px too', async () => {
    const { own, overdue, portal } = await billedClient();
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await signInToPortal(context, app, portal.token);
    const { page, console } = await newPage(context);

    await page.goto(`${app.url}/clientportal/${own.client.id}`);
    const owed = page.getByTestId('home-outstanding');
    await owed.waitFor();
    // 2,500.00 + 4,500.00 + 5,000.00 owed; the August one is overdue.
    expect(await owed.textContent()).toBe('₹12,000.00');
    await page.getByText('1 invoice overdue').waitFor();
    await screenshot(page, 'portal-home-billing');

    await page
      .getByRole('navigation', { name: 'Portal sections' })
      .getByRole('link', { name: 'Invoices' })
      .click();
    await page.waitForURL(`${app.url}/clientportal/${own.client.id}/invoices`);
    const list = page.getByRole('list', { name: 'Invoices' });
    await list.waitFor();
    const items = await list.getByRole('listitem').allTextContents();
    expect(items).toHaveLength(3);
    expect(items[0]).toContain(overdue.number);
    expect(items[0]).toContain('Overdue');
    expect(items[2]).toContain('Paid');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'portal-invoices-phone');

    await list.getByRole('link', { name: `Invoice ${overdue.number}` }).click();
    const drawer = page.getByRole('dialog', { name: `Invoice ${overdue.number}` });
    await drawer.getByText('Reply to a notice under section 143(1)').waitFor();
    await drawer.getByText('₹9,500.00').first().waitFor();
    // Pay by UPI: the QR code for the balance and, on a phone, the link that opens the UPI app.
    const qr = drawer.getByTestId('upi-qr');
    await qr.scrollIntoViewIfNeeded();
    expect(await qr.isVisible()).toBe(true);
    expect(
      await drawer
        .getByRole('img', { name: `UPI QR code to pay ₹9,500.00 for invoice ${overdue.number}` })
        .count(),
    ).toBe(1);
    const pay = drawer.getByRole('link', { name: 'Pay with UPI app' });
    expect(await pay.isVisible()).toBe(true);
    expect(await pay.getAttribute('href')).toBe(
      `upi://pay?pa=sharma.associates@okhdfcbank&pn=Sharma%20%26%20Associates&am=9500.00&cu=INR&tn=Invoice%20${encodeURIComponent(overdue.number ?? '')}&tr=${encodeURIComponent(overdue.number ?? '')}`,
    );
    await page.screenshot({ path: 'test-results/screens/portal-invoice-upi-phone.png' });
    await screenshot(page, 'portal-invoice-phone');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    const wide = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInToPortal(wide, app, portal.token);
    const { page: big, console: bigConsole } = await newPage(wide);
    await big.goto(`${app.url}/clientportal/${own.client.id}/invoices`);
    await big.getByRole('list', { name: 'Invoices' }).waitFor();
    await screenshot(big, 'portal-invoices-wide');
    // On a computer the QR is there to scan with the phone; the app link is not.
    await big.getByRole('link', { name: `Invoice ${overdue.number}` }).click();
    const wideDrawer = big.getByRole('dialog', { name: `Invoice ${overdue.number}` });
    await wideDrawer.getByTestId('upi-qr').waitFor();
    expect(await wideDrawer.getByRole('link', { name: 'Pay with UPI app' }).isVisible()).toBe(false);
    await screenshot(big, 'portal-invoice-wide');
    await page.close();
    await big.close();
    expect([...console.errors, ...bigConsole.errors]).toEqual([]);
  });
});

describe('the billing summary report', () => {
  it('a partner reads billed, collected and owed, by month and by partner, at 1280 px and on a phone', async () => {
    const { firm } = await billedClient();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/reports`);
    await page.getByRole('link', { name: 'Billing summary' }).click();
    await page.waitForURL(/\/reports\/billing\/summary/);
    await page.goto(`${app.url}/reports/billing/summary?from=2026-04-01&to=2026-09-30`);
    // June's 15,000.00 and August's 9,500.00; November's is after the period.
    await page.locator('dl[aria-label="Totals"]').getByText('₹24,500.00').waitFor();
    await page.getByRole('row', { name: /Mehta Traders/ }).waitFor();
    await screenshot(page, 'reports-billing-client');
    await page.getByRole('tab', { name: 'By partner' }).click();
    await page.waitForURL(/by=partner/);
    await page.getByRole('row', { name: /Olivia Owner/ }).waitFor();
    await page.getByRole('tab', { name: 'By month' }).click();
    await page
      .getByRole('table', { name: 'Billing by month' })
      .getByRole('row', { name: /August 2026/ })
      .waitFor();
    await screenshot(page, 'reports-billing-month');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

    const phone = await browser.newContext({ viewport: { width: 375, height: 740 } });
    await signInWithCookies(phone, app, firm.owner);
    const { page: small, console: smallConsole } = await newPage(phone);
    await small.goto(`${app.url}/reports/billing/summary?from=2026-04-01&to=2026-09-30`);
    const row = small.getByRole('row', { name: /Mehta Traders/ });
    await row.waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The shell scrolls inside itself: a full-page shot would cut at the first screen.
    await small.getByRole('figure').scrollIntoViewIfNeeded();
    await small.screenshot({ path: 'test-results/screens/reports-billing-phone-chart.png' });
    await row.scrollIntoViewIfNeeded();
    await small.screenshot({ path: 'test-results/screens/reports-billing-phone-table.png' });
    await page.close();
    await small.close();
    expect([...console.errors, ...smallConsole.errors]).toEqual([]);
  });
});
