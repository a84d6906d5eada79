import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

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

const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));

describe('clients in the browser', () => {
  it('creates a client through the form, finds it by search, opens it, assigns the team, archives and restores', async () => {
    const firm = await app.seedFirm('Iyer & Co');
    const api = app.client(firm.owner.token);
    await api.clients.create.mutate({ code: 'A-100', name: 'Anand Textiles', type: 'company' });
    await api.clients.create.mutate({ code: 'B-200', name: 'Bhatia Family Trust', type: 'trust' });
    await api.clients.create.mutate({ code: 'C000041', name: 'Chopra Exports', type: 'company' });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' }).click();
    await page.waitForURL(`${app.url}/clients`);
    const table = page.getByRole('table', { name: 'Clients' });
    await table.getByRole('row', { name: /Anand Textiles/ }).waitFor();
    await screenshot(page, 'clients-list');

    // Bulk: select both rows and mark them inactive in one action.
    await table.getByRole('checkbox', { name: 'Select Anand Textiles' }).click();
    await table.getByRole('checkbox', { name: 'Select Bhatia Family Trust' }).click();
    await page.getByRole('button', { name: 'Change status' }).click();
    await screenshot(page, 'clients-bulk');
    await page.getByRole('menuitem', { name: 'Inactive' }).click();
    await page.getByText('Updated 2 clients').waitFor();
    await expect.poll(() => table.getByText('Inactive').count()).toBe(2);

    // New client: the code is proposed (the next after the firm's highest, as wide), and stays
    // editable; Olivia Owner goes on the team at once.
    await page.getByRole('button', { name: 'New client' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'New client' });
    const code = drawer.getByRole('textbox', { name: 'Code', exact: true });
    await expect.poll(() => code.inputValue()).toBe('C000042');
    await code.fill('M-001');
    await drawer.getByRole('list', { name: 'Team' }).getByRole('checkbox', { name: 'Olivia Owner' }).click();
    // A bad email first shows the schema's message.
    await drawer.getByRole('textbox', { name: 'Name', exact: true }).fill('Rakesh Mehta');
    await drawer.getByRole('textbox', { name: 'Email', exact: true }).fill('rakesh-at-mehta');
    await drawer.getByRole('textbox', { name: 'Latitude', exact: true }).fill('19.076');
    await drawer.getByRole('textbox', { name: 'Longitude', exact: true }).fill('72.8777');
    await drawer.getByRole('button', { name: 'Create client' }).click();
    await drawer.getByText('Enter a valid email address').waitFor();
    await screenshot(page, 'clients-new-invalid');
    await drawer.getByRole('textbox', { name: 'Email', exact: true }).fill('rakesh@mehta.test');
    await drawer.getByRole('button', { name: 'Create client' }).click();
    // Created: the client's page opens.
    await page.waitForURL(/\/clients\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: /Rakesh Mehta/ }).waitFor();

    // Back to the list: a search with a typo finds it.
    await page.goto(`${app.url}/clients`);
    await page.getByLabel('Search clients').fill('Mehtta');
    await page.waitForURL(/search=Mehtta/);
    await table.getByRole('row', { name: /Rakesh Mehta/ }).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await screenshot(page, 'clients-search');
    await table.getByRole('row', { name: /Rakesh Mehta/ }).click();
    await page.waitForURL(/\/clients\/[0-9a-f-]{36}$/);
    const clientUrl = page.url();

    // The maps link opens the maps service in a new tab.
    const maps = page.getByRole('link', { name: /Open in maps/ });
    await expect
      .poll(() => maps.getAttribute('href'))
      .toBe('https://www.google.com/maps/search/?api=1&query=19.076%2C72.8777');
    await expect.poll(() => maps.getAttribute('target')).toBe('_blank');
    await expect.poll(() => maps.getAttribute('rel')).toContain('noopener');
    await screenshot(page, 'clients-profile');

    // Team tab: assign Sam Staff as Preparer.
    await page
      .getByRole('navigation', { name: 'Client sections' })
      .getByRole('link', { name: /Team/ })
      .click();
    await page.waitForURL(`${clientUrl}/team`);
    await page.getByRole('combobox', { name: 'Member' }).click();
    await page.getByRole('option', { name: 'Sam Staff' }).click();
    await page.getByRole('combobox', { name: 'Responsibility', exact: true }).click();
    await page.getByRole('option', { name: 'Preparer' }).click();
    await page.getByRole('button', { name: 'Add to team' }).click();
    const teamList = page.getByRole('list', { name: 'Team members' });
    await teamList.getByRole('paragraph').filter({ hasText: 'Sam Staff' }).waitFor();
    await teamList.getByRole('paragraph').filter({ hasText: 'Olivia Owner' }).waitFor();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Responsibility of Sam Staff' }).textContent())
      .toContain('Preparer');
    await screenshot(page, 'clients-team');

    // Archive (confirmed), hidden from the list, then restore.
    await page
      .getByRole('navigation', { name: 'Client sections' })
      .getByRole('link', { name: 'Profile' })
      .click();
    await page.waitForURL(clientUrl);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Archive' }).click();
    await page.getByText('Client archived').waitFor();
    await page.getByRole('heading', { level: 1 }).getByText('Archived').waitFor();
    await page.goto(`${app.url}/clients?search=Mehta`);
    await table.getByText('No clients match').waitFor();
    await page.goto(clientUrl);
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Client restored').waitFor();
    await page.getByRole('button', { name: 'Archive' }).waitFor();
    await page.goto(`${app.url}/clients?search=Mehta`);
    await table.getByRole('row', { name: /Rakesh Mehta/ }).waitFor();

    // A made-up id is the "not found" panel inside the shell (errors.test.ts has the rest).
    await page.goto(`${app.url}/clients/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'Client not found' }).waitFor();
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });
});
