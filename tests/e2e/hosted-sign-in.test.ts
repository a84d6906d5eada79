import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../src/server/db/schema';
import { createUser } from '../../src/server/idp/users';
import { startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

// Hosted sign-in in Chromium, as a laptop runs it (README "Hosted sign-in"): the app over its HTTPS
// listener (HTTPS_PORT; Amplify builds https:// addresses for the OAuth domain), an external OpenID Connect
// provider (oidc-provider, started here) named in IDP_OIDC_PROVIDERS.

let app: TE2eApp;
let op: Server;
let browser: Browser;
let base = '';
const PASSWORD = 'Ledger#2026';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

beforeAll(async () => {
  const [httpsPort, opPort] = [await freePort(), await freePort()];
  base = `https://127.0.0.1:${httpsPort}`;
  const opUrl = `http://127.0.0.1:${opPort}`;
  const provider = new Provider(opUrl, {
    clients: [
      {
        client_id: 'practice',
        client_secret: 'a-long-enough-client-secret',
        redirect_uris: [`${base}/api/idp/oauth2/idpresponse`],
      },
    ],
    // The dev login form takes any name: it becomes the account and its verified email.
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['hosted-e2e-cookie-key'] },
  });
  op = provider.listen(opPort, '127.0.0.1');
  app = await startApp({
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    HTTPS_PORT: String(httpsPort),
    IDP_OIDC_PROVIDERS: JSON.stringify([
      { name: 'Workspace', issuer: opUrl, clientId: 'practice', clientSecret: 'a-long-enough-client-secret' },
    ]),
  });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await new Promise((resolve) => op?.close(resolve));
});

describe('hosted sign-in in the browser', () => {
  it('signs in through the external provider, signs out through /logout, and signs in on the hosted page', async () => {
    // Her own address on each attempt: CI runs a failed browser test once more, on the same server.
    const EMAIL = `ada.${randomUUID().slice(0, 8)}@lovelace.test`;
    const firm = await app.seedFirm('Lovelace & Co');
    const user = await createUser(app.db, {
      poolName: 'Practice',
      username: EMAIL,
      password: PASSWORD,
      attributes: { email: EMAIL },
      status: 'CONFIRMED',
      emailVerified: true,
    });
    // An invitation for someone else, opened later by Ada (made while the owner's token still holds).
    await app
      .client(firm.owner.token)
      .team.invite.mutate({ email: 'grace@hopper.test', roleId: firm.roles.staff.id });
    const invitePath = await app.lastLinkPath('grace@hopper.test');
    await app.db
      .update(members)
      .set({ sub: user.id, email: EMAIL, firstName: 'Ada', lastName: 'Lovelace' })
      .where(eq(members.id, firm.owner.id));

    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 1280, height: 800 },
    });
    // oidc-provider's development pages ask for a favicon and a web font it cannot reach here.
    const { page, console } = await newPage(context, {
      allowErrors: [/net::ERR_NAME_NOT_RESOLVED/, /status of 404 \(Not Found\)/],
    });
    const home = page.getByRole('button', { name: /account menu for Ada Lovelace/ });

    // A forged state coming back is refused with SPEC's message. Amplify, which the login page
    // fetches at once for a return, is held until the page is drawn and listening: the outcome still
    // reaches it.
    await page.goto(`${base}/auth/login`);
    await page.route('**/api/idp/oauth2/authorize?**', (route) =>
      route.fulfill({ status: 302, headers: { location: `${base}/auth/login?code=forged&state=forged` } }),
    );
    let releaseAmplify = () => {};
    const amplifyHeld = new Promise<void>((resolve) => {
      releaseAmplify = resolve;
    });
    const returnChunk = /\/assets\/amplify-oauth-return-[^/]+\.js$/;
    let returnRequested = false;
    await page.route(returnChunk, async (route) => {
      returnRequested = true;
      await amplifyHeld;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign in with Workspace' }).click();
    await page.waitForURL(`${base}/auth/login?code=forged&state=forged`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await expect.poll(() => returnRequested).toBe(true);
    releaseAmplify();
    await page.getByText('Invalid state in OAuth flow').waitFor();
    await page.unroute('**/api/idp/oauth2/authorize?**');
    await page.unroute(returnChunk);
    await screenshot(page, 'auth-login-providers');

    // Through the provider's own sign-in and consent, back signed in.
    await page.getByRole('button', { name: 'Sign in with Workspace' }).click();
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
    await page.locator('input[name="login"]').fill(EMAIL);
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]', { hasText: /continue/i }).click();
    await home.waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // Sign-out ends the provider's hosted session too (Amplify goes through /logout)...
    const logout = page.waitForResponse((r) => r.url().startsWith(`${base}/api/idp/logout?`));
    await home.click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    const out = await logout;
    expect(out.status()).toBe(302);
    expect(new URL(out.url()).searchParams.get('logout_uri')).toBe(`${base}/auth/login`);
    await page.waitForURL(`${base}/auth/login`);
    await page.getByRole('button', { name: 'Sign in with Workspace' }).waitFor();
    // The page asked for before signing in is where the provider's way in ends too.
    await page.goto(`${base}/auth/login?next=${encodeURIComponent('/clients?q=ada')}`);
    await page.getByRole('button', { name: 'Sign in with Workspace' }).waitFor();

    // ...so the hosted sign-in asks again instead of signing straight in: Amplify's own request,
    // without the provider, shows the hosted page; its email and password sign in.
    await page.route('**/api/idp/oauth2/authorize?**', (route) => {
      const url = new URL(route.request().url());
      url.searchParams.delete('identity_provider');
      return route.continue({ url: url.toString() });
    });
    // The button fetches Amplify first: the hosted page, not the login page still in view.
    await page.getByRole('button', { name: 'Sign in with Workspace' }).click();
    await page.waitForURL(/\/api\/idp\/oauth2\/authorize\?/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'idp-hosted-sign-in');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await home.waitFor();
    await page.waitForURL(`${base}/clients?q=ada`);

    // The invitation page's "Sign out" takes the same way out, through /logout, and comes back.
    await page.goto(`${base}${invitePath}`);
    await page.getByText('but this invitation is for').waitFor();
    const inviteLogout = page.waitForResponse((r) => r.url().startsWith(`${base}/api/idp/logout?`));
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    expect((await inviteLogout).status()).toBe(302);
    await page.waitForURL(`${base}${invitePath}`);
    await page.getByRole('link', { name: 'Create account' }).waitFor();
    // The hosted session ended: the hosted page asks again.
    await page.goto(`${base}/auth/login`);
    await page.getByRole('button', { name: 'Sign in with Workspace' }).click();
    await page.waitForURL(/\/api\/idp\/oauth2\/authorize\?/);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await home.waitFor();

    // A provider that does not answer /logout within 3 s: SPEC's message, and this browser is
    // signed out all the same.
    await page.route('**/api/idp/logout?**', () => {});
    await home.click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByText('Signout timeout fail').waitFor();
    expect((await context.cookies()).some((c) => c.name.endsWith('.LastAuthUser'))).toBe(false);

    expect(console.errors).toEqual([]);
    await context.close();
  });
});
