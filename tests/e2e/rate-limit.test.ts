import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

// A low per-instance limit: page loads never hit it, calls do, and the screen says how long to wait.

const LIMIT = 12;
let app: TE2eApp;
let browser: Browser;
beforeAll(async () => {
  app = await startApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the rate limit in the browser', () => {
  it('never refuses the page or its files, and a member past the limit reads the wait in a toast', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page } = await newPage(context);
    const refusedFiles: string[] = [];
    const refusedCalls: string[] = [];
    page.on('response', (res) => {
      if (res.status() !== 429) return;
      (new URL(res.url()).pathname.startsWith('/api/trpc/') ? refusedCalls : refusedFiles).push(res.url());
    });

    // Cold loads of the login page, many more than the limit: every file is served.
    for (let i = 0; i < LIMIT + 3; i++) {
      await page.goto(`${app.url}/auth/login`);
      await page
        .getByRole('button', { name: /sign in/i })
        .first()
        .waitFor();
    }
    expect(refusedFiles).toEqual([]);

    // Signed in, the member's own calls count: reload until the server refuses one.
    const firm = await app.seedFirm('Rao & Co');
    await signInWithCookies(context, app, firm.owner);
    const toast = page.getByText(/^Too many requests — try again in \d+ s$/);
    for (let i = 0; i < 2 * LIMIT && refusedCalls.length === 0; i++) {
      await page.goto(`${app.url}/`);
      await page.waitForLoadState('networkidle');
    }
    expect(refusedCalls.length).toBeGreaterThan(0);
    await expect.poll(() => toast.isVisible()).toBe(true);
    await screenshot(page, 'rate-limit-toast');
    // Not the 500 screen, and no page file was ever refused.
    expect(await page.getByText('Server Error').isVisible()).toBe(false);
    expect(refusedFiles).toEqual([]);
    await context.close();
  });
});
