import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInWithCookies, startApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: Awaited<ReturnType<typeof startApp>>;
let browser: Browser;
let firm: Awaited<ReturnType<typeof app.seedFirm>>;

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

async function signedInPage(options: Parameters<typeof newPage>[1] = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signInWithCookies(context, app, firm.owner);
  return { context, ...(await newPage(context, options)) };
}

describe('application shell', () => {
  it('greets a signed-in member on the home page, with no console errors', async () => {
    const { page, console, context } = await signedInPage();
    await page.goto(`${app.url}/`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toMatch(/^Good (Morning|Afternoon|Evening), Olivia$/);
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).count())
      .toBe(1);
    await screenshot(page, 'shell-home');
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('shows 404 "Page not found: {path}" for an unmatched URL', async () => {
    const context = await browser.newContext();
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/no/such/page?tab=1`);
    await page.getByText('Page not found: /no/such/page', { exact: true }).waitFor();
    await expect.poll(() => page.getByText('404', { exact: true }).isVisible()).toBe(true);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('sends a visitor without the login cookie to the staff login', async () => {
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.waitForURL(`${app.url}/auth/login`);
    await context.close();
  });

  it('turns a 401 into a toast and the staff login, and the toast lasts 4000 ms', async () => {
    const context = await browser.newContext();
    // A cookie the guard accepts but whose token the server refuses.
    await signInWithCookies(context, app, firm.owner, { accessToken: 'not-a-token', idToken: 'not-a-token' });
    // The page's own clock times the toast from the moment it enters the DOM to the moment it leaves,
    // so how quickly the test notices either (a busy machine) does not change the measure.
    await context.addInitScript(() => {
      const times = { added: 0, removed: 0 };
      Object.assign(window, { __toastTimes: times });
      // The toast itself, or the list that holds it (added and removed with it).
      const isToast = (node: Node) =>
        node instanceof Element &&
        (node.matches('[data-sonner-toast]') || node.querySelector('[data-sonner-toast]') !== null);
      new MutationObserver((records) => {
        for (const record of records) {
          if (!times.added && [...record.addedNodes].some(isToast)) times.added = performance.now();
          if ([...record.removedNodes].some(isToast)) times.removed = performance.now();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const { page } = await newPage(context, { allowErrors: [/401/] });
    await page.goto(`${app.url}/`);
    const toast = page.getByText('Please sign in to continue');
    await toast.waitFor();
    await page.waitForURL(`${app.url}/auth/login`);
    await toast.waitFor({ state: 'detached', timeout: 10_000 });
    const { added, removed } = await page.evaluate(
      () => (window as unknown as { __toastTimes: { added: number; removed: number } }).__toastTimes,
    );
    // Shown for its 4000 ms (sonner then animates it out), and gone soon after.
    expect(removed - added).toBeGreaterThanOrEqual(4000);
    expect(removed - added).toBeLessThan(6000);
    await context.close();
  });

  it('fetches the toaster with the first key or tap (or toast), not with the page', async () => {
    const { page, console, context } = await signedInPage();
    const toasterRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/toaster-view-[^/]+\.js$/.test(request.url())) toasterRequests.push(request.url());
    });
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(toasterRequests).toEqual([]);
    // The first key fetches it, so the toast of what the key starts is drawn at once.
    await page.keyboard.press('Shift');
    await expect.poll(() => toasterRequests.length).toBe(1);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('fetches the toaster when the tab is left, so a toast raised after the network went needs none', async () => {
    const { page, console, context } = await signedInPage();
    const toasterRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/toaster-view-[^/]+\.js$/.test(request.url())) toasterRequests.push(request.url());
    });
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(toasterRequests).toEqual([]);
    // The phone is put away (the tab hidden): the toaster comes now, while the network is there.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(() => toasterRequests.length).toBe(1);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('shows the 500 screen for a fatal error; its button signs out and goes to the login', async () => {
    const { page, context } = await signedInPage({ allowErrors: [/500/] });
    await page.route('**/api/trpc/profile.me**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify([
          {
            error: {
              json: {
                message: 'Database is down',
                code: -32603,
                data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 },
              },
            },
          },
        ]),
      }),
    );
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { name: 'Server Error' }).waitFor({ timeout: 15_000 });
    await expect
      .poll(() => page.getByText('Whoops, something went wrong on our servers.').isVisible())
      .toBe(true);
    await expect.poll(() => page.getByText('500', { exact: true }).isVisible()).toBe(true);
    await screenshot(page, 'shell-500');
    const logout = page.waitForRequest(
      (req) => req.url().includes('/api/trpc/auth.logout') && req.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Go to Dashboard' }).click();
    await logout;
    await page.waitForURL(`${app.url}/auth/login`);
    // The server cleared the identity cookies, so the guard no longer lets the browser in.
    const cookies = await context.cookies(app.url);
    expect(cookies.filter((c) => c.name.startsWith('CognitoIdentityServiceProvider.'))).toEqual([]);
    await context.close();
  });

  it('reloads once when a code chunk fails to load, and not again within 10 seconds', async () => {
    const { page, context } = await signedInPage({ allowErrors: [/Failed to (fetch|load)/, /404/] });
    let loads = 0;
    page.on('load', () => {
      loads++;
    });
    // Every lazily loaded chunk is gone, as after a deployment; what index.html names still loads.
    const html = fs.readFileSync(path.resolve('dist/web/index.html'), 'utf8');
    const eager = new Set([...html.matchAll(/\/assets\/[^"']+\.js/g)].map((m) => m[0]));
    await page.route(/\/assets\/[^/]+\.js$/, (route) =>
      eager.has(new URL(route.request().url()).pathname)
        ? route.continue()
        : route.fulfill({ status: 404, body: 'gone' }),
    );
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { name: 'Server Error' }).waitFor({ timeout: 15_000 });
    expect(loads).toBe(2);
    await context.close();
  });

  it('scrolls to the top of the next page after a route change', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 320 } });
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/auth/register`);
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}/auth/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
