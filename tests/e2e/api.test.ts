import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
let firm: Awaited<ReturnType<TE2eApp['seedFirm']>>;

beforeAll(async () => {
  app = await startApp();
  firm = await app.seedFirm('Mehta & Associates');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('API keys', () => {
  it('the owner makes a key, copies it once, calls the API with it and revokes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByText('No API keys yet').waitFor();

    // Nothing chosen: the schema's own messages beside the fields.
    await page.getByRole('button', { name: 'Make key' }).click();
    await page.getByText('Give the key a name').waitFor();
    await page.getByText('Choose a role for the key').waitFor();

    await page.getByLabel('Name').fill('Zapier');
    await page.getByLabel('Role').click();
    await page.getByRole('option', { name: 'Owner' }).click();
    await page.getByRole('button', { name: 'Make key' }).click();
    const secretBox = page.getByLabel('The new key');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^pk_live_/);
    const row = page.getByRole('row', { name: /Zapier/ });
    await row.getByText('Active').waitFor();
    await screenshot(page, 'api-keys');

    // The key works from outside the browser, as curl would use it.
    const call = () => fetch(`${app.url}/api/v1/clients`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await call()).status).toBe(200);

    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => secretBox.count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke Zapier' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Key revoked').waitFor();
    await row.getByText('Revoked').waitFor();
    expect((await call()).status).toBe(401);
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
