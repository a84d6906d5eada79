import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/server/test/free-port';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage } from './support/browser';
import { startThirdParty, type TRecorded } from './support/third-party';

// The app runs twice: once with the production host set to the test's own host, once with another.
// Loopback stand-ins play the analytics and chat hosts and record everything that reaches them.

type TStub = Awaited<ReturnType<typeof startThirdParty>>;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** PostHog batches events; each recorded request may carry one event or a list. */
type TEvent = { event: string; properties: Record<string, unknown>; $set?: Record<string, unknown> };
function events(requests: TRecorded[]): TEvent[] {
  return requests
    .filter((r) => r.method === 'POST' && /^\/(e|i\/v0\/e|batch)\//.test(r.path))
    .flatMap((r) => {
      const body = r.body as unknown;
      const list = Array.isArray(body) ? body : ((body as { batch?: unknown[] })?.batch ?? [body]);
      return list as TEvent[];
    });
}

/**
 * What PostHog stored in the page: init saves its ids at once (persistence localStorage+cookie), so
 * none means it never started, and has nothing queued to send later.
 */
async function posthogState(page: Page) {
  const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('ph_')));
  const cookies = (await page.context().cookies()).filter((c) => c.name.startsWith('ph_')).map((c) => c.name);
  return [...keys, ...cookies];
}

async function browserFor(app: TE2eApp): Promise<BrowserContext> {
  // A person's browser: PostHog drops events from browsers that look automated (HeadlessChrome,
  // navigator.webdriver).
  const context = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  });
  await context.addInitScript(() => Object.defineProperty(navigator, 'webdriver', { get: () => false }));
  // The tag manager's real host is not reachable here; its script is answered locally.
  await context.route('https://www.googletagmanager.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: '/* gtm */' }),
  );
  void app;
  return context;
}

describe('on the production host', () => {
  let analytics: TStub;
  let chat: TStub;
  let app: TE2eApp;
  beforeAll(async () => {
    analytics = await startThirdParty();
    chat = await startThirdParty();
    const port = await freePort();
    app = await startApp(
      {
        PRODUCTION_HOST: `127.0.0.1:${port}`,
        POSTHOG_KEY: 'phc_test',
        POSTHOG_HOST: analytics.url,
        GTM_ID: 'GTM-TEST1',
        CHAT_BASE_URL: chat.url,
        CHAT_WEBSITE_TOKEN: 'website-token',
      },
      { port },
    );
  });
  afterAll(async () => {
    await app?.close();
    await analytics?.close();
    await chat?.close();
  });

  it('sends a page view per route change with the full path, and identifies the member once', async () => {
    const firm = await app.seedFirm('Analytics & Co');
    const context = await browserFor(app);
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/?tab=today`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await posthogState(page)).toEqual(expect.arrayContaining([expect.stringMatching(/^ph_phc_test/)]));
    await expect.poll(() => page.locator('script[data-tag-manager="GTM-TEST1"]').count()).toBe(1);

    // Sign out (a full page load to the login), then a route change inside the app.
    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/auth/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${app.url}/auth/forgotpassword`);

    await expect
      .poll(
        () =>
          events(analytics.requests)
            .filter((e) => e.event === '$pageview')
            .map((e) => e.properties.path),
        {
          timeout: 20_000,
        },
      )
      .toEqual(['/?tab=today', '/auth/login', '/auth/forgotpassword']);
    const identifies = events(analytics.requests).filter((e) => e.event === '$identify');
    expect(identifies).toHaveLength(1);
    expect(identifies[0]).toMatchObject({
      properties: { distinct_id: firm.owner.id },
      $set: { email: firm.owner.email, name: 'Olivia Owner' },
    });
    const firstView = events(analytics.requests).find((e) => e.event === '$pageview');
    expect(firstView?.properties).toMatchObject({ role: 'Owner', is_owner: true, org_id: firm.org.id });
    // Feature flags and surveys go through the same client and host.
    expect(analytics.requests.some((r) => r.path.startsWith('/flags/'))).toBe(true);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('gives the chat widget the signed-in member, and a new identity after a sign-out', async () => {
    chat.requests.length = 0;
    const firm = await app.seedFirm('Chat & Co');
    const context = await browserFor(app);
    await signInWithCookies(context, app, firm.owner);
    const { page } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const calls = () =>
      chat.requests
        .filter((r) => r.path === '/chat/calls')
        .map((r) => r.body as { op: string; data: Record<string, unknown> });
    await expect.poll(() => calls().filter((c) => c.op === 'setUser').length).toBe(1);
    expect(calls().find((c) => c.op === 'run')?.data).toEqual({ websiteToken: 'website-token' });
    expect(calls().find((c) => c.op === 'setUser')?.data).toEqual({
      id: firm.owner.id,
      user: { name: 'Olivia Owner', email: firm.owner.email },
    });

    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/auth/login`);
    await expect.poll(() => calls().filter((c) => c.op === 'reset').length).toBeGreaterThanOrEqual(1);
    expect((await context.cookies(app.url)).find((c) => c.name === 'cw_conversation')).toBeUndefined();

    await signInWithCookies(context, app, firm.staff);
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => calls().filter((c) => c.op === 'setUser').length).toBe(2);
    expect(calls().filter((c) => c.op === 'setUser')[1]?.data).toMatchObject({ id: firm.staff.id });
    const conversation = (await context.cookies(app.url)).find((c) => c.name === 'cw_conversation');
    expect(decodeURIComponent(conversation?.value ?? '')).toBe(firm.staff.id);
    await context.close();
  });
});

describe('on any other host', () => {
  it('loads no analytics and no tag manager, and sends nothing to the analytics host', async () => {
    const analytics = await startThirdParty();
    const app = await startApp({
      PRODUCTION_HOST: 'app.example.com',
      POSTHOG_KEY: 'phc_test',
      POSTHOG_HOST: analytics.url,
      GTM_ID: 'GTM-TEST1',
    });
    try {
      const firm = await app.seedFirm('Staging');
      const context = await browserFor(app);
      const gtmRequests: string[] = [];
      context.on('request', (req) => {
        if (req.url().includes('googletagmanager')) gtmRequests.push(req.url());
      });
      await signInWithCookies(context, app, firm.owner);
      const { page, console } = await newPage(context);
      await page.goto(`${app.url}/`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await posthogState(page)).toEqual([]);
      await page.goto(`${app.url}/auth/verify/eyJ1IjoieCIsImMiOiIxIn0`);
      // The app starts analytics, if at all, as its script runs, before the load event goto waits
      // for: PostHog never started, so nothing can still be batched for later (was a 4 s wait).
      expect(await posthogState(page)).toEqual([]);
      expect(analytics.requests).toEqual([]);
      expect(gtmRequests).toEqual([]);
      await expect.poll(() => page.locator('script[data-tag-manager]').count()).toBe(0);
      expect(console.errors.filter((e) => !/40\d/.test(e))).toEqual([]);
      await context.close();
    } finally {
      await app.close();
      await analytics.close();
    }
  });
});
