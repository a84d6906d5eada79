// npx tsx bench/weight.ts [--identity] [--files] [--only portal] — what a cold browser downloads for the first screens: the
// built web app (npm run build) served by the real server, opened in Chromium with an empty cache,
// adding up every response's bytes as they crossed the wire (CDP's encodedDataLength: headers and
// the body as sent, compressed or not). --identity asks for no compression, as before it existed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { PORTAL_LOGIN_COOKIE } from '../src/domain/web-config';
import { PORTAL_SESSION_COOKIE } from '../src/server/auth';
import { webDistDir } from '../src/server/paths';
import { createTestApp, type TTestApp } from '../src/server/test/app';
import { seedPortalUser } from '../src/server/test/portal';
import { seedPortalClient } from '../src/server/test/portal-world';
import { seedClientRequests } from '../src/server/test/requests';

const identity = process.argv.includes('--identity');
const TARGETS_KB = {
  'portal login': 150,
  'portal home': 150,
  'portal request': 150,
  'staff login': 200,
  'staff shell + home': 300,
};
type TScreen = keyof typeof TARGETS_KB;

if (!fs.existsSync(path.join(webDistDir, 'index.html'))) throw new Error('Build first: npm run build');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-weight-'));
const app = await createTestApp({ DATA_DIR: dataDir }, { dataDir: path.join(dataDir, 'db') });
const firm = await app.seedFirm('Sharma & Associates');
const own = await seedPortalClient(app, firm, 'Mehta Traders');
const portal = await seedPortalUser(app, {
  orgId: firm.org.id,
  clientIds: [own.client.id],
  name: 'Priya Mehta',
});
// A request sent to her: a file item and a short answer (the portal's request screen).
const { open: request } = await seedClientRequests(app, {
  orgId: firm.org.id,
  clientId: own.client.id,
  recipientIds: [portal.user.id],
  marker: 'Year-end',
});
// --only portal: the screens whose name starts so (the others are skipped).
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? (process.argv[onlyAt + 1] ?? '') : '';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic'],
});

type TWeight = { bytes: number; requests: number; byType: Record<string, number>; files: [string, number][] };

/** Opens one screen in a new context (an empty cache) and sums what came over the network. */
async function weigh(
  prepare: (context: BrowserContext) => Promise<void>,
  open: (page: Page) => Promise<void>,
): Promise<TWeight> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    ...(identity ? { extraHTTPHeaders: { 'accept-encoding': 'identity' } } : {}),
  });
  await prepare(context);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const types = new Map<string, string>();
  const weight: TWeight = { bytes: 0, requests: 0, byType: {}, files: [] };
  const urls = new Map<string, string>();
  cdp.on('Network.responseReceived', (e) => {
    types.set(e.requestId, e.type);
    urls.set(e.requestId, new URL(e.response.url).pathname);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const type = types.get(e.requestId) ?? 'Other';
    weight.bytes += e.encodedDataLength;
    weight.requests += 1;
    weight.byType[type] = (weight.byType[type] ?? 0) + e.encodedDataLength;
    weight.files.push([urls.get(e.requestId) ?? '?', e.encodedDataLength]);
  });
  await open(page);
  await page.waitForLoadState('networkidle');
  await context.close();
  return weight;
}

async function signInToPortal(context: BrowserContext) {
  await context.addCookies([
    { name: PORTAL_SESSION_COOKIE, value: portal.token, url: app.url, httpOnly: true, sameSite: 'Strict' },
    { name: PORTAL_LOGIN_COOKIE, value: '1', url: app.url, sameSite: 'Strict' },
  ]);
}

async function signInStaff(context: BrowserContext, t: TTestApp) {
  const username = firm.owner.sub ?? 'user';
  const { accessToken, idToken } = await t.tokensFor(username, username);
  const prefix = `CognitoIdentityServiceProvider.${t.config.idp.clientId}`;
  await context.addCookies([
    { name: `${prefix}.LastAuthUser`, value: username, url: t.url },
    { name: `${prefix}.${username}.accessToken`, value: accessToken, url: t.url },
    { name: `${prefix}.${username}.idToken`, value: idToken, url: t.url },
    { name: `${prefix}.${username}.clockDrift`, value: '0', url: t.url },
  ]);
}

const none = async () => {};
const screens: Record<TScreen, () => Promise<TWeight>> = {
  'portal login': () =>
    weigh(none, async (page) => {
      await page.goto(`${app.url}/clientportal/auth/login`);
      await page.getByRole('button').first().waitFor();
    }),
  'portal home': () =>
    weigh(signInToPortal, async (page) => {
      await page.goto(`${app.url}/clientportal`);
      await page.waitForURL(`${app.url}/clientportal/${own.client.id}`);
      await page.getByText('Mehta Traders').first().waitFor();
    }),
  'portal request': () =>
    weigh(signInToPortal, async (page) => {
      await page.goto(`${app.url}/clientportal/${own.client.id}/requests/${request.id}`);
      await page.getByText('Bank statements').first().waitFor();
    }),
  'staff login': () =>
    weigh(none, async (page) => {
      await page.goto(`${app.url}/auth/login`);
      await page
        .getByRole('button', { name: /sign in/i })
        .first()
        .waitFor();
    }),
  'staff shell + home': () =>
    weigh(
      (context) => signInStaff(context, app),
      async (page) => {
        await page.goto(`${app.url}/`);
        await page.getByRole('navigation').first().waitFor();
      },
    ),
};
const results: Partial<Record<TScreen, TWeight>> = {};
for (const [screen, measure] of Object.entries(screens) as [TScreen, () => Promise<TWeight>][]) {
  if (screen.startsWith(only)) results[screen] = await measure();
}

await browser.close();
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const kb = (n: number) => (n / 1024).toFixed(1);
console.log(
  `\n| Screen (${identity ? 'no compression' : 'compressed'}) | KB on the wire | requests | scripts | styles | API and documents | target |`,
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [screen, w] of Object.entries(results) as [TScreen, TWeight][]) {
  const other = w.bytes - (w.byType.Script ?? 0) - (w.byType.Stylesheet ?? 0);
  const ok = w.bytes <= TARGETS_KB[screen] * 1024 ? '✓' : '✗';
  console.log(
    `| ${screen} | ${kb(w.bytes)} | ${w.requests} | ${kb(w.byType.Script ?? 0)} | ${kb(w.byType.Stylesheet ?? 0)} | ${kb(other)} | ≤ ${TARGETS_KB[screen]} ${ok} |`,
  );
}
// --files: what each screen fetched, largest first.
if (process.argv.includes('--files')) {
  for (const [screen, w] of Object.entries(results)) {
    console.log(`\n${screen}`);
    for (const [file, bytes] of w.files.sort((a, b) => b[1] - a[1]))
      console.log(`  ${kb(bytes).padStart(7)}  ${file}`);
  }
}
process.exit(0);
