import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
let firm: Awaited<ReturnType<TE2eApp['seedFirm']>>;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
// A firm of its own for each attempt: CI retries a failed test once, and the retry starts from a
// clean firm, not from what the failed attempt left in it.
beforeEach(async () => {
  firm = await app.seedFirm('Mehta & Associates');
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('service catalogue, client groups and engagements', () => {
  it('creates a service with a due-date rule, groups a client, and attaches the service to it', async () => {
    // The clients feature owns the client form; here the client is seeded straight into the database.
    const [client] = await app.db
      .insert(clients)
      .values({ orgId: firm.org.id, name: 'Anil Mehta', code: 'MEHTA-01', email: 'anil@example.test' })
      .returning();
    if (!client) throw new Error('client not seeded');

    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await signInWithCookies(context, app, firm.owner);
    // The taken code below answers 409, which the browser logs.
    const { page, console } = await newPage(context, { allowErrors: [/status of 409/] });

    // The catalogue, reached from the admin index.
    await page.goto(`${app.url}/admin`);
    await page
      .getByRole('main')
      .getByRole('link', { name: /^Services/ })
      .click();
    await page.waitForURL(`${app.url}/admin/services`);
    await page.getByText('No services yet').waitFor();
    await page.getByRole('button', { name: 'New service' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'New service' });
    await drawer.getByLabel('Name').fill('GST return');
    await drawer.getByLabel(/^Code/).fill('gst-m');
    await drawer.getByLabel('Category').fill('Indirect tax');
    await drawer.getByRole('switch', { name: /falls due on a set day/ }).click();
    await drawer.getByLabel('Day of the month').fill('20');
    await drawer.getByLabel('Months after the period').fill('1');
    await expect
      .poll(() => drawer.getByTestId('due-date-preview').textContent())
      .toBe('Due: 20th of the month after the period');
    await drawer.getByLabel('Months after the period').fill('2');
    await expect
      .poll(() => drawer.getByTestId('due-date-preview').textContent())
      .toBe('Due: 20th of the 2nd month after the period');
    await drawer.getByLabel('Months after the period').fill('1');
    // A bad fee is refused in the form, with a message saying what to type.
    await drawer.getByLabel('Default fee').fill('-15');
    await drawer.getByRole('button', { name: 'Create service' }).click();
    await drawer.getByText(/Enter an amount like 1500/).waitFor();
    await screenshot(page, 'catalogue-service-drawer');
    await drawer.getByLabel('Default fee').fill('1500');
    await drawer.getByRole('button', { name: 'Create service' }).click();
    await page.getByText('Added the service GST return').waitFor();
    const services = page.getByRole('table', { name: 'Services' });
    const row = services.getByRole('row', { name: /GST return/ });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('GST-M');
    await expect.poll(() => row.textContent()).toContain('20th of the month after the period');
    await expect.poll(() => row.textContent()).toContain('1,500.00');
    await screenshot(page, 'catalogue-services');

    // A code another service has is refused by the server, and said beside the code.
    await page.getByRole('button', { name: 'New service' }).first().click();
    const second = page.getByRole('dialog', { name: 'New service' });
    await second.getByLabel('Name').fill('GST annual return');
    await second.getByLabel(/^Code/).fill('GST-M');
    await second.getByRole('button', { name: 'Create service' }).click();
    const code = second.getByRole('textbox', { name: /^Code/ });
    await second.getByText('Another service already uses the code GST-M').waitFor();
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => code.evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshot(page, 'catalogue-service-code-taken');
    // Leaving it asks first: what was typed would be lost.
    await second.getByRole('button', { name: 'Cancel' }).click();
    const discard = page.getByRole('alertdialog', { name: 'Discard changes?' });
    await discard.waitFor();
    await screenshot(page, 'catalogue-service-discard');
    await discard.getByRole('button', { name: 'Discard' }).click();
    await second.waitFor({ state: 'detached' });

    // A group, and the seeded client added to it through the picker.
    await page.goto(`${app.url}/admin/clientgroups`);
    await page.getByText('No client groups yet').waitFor();
    await page.getByRole('button', { name: 'New group' }).first().click();
    const groupDialog = page.getByRole('dialog', { name: 'New client group' });
    await groupDialog.getByLabel('Name').fill('Mehta family');
    await groupDialog.getByRole('button', { name: 'Create group' }).click();
    await page.waitForURL(/\/admin\/clientgroups\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Mehta family' }).waitFor();
    await page.getByText('No clients in this group yet').waitFor();
    await page.getByRole('button', { name: 'Add clients' }).first().click();
    const picker = page.getByRole('dialog', { name: 'Add clients to Mehta family' });
    await picker.getByRole('searchbox', { name: 'Search clients' }).fill('anil');
    await picker.getByRole('checkbox', { name: 'Anil Mehta' }).click();
    await screenshot(page, 'catalogue-group-picker');
    await picker.getByRole('button', { name: 'Add 1 client' }).click();
    await page.getByText('Added 1 client to Mehta family').waitFor();
    await page
      .getByRole('table', { name: 'Clients in the group' })
      .getByRole('row', { name: /Anil Mehta/ })
      .waitFor();
    await screenshot(page, 'catalogue-group');

    // The client's Services tab: the fee defaults to the service's.
    await page.goto(`${app.url}/clients/${client.id}/services`);
    await page.getByText('No services yet').waitFor();
    await page.getByRole('button', { name: 'Add service' }).first().click();
    const engagement = page.getByRole('dialog', { name: 'Add a service' });
    await engagement.getByRole('combobox', { name: 'Service' }).click();
    await page.getByRole('option', { name: /GST return/ }).click();
    await expect.poll(() => engagement.getByLabel(/^Fee/).inputValue()).toBe('1500.00');
    await engagement.getByRole('checkbox', { name: 'Olivia Owner' }).click();
    await screenshot(page, 'catalogue-engagement-dialog');
    await engagement.getByRole('button', { name: 'Add service' }).click();
    await page.getByText('Service added').waitFor();
    const tab = page.getByRole('table', { name: 'Services of the client' });
    const engaged = tab.getByRole('row', { name: /GST return/ });
    await engaged.waitFor();
    await expect.poll(() => engaged.textContent()).toContain('1,500.00');
    await expect.poll(() => engaged.textContent()).toContain('Olivia Owner');
    await expect.poll(() => engaged.textContent()).toContain('Monthly');
    await screenshot(page, 'catalogue-client-services');

    // The service's clients list shows the engagement.
    await page.goto(`${app.url}/admin/services`);
    await services
      .getByRole('row', { name: /GST return/ })
      .getByRole('link', { name: '1' })
      .click();
    await page.waitForURL(/\/admin\/services\/[0-9a-f-]{36}\/clients$/);
    const takers = page.getByRole('table', { name: 'Clients of the service' });
    await takers.getByRole('row', { name: /Anil Mehta/ }).waitFor();
    await expect
      .poll(() => takers.getByRole('row', { name: /Anil Mehta/ }).textContent())
      .toContain('Olivia Owner');
    await screenshot(page, 'catalogue-service-clients');

    // Ending the engagement asks first.
    await page.goto(`${app.url}/clients/${client.id}/services`);
    await tab.getByRole('button', { name: 'Actions for GST return' }).click();
    await page.getByRole('menuitem', { name: 'End' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'End engagement' }).click();
    await page.getByText('Engagement ended').waitFor();
    await expect
      .poll(() => tab.getByRole('row', { name: /GST return/ }).textContent())
      .not.toContain('Ongoing');

    expect(console.errors).toEqual([]);
    await context.close();
  });
});
