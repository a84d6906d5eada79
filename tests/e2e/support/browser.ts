import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { watchPage } from './a11y';
import { watchWords } from './words';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let chromiumProcess: Promise<Browser> | undefined;

/**
 * The system Chromium, headless, with the flags this offline machine needs; never a downloaded one.
 * One process serves every file of the worker (the suite runs its files in one worker, isolate
 * off): launching one per file cost about a second each. A file gets a view of it whose close()
 * closes the contexts that file opened, never the browser, which goes when the worker exits.
 */
export async function launchBrowser(): Promise<Browser> {
  chromiumProcess ??= launchChromium();
  let browser = await chromiumProcess;
  if (!browser.isConnected()) {
    chromiumProcess = launchChromium();
    browser = await chromiumProcess;
  }
  const real = browser;
  const opened = new Set<BrowserContext>();
  return new Proxy(real, {
    get(target, property) {
      if (property === 'newContext')
        return async (...args: Parameters<Browser['newContext']>) => {
          const context = await target.newContext(...args);
          opened.add(context);
          return context;
        };
      if (property === 'close')
        return async () => {
          await Promise.all([...opened].map((context) => context.close().catch(() => {})));
          opened.clear();
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export type TConsoleLog = { errors: string[] };

/**
 * A page that records console errors so a test can assert there were none, and whose screens are
 * audited for accessibility (support/a11y.ts) unless `audit: false` (a test that audits by itself).
 */
export async function newPage(
  context: BrowserContext,
  options: { allowErrors?: RegExp[]; audit?: boolean; allowWords?: RegExp[] } = {},
): Promise<{ page: Page; console: TConsoleLog }> {
  const page = await context.newPage();
  if (options.audit !== false) await watchPage(page);
  // Messages and dates as people read them, on every screen (support/words.ts).
  await watchWords(page, options.allowWords);
  const log: TConsoleLog = { errors: [] };
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (options.allowErrors?.some((re) => re.test(text))) return;
    log.errors.push(text);
  });
  page.on('pageerror', (error) => log.errors.push(String(error)));
  keepScreenOnFailure(page);
  return { page, console: log };
}

let failedShots = 0;

/**
 * When the test that opened the page fails, what the page showed then is saved under
 * test-results/failed/, with its address: a failure far from a person (CI) can still be looked at.
 */
function keepScreenOnFailure(page: Page) {
  try {
    onTestFailed(async ({ task }) => {
      if (page.isClosed()) return;
      const dir = path.resolve('test-results/failed');
      fs.mkdirSync(dir, { recursive: true });
      const name = `${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}-${++failedShots}`;
      // CI keeps only its log: what the page showed goes there too, as its accessibility tree.
      const tree = await page
        .locator('body')
        .ariaSnapshot({ timeout: 5_000 })
        .catch(() => '(no snapshot)');
      fs.writeFileSync(path.join(dir, `${name}.txt`), `${page.url()}\n${tree}\n`);
      // With the failure itself: a retry that passes prints no error, and a flake is then a riddle.
      const why = (task.result?.errors ?? []).map((e) => e.message).join('\n');
      console.error(`The page when "${task.name}" failed (${why}): ${page.url()}\n${tree.slice(0, 6_000)}`);
      await page
        .screenshot({ path: path.join(dir, `${name}.png`), fullPage: true, timeout: 5_000 })
        .catch(() => {});
    });
  } catch {
    // Opened outside a test (a file's beforeAll): there is no test to fail.
  }
}

/** Saves a screenshot under test-results/ so a person can look at what the test saw. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.resolve('test-results/screens');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
