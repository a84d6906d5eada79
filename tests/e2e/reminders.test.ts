import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
beforeAll(async () => {
  // The job queue runs in this server, as it does in production: the reminder goes out by itself.
  app = await startApp({ JOBS_ENABLED: 'true', JOBS_POLL_MS: '200' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));

describe('reminders in the browser', () => {
  it('creates a client reminder to send now, sees it delivered to the outbox, sent, with its history', async () => {
    const firm = await app.seedFirm('Kapoor Associates');
    await app.db.insert(clients).values([
      { orgId: firm.org.id, code: 'M-1', name: 'Rakesh Mehta', email: 'rakesh@mehta.test' },
      { orgId: firm.org.id, code: 'S-1', name: 'Sharma Traders', email: 'accounts@sharma.test' },
    ]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reminders' }).click();
    await page.waitForURL(`${app.url}/reminders/client`);
    await page.getByText('No client reminders yet').waitFor();
    await screenshot(page, 'reminders-empty');

    await page.getByRole('button', { name: 'New reminder' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New client reminder' });
    // Without a client the schema's message shows and nothing is sent.
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Documents pending for the March return');
    await dialog.getByRole('button', { name: 'Schedule reminder' }).click();
    await dialog.getByText('Choose the client').waitFor();
    await dialog.getByLabel('Search clients').fill('mehta');
    await dialog.getByRole('combobox', { name: 'Client' }).click();
    await page.getByRole('option', { name: 'Rakesh Mehta' }).click();
    await dialog
      .getByRole('textbox', { name: 'Message' })
      .fill('Please upload your bank statements for March.');
    await screenshot(page, 'reminders-new');
    // The send time defaults to now: it goes out at once.
    await dialog.getByRole('button', { name: 'Schedule reminder' }).click();
    await page.getByText('Reminder scheduled').waitFor();

    const mail = await app.lastMail('rakesh@mehta.test');
    expect(mail.subject).toBe('Documents pending for the March return');
    expect(mail.text).toContain('Please upload your bank statements for March.');
    expect(mail.text).toContain('Kapoor Associates');

    const table = page.getByRole('table', { name: 'Client reminders' });
    const row = table.getByRole('row', { name: /Documents pending for the March return/ });
    // The list follows a due send by itself until the worker's outcome shows.
    await expect
      .poll(async () => (await row.textContent()) ?? '', { timeout: 20_000 })
      .toMatch(/Sent.*Rakesh Mehta.*Delivered/);
    await screenshot(page, 'reminders-sent');

    await row.click();
    const drawer = page.getByRole('dialog', { name: 'Documents pending for the March return' });
    await drawer.getByTestId('reminder-status').getByText('Sent').waitFor();
    const history = drawer.getByRole('region', { name: 'History' });
    await history.getByText('rakesh@mehta.test').waitFor();
    await expect.poll(() => history.getByText('Delivered').count()).toBe(1);
    await expect.poll(() => history.getByText('Email · attempt 1').count()).toBe(1);
    await screenshot(page, 'reminders-history');

    // The tabs lead to the other types.
    await page.keyboard.press('Escape');
    await page
      .getByRole('navigation', { name: 'Reminder types' })
      .getByRole('link', { name: 'Expiry' })
      .click();
    await page.waitForURL(/\/reminders\/expiry/);
    await page.getByText('No expiry reminders yet').waitFor();
    // An expiry reminder asks for the item, its expiry and how early to remind.
    await page.getByRole('button', { name: 'New reminder' }).first().click();
    const expiry = page.getByRole('dialog', { name: 'New expiry reminder' });
    await expiry.getByRole('textbox', { name: 'Title' }).fill('DSC renewal');
    await expiry.getByRole('button', { name: 'Schedule reminder' }).click();
    await expiry.getByText('Enter what expires (a certificate, a licence…)').waitFor();
    await expiry.getByText('Enter the expiry date').waitFor();
    await expect.poll(() => expiry.getByRole('spinbutton', { name: 'Days before' }).inputValue()).toBe('30');
    await expiry.getByText(/Olivia Owner/).waitFor();
    await screenshot(page, 'reminders-expiry-form');
    // What was typed is not thrown away unasked: Escape asks first, and "Keep editing" keeps it.
    await page.keyboard.press('Escape');
    const discard = page.getByRole('alertdialog', { name: 'Discard changes?' });
    await discard.getByRole('button', { name: 'Keep editing' }).click();
    await discard.waitFor({ state: 'detached' });
    await expect.poll(() => expiry.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('DSC renewal');
    await expiry.getByRole('button', { name: 'Cancel' }).click();
    await discard.getByRole('button', { name: 'Discard' }).click();
    await expiry.waitFor({ state: 'detached' });
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });

  it('shows the route-validity 404 for an unknown type', async () => {
    const firm = await app.seedFirm('Bogus Type');
    const context = await browser.newContext();
    await signInWithCookies(context, app, firm.owner);
    const { page } = await newPage(context);
    await page.goto(`${app.url}/reminders/bogus`);
    await page.getByText('Page Not Found: /reminders/bogus', { exact: true }).waitFor();
    await screenshot(page, 'reminders-404');
    await context.close();
  });
});
