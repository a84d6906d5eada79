import fs from 'node:fs';
import path from 'node:path';
import axe, { type Result, type RunOptions } from 'axe-core';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { screenOf, VIEW_PARAM } from './routes';

/**
 * Accessibility in the browser suite: axe-core (WCAG 2.0–2.2 A and AA, best practices, WCAG 2.2's
 * target size and 2.1's label in name) on each screen, in the light and the dark theme. Serious
 * and critical violations fail; every violation is written to test-results/a11y/ for a person.
 *
 * A screen is audited on a copy: its DOM (with the live values of its fields and its styles inline,
 * without scripts) is served at its own address in a separate browser context and axe runs there,
 * once per theme. So the test's own page, timing and theme are never touched, and a slow audit
 * delays nobody.
 *
 * Every page a test opens with newPage() is watched (watchPage): the first time in the run that a
 * route pattern (SPEC.md §2, support/routes.ts) shows at a width (phone or wider), once the screen
 * is still, it is copied and audited, and the test fails at its end on what the audit found. So
 * axe runs once per screen and theme, not on every step. tests/e2e/a11y.test.ts walks every screen
 * on purpose (expectAccessible), the same in every run.
 */

export type TTheme = 'light' | 'dark';
export type TFinding = { route: string; url: string; theme: TTheme; width: number; violations: Result[] };

const FAILING = new Set(['serious', 'critical']);

/** What one sees on a screen: the DOM with the live state of its form fields, without scripts. */
type TSnapshot = { url: string; html: string; width: number; height: number };

/**
 * Route patterns (and widths) audited so far in this run. The browser suite's files share one
 * worker's modules (isolate: false), so a screen is audited once per run, by the first test that
 * shows it or by the walk, however many files visit it.
 */
const audited = new Set<string>();
const auditPages = new WeakMap<Browser, Promise<Page>>();

function widthClass(width: number) {
  return width < 640 ? 'phone' : 'wide';
}

function keyOf(url: string, width: number) {
  return `${screenOf(url)} @${widthClass(width)}`;
}

/** Runs in the page: a copy of the document to render elsewhere. */
function copyDocument(): { url: string; html: string } {
  const clone = document.documentElement.cloneNode(true) as HTMLElement;
  const live = document.querySelectorAll('input, textarea, option');
  const copies = clone.querySelectorAll('input, textarea, option');
  live.forEach((element, i) => {
    const copy = copies[i];
    if (!copy) return;
    if (element instanceof HTMLInputElement) {
      if (element.type === 'checkbox' || element.type === 'radio') {
        copy.toggleAttribute('checked', element.checked);
      } else if (element.type !== 'file' && element.type !== 'password') {
        copy.setAttribute('value', element.value);
      }
    } else if (element instanceof HTMLTextAreaElement) {
      copy.textContent = element.value;
    } else if (element instanceof HTMLOptionElement) {
      copy.toggleAttribute('selected', element.selected);
    }
  });
  // Nor the app's code: the copy only renders. A module preload left in fetched and compiled every
  // chunk of the app again for each audit (with a route, the page has no HTTP cache): seconds each.
  for (const node of clone.querySelectorAll(
    'script, noscript, link[rel="modulepreload"], link[rel="preload"], link[rel="prefetch"]',
  )) {
    node.remove();
  }
  // The styles travel with the copy, so it renders the same after the test's server has closed.
  for (const link of clone.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')) {
    const sheet = [...document.styleSheets].find((s) => s.href === link.href);
    if (!sheet) continue;
    const style = document.createElement('style');
    style.textContent = [...sheet.cssRules].map((rule) => rule.cssText).join('\n');
    link.replaceWith(style);
  }
  // An open modal layer (a dialog, a select's list, a menu) hides the rest of the page with
  // aria-hidden (Radix marks those nodes data-aria-hidden) and its script keeps focus inside the
  // layer. The copy has no scripts, so axe would see that hidden content as reachable by Tab
  // (aria-hidden-focus): the copy says what the script does, that it cannot take focus.
  for (const hidden of clone.querySelectorAll('[data-aria-hidden="true"][aria-hidden="true"]')) {
    hidden.setAttribute('inert', '');
  }
  // A frame's own page (a PDF preview) is no screen of ours and would load without the session.
  for (const frame of clone.querySelectorAll('iframe')) {
    frame.removeAttribute('srcdoc');
    frame.setAttribute('src', 'about:blank');
  }
  const head = clone.querySelector('head');
  // The end state of every transition and animation, not a frame half-way through a fade.
  const still = document.createElement('style');
  still.textContent = '*,*::before,*::after{transition:none!important;animation:none!important}';
  head?.append(still);
  return { url: location.href, html: `<!doctype html>${clone.outerHTML}` };
}

