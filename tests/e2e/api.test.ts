import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
let firm: Awaited<ReturnType<TE2eApp['seedFirm']>>;
/** A tool's endpoint on this machine: what it was sent. */
let receiver: Server;
let receiverUrl: string;
const received: { headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  // The job queue runs (webhook deliveries are jobs), and a loopback receiver is allowed.
  app = await startApp({ JOBS_ENABLED: 'true', JOBS_POLL_MS: '200', WEBHOOKS_ALLOW_PRIVATE: 'true' });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/practice`;
  firm = await app.seedFirm('Mehta & Associates');
  browser = await launchBrowser();
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
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

describe('webhooks', () => {
  it('the owner subscribes an endpoint, sends a test event, sees it delivered and signed, and pauses it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No webhooks yet').waitFor();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Choose at least one event').waitFor();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByLabel('Description').fill('Our task board');
    await page.getByRole('checkbox', { name: 'Task completed' }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.getByLabel('The signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);

    const sub = page.getByRole('region', { name: `Webhook ${receiverUrl}` });
    await sub.getByRole('button', { name: 'Send test event' }).click();
    await sub.getByRole('cell', { name: 'Delivered' }).waitFor({ timeout: 15_000 });
    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(new Webhook(secret).verify(hit?.body ?? '', hit?.headers ?? {})).toMatchObject({
      type: 'webhook.test',
    });
    await screenshot(page, 'webhooks');

    await sub.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Webhook paused').waitFor();
    await sub.getByText('Paused', { exact: true }).waitFor();
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
