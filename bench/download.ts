// npx vite build && npx tsx bench/download.ts [--mb 1024]
// Issue 21's streaming target: a 1 GB document downloads from the staff app with the server's and
// the browser's memory growth each under 100 MB.
// - The server runs in this process (PGlite, local storage in a temporary directory); the document
//   goes in through the upload route, streamed from a reused 1 MB buffer.
// - Chromium (/usr/bin/chromium or CHROMIUM_PATH, driven by Playwright) signs in, opens the firm
//   vault's documents and clicks Download, as a person would: the app asks for a signed link and the
//   browser fetches it itself, to disk.
// - Sampled every 100 ms until the download is on disk: this process's resident memory (the
//   server's: Playwright's client only exchanges small messages), the resident memory of every
//   process of that Chromium (browser, network service, renderers: read from /proc), and the page's
//   JavaScript heap (CDP Performance.getMetrics, JSHeapUsedSize), each against its figure just
//   before the click.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createTestApp } from '../src/server/test/app';

const { values: args } = parseArgs({ options: { mb: { type: 'string', default: '1024' } } });
const BYTES = Number(args.mb) * 1024 * 1024;
const MB = 1024 * 1024;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Resident memory (bytes) of a process and all its descendants, from /proc. */
function treeRss(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command may hold spaces and parentheses: fields count from the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const pages = Number(fields[21]);
      const pid = Number(entry);
      rss.set(pid, pages * 4096);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // Gone meanwhile.
    }
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop() as number;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** The pid of the Chromium browser process launched with this marker among its switches. */
function browserPid(marker: string): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(marker) && !cmd.includes('--type=')) return Number(entry);
    } catch {}
  }
  throw new Error('the browser process was not found');
}

async function upload(url: string, token: string, folderId: string) {
  const chunk = randomBytes(MB);
  const boundary = `bench${Date.now()}`;
  return new Promise<{ id: string }>((resolve, reject) => {
    const req = http.request(
      new URL(`${url}/api/documents/upload?folderId=${folderId}`),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(body)) : reject(new Error(body))));
      },
    );
    req.on('error', reject);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    let sent = 0;
    const pump = () => {
      while (sent < BYTES) {
        const part = chunk.subarray(0, Math.min(chunk.length, BYTES - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

async function main() {
  if (!fs.existsSync('dist/web/index.html')) throw new Error('Build the web app first: npx vite build');
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-download-'));
  const downloads = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-download-browser-'));
  const t = await createTestApp(
    { DATA_DIR: dataDir, UPLOAD_MAX_BYTES: String(BYTES + MB) },
    { dataDir: path.join(dataDir, 'db') },
  );
  const marker = `--bench-marker=${randomUUID()}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    downloadsPath: downloads,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', marker],
  });
  try {
    const firm = await t.seedFirm('Download bench');
    const root = await t.client(firm.owner.token).documents.open.mutate({ clientId: null });
    let started = performance.now();
    const doc = await upload(t.url, firm.owner.token, root.id);
    console.log(`uploaded ${args.mb} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const context = await browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1280, height: 800 },
    });
    const username = firm.owner.sub as string;
    const { accessToken, idToken } = await t.tokensFor(username, username);
    const prefix = `CognitoIdentityServiceProvider.${t.config.idp.clientId}`;
    await context.addCookies([
      { name: `${prefix}.LastAuthUser`, value: username, url: t.url },
      { name: `${prefix}.${username}.accessToken`, value: accessToken, url: t.url },
      { name: `${prefix}.${username}.idToken`, value: idToken, url: t.url },
      { name: `${prefix}.${username}.clockDrift`, value: '0', url: t.url },
    ]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const jsHeap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    };
    await page.goto(`${t.url}/vault/documents`);
    await page.getByRole('button', { name: 'Actions for scan.bin' }).click();

    const pid = browserPid(marker);
    global.gc?.();
    const base = { server: process.memoryUsage().rss, browser: treeRss(pid), heap: await jsHeap() };
    const peak = { ...base };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak.server = Math.max(peak.server, process.memoryUsage().rss);
        peak.browser = Math.max(peak.browser, treeRss(pid));
        peak.heap = Math.max(peak.heap, await jsHeap().catch(() => 0));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    started = performance.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('menuitem', { name: 'Download' }).click(),
    ]);
    const file = await download.path();
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    const size = (await fsp.stat(file)).size;
    if (size !== BYTES) throw new Error(`downloaded ${size} bytes, expected ${BYTES}`);
    if (!download.url().includes(`/api/documents/${doc.id}/download?link=`))
      throw new Error(`not a signed link: ${download.url()}`);
    const mb = (n: number) => (n / MB).toFixed(1);
    const result = {
      mb: Number(args.mb),
      seconds: Number(seconds.toFixed(1)),
      serverGrowthMb: Number(mb(peak.server - base.server)),
      browserGrowthMb: Number(mb(peak.browser - base.browser)),
      pageHeapGrowthMb: Number(mb(peak.heap - base.heap)),
    };
    console.log(
      `downloaded ${args.mb} MB through a signed link in ${seconds.toFixed(1)} s (${mb(BYTES / seconds)} MB/s)\n` +
        `server resident memory: ${mb(base.server)} MB before, peak ${mb(peak.server)} MB (growth ${result.serverGrowthMb} MB)\n` +
        `browser (all Chromium processes) resident memory: ${mb(base.browser)} MB before, peak ${mb(peak.browser)} MB (growth ${result.browserGrowthMb} MB)\n` +
        `page JS heap: ${mb(base.heap)} MB before, peak ${mb(peak.heap)} MB (growth ${result.pageHeapGrowthMb} MB)`,
    );
    console.log(JSON.stringify(result));
    const ok = result.serverGrowthMb < 100 && result.browserGrowthMb < 100;
    console.log(ok ? 'PASS: both under 100 MB' : 'FAIL: a growth of 100 MB or more');
    if (!ok) process.exitCode = 1;
  } finally {
    await browser.close();
    await t.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
    await fsp.rm(downloads, { recursive: true, force: true });
  }
}

await main();