async function snapshot(page: Page): Promise<TSnapshot> {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  return { ...(await page.evaluate(copyDocument)), ...size };
}

/**
 * axe's options per theme: its default rules plus WCAG 2.2's 24 px targets and 2.1's label in
 * name (both off in its defaults); in the dark theme only the rules colour decides.
 */
function axeOptions(theme: TTheme): RunOptions {
  const options: RunOptions = {
    iframes: false,
    // Only violations are read: axe then keeps one node of each passed or inapplicable rule
    // instead of all of them (its documented speed option; the violations are complete).
    resultTypes: ['violations'],
    rules: { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } },
  };
  return theme === 'light'
    ? options
    : { ...options, runOnly: { type: 'rule', values: ['color-contrast', 'link-in-text-block'] } };
}

/**
 * The page audits happen in: one per browser, kept, with axe loaded once. It sits at the app's
 * origin (a blank page served by a route, then the route dropped so the HTTP cache works), and each
 * snapshot is written into it (setContent keeps the address), so its styles' fonts and images come
 * from the cache. A new page per audit, at the screen's address through a route, spent most of an
 * audit loading what the page before it had loaded (routing turns the cache off).
 */
async function auditPage(browser: Browser, origin: string): Promise<Page> {
  let open = auditPages.get(browser);
  if (!open) {
    // No cookies: the copy (without the app's scripts) only needs its styles and images.
    open = browser.newContext().then((context) => context.newPage());
    auditPages.set(browser, open);
  }
  const page = await open;
  if (new URL(page.url()).origin !== origin) {
    const blank = `${origin}/__a11y-audit`;
    const serve = (route: Route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>audit</title>' });
    await page.route(blank, serve);
    await page.goto(blank);
    await page.unroute(blank, serve);
  }
  return page;
}

/** Audits one at a time: they share the audit page. */
let auditQueue: Promise<unknown> = Promise.resolve();

/** Renders a snapshot in both themes and runs axe on each. */
function auditSnapshot(browser: Browser, shot: TSnapshot): Promise<TFinding[]> {
  const run = auditQueue.then(() => auditOnce(browser, shot));
  auditQueue = run.catch(() => undefined);
  return run;
}

async function auditOnce(browser: Browser, shot: TSnapshot): Promise<TFinding[]> {
  const page = await auditPage(browser, new URL(shot.url).origin);
  await page.setViewportSize({ width: shot.width, height: shot.height });
  await page.setContent(shot.html, { waitUntil: 'load' });
  // axe itself, once per audit page: the document is replaced, the window (and axe) stays.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const findings: TFinding[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => {
      const root = document.documentElement;
      root.classList.toggle('dark', dark);
      root.style.colorScheme = dark ? 'dark' : 'light';
    }, theme === 'dark');
    const results = await page.evaluate(
      (options) => (window as unknown as { axe: typeof axe }).axe.run(document, options),
      axeOptions(theme),
    );
    findings.push({
      route: screenOf(shot.url),
      url: shot.url,
      theme,
      width: shot.width,
      violations: results.violations,
    });
  }
  record(findings);
  return findings;
}

/** Every violation, whatever its impact, as JSON under test-results/a11y/ for a person to read. */
function record(findings: TFinding[]) {
  const dir = path.resolve('test-results/a11y');
  fs.mkdirSync(dir, { recursive: true });
  for (const f of findings) {
    if (!f.violations.length) continue;
    const name = `${f.route.replace(/[^a-z0-9]+/gi, '_')}-${widthClass(f.width)}-${f.theme}.json`;
    fs.writeFileSync(path.join(dir, name), JSON.stringify(f, null, 2));
  }
}

/** The serious and critical violations, one line per rule and up to five elements under each. */
export function describeFailures(findings: TFinding[]): string {
  const lines: string[] = [];
  for (const f of findings) {
    for (const v of f.violations) {
      if (!FAILING.has(v.impact ?? '')) continue;
      lines.push(`${f.route} (${f.theme}, ${f.width} px) ${v.id} [${v.impact}]: ${v.help}  ${v.helpUrl}`);
      for (const node of v.nodes.slice(0, 5)) {
        const summary = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
        lines.push(`    ${node.target.join(' ')}  ${node.html.slice(0, 160)}\n      ${summary}`);
      }
      if (v.nodes.length > 5) lines.push(`    … and ${v.nodes.length - 5} more`);
    }
  }
  return lines.join('\n');
}

function assertPasses(findings: TFinding[]) {
  const failures = describeFailures(findings);
  if (failures) throw new Error(`Accessibility violations (serious or critical):\n${failures}`);
}

/**
 * Audits the page as it is now, in both themes, and fails on serious or critical violations. For a
 * test that has brought a screen to the state it wants looked at.
 */
export async function expectAccessible(page: Page): Promise<TFinding[]> {
  const browser = page.context().browser();
  if (!browser) throw new Error('the page has no browser');
  const shot = await snapshot(page);
  const key = keyOf(shot.url, shot.width);
  audited.add(key);
  const findings = await auditSnapshot(browser, shot);
  if (describeFailures(findings)) audited.delete(key);
  assertPasses(findings);
  return findings;
}

type TPageState = { due: boolean; loading: boolean; quietFor: number };
type TWatchedWindow = {
  __a11ySnapshot?: (shot: { url: string; html: string }) => Promise<boolean>;
  __a11yTake?: () => Promise<void>;
  __a11yState?: () => TPageState;
};

const QUIET_MS = 400;

/**
 * Runs in each watched page before its scripts: offers a copy of the screen to the test (the
 * binding) the first time a path is shown and the page has been still for a moment (no DOM change,
 * no call in flight, no loading state). The test may refuse it (its own view of the network is
 * busier, e.g. a route's code still loading); the page then offers it again when next still.
 */
function snapshotter(copyDocument: () => { url: string; html: string }, quietMs: number, viewParam: string) {
  const w = window as unknown as TWatchedWindow;
  // The path and its view (support/routes.ts screenOf): another view is another screen.
  const screen = () => `${location.pathname}?${new URLSearchParams(location.search).get(viewParam) ?? ''}`;
  const sent = new Set<string>();
  let inFlight = 0;
  let lastMutation = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const loading = () =>
    inFlight > 0 ||
    document.readyState === 'loading' ||
    !document.getElementById('app')?.childElementCount ||
    // A screen still loading (a busy table, a skeleton, a spinner) is not the screen yet.
    !!document.querySelector('[aria-busy="true"], .animate-pulse, .animate-spin');

  const take = async (): Promise<void> => {
    const path = screen();
    if (!w.__a11ySnapshot || sent.has(path) || loading()) return;
    sent.add(path);
    const accepted = await w.__a11ySnapshot(copyDocument()).catch(() => true);
    if (!accepted) {
      sent.delete(path);
      bump();
    }
  };
  const bump = () => {
    lastMutation = performance.now();
    clearTimeout(timer);
    timer = setTimeout(() => void take(), quietMs);
  };

  const fetch = window.fetch;
  window.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
    inFlight += 1;
    bump();
    return fetch.apply(this, args).finally(() => {
      inFlight -= 1;
      bump();
    });
  } as typeof fetch;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, ...args: Parameters<typeof send>) {
    inFlight += 1;
    this.addEventListener('loadend', () => {
      inFlight -= 1;
      bump();
    });
    return send.apply(this, args);
  };
  w.__a11yTake = take;
  w.__a11yState = () => ({
    due: !sent.has(screen()),
    loading: loading(),
    quietFor: performance.now() - lastMutation,
  });
  new MutationObserver(bump).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

const flushes = new WeakMap<Page, () => Promise<void>>();
const patched = new WeakSet<BrowserContext>();

/** Closing a page or its context first lets the watcher copy the screen it shows if still due. */
function flushBeforeClose(page: Page, flush: () => Promise<void>) {
  flushes.set(page, flush);
  const context = page.context();
  if (!patched.has(context)) {
    patched.add(context);
    const close = context.close.bind(context);
    context.close = async (options) => {
      await Promise.all(context.pages().map((p) => flushes.get(p)?.()));
      return close(options);
    };
  }
  const close = page.close.bind(page);
  page.close = async (options) => {
    await flush();
    return close(options);
  };
}

/**
 * Watches a test's page: each route pattern it shows first in the run (per width) is audited, and
 * the test fails at its end on what the audit found. A test that closes its page straight after
 * reaching a new screen waits (3 s at most) for it to be still first; a screen left before it is
 * still is audited on a later visit, if there is one.
 */
export async function watchPage(page: Page): Promise<void> {
  const browser = page.context().browser();
  if (!browser) return;
  const audits: Promise<TFinding[]>[] = [];
  try {
    onTestFinished(async () => {
      assertPasses((await Promise.all(audits)).flat());
    });
  } catch {
    // Opened outside a test (a hook): nobody to fail, so nothing is watched.
    return;
  }

  // The browser's view of the network: script chunks and styles too, which the page cannot count.
  let inFlight = 0;
  let lastNetwork = Date.now();
  const network = (delta: number) => () => {
    inFlight = Math.max(0, inFlight + delta);
    lastNetwork = Date.now();
  };
  page.on('request', network(1));
  page.on('requestfinished', network(-1));
  page.on('requestfailed', network(-1));
  const networkBusy = () => inFlight > 0 || Date.now() - lastNetwork < QUIET_MS / 2;
  const width = () => page.viewportSize()?.width ?? 1280;

  await page.exposeBinding('__a11ySnapshot', (_source, shot: { url: string; html: string }) => {
    if (networkBusy()) return false;
    // Not while a modal layer is open (a select's list, a menu, a dialog): the watcher audits the
    // screen, which is then hidden behind it, its scrolling <main> a box no key can reach. The page
    // offers the screen again when next still; a test audits a layer on purpose (expectAccessible).
    if (shot.html.includes('data-aria-hidden="true"')) return false;
    const key = keyOf(shot.url, width());
    if (!audited.has(key)) {
      audited.add(key);
      audits.push(
        auditSnapshot(browser, { ...shot, width: width(), height: page.viewportSize()?.height ?? 720 }).then(
          (findings) => {
            // A screen that failed is audited again when next shown: CI's retry of the test must
            // meet the violation again, not pass because the screen counts as seen.
            if (describeFailures(findings)) audited.delete(key);
            return findings;
          },
        ),
      );
    }
    return true;
  });
  await page.addInitScript(`(${snapshotter})(${copyDocument}, ${QUIET_MS}, ${JSON.stringify(VIEW_PARAM)})`);

  flushBeforeClose(page, async () => {
    const until = Date.now() + 3_000;
    while (Date.now() < until && !page.isClosed()) {
      const url = page.url();
      if (!url.startsWith('http') || audited.has(keyOf(url, width()))) return;
      const state = await page
        .evaluate(() => (window as unknown as TWatchedWindow).__a11yState?.())
        .catch(() => undefined);
      if (!state?.due) return;
      if (!state.loading && state.quietFor >= QUIET_MS / 2 && !networkBusy()) {
        await page
          .evaluate(() => (window as unknown as TWatchedWindow).__a11yTake?.())
          .catch(() => undefined);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
}
