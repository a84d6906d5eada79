import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../test/app';

// A built web app in miniature, as `npm run build` lays it out: each text file with the .br and .gz
// scripts/precompress.ts writes beside it.
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-web-'));
const script = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
const page = `<!doctype html><html><head><title>Practice</title></head><body>${' '.repeat(2000)}</body></html>`;
function writeWithVariants(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
}
writeWithVariants(path.join(webDir, 'assets/index-AbCd1234.js'), script);
writeWithVariants(path.join(webDir, 'index.html'), page);
// The client portal's own page (its routes only), which the build writes beside the staff app's.
const portalPage = page.replace('<title>Practice</title>', '<title>Portal</title>');
writeWithVariants(path.join(webDir, 'portal.html'), portalPage);
fs.writeFileSync(path.join(webDir, 'theme.js'), 'document.documentElement.dataset.theme = "light";\n');
// As the build writes them: the theme script's brotli copy is the file sent to a browser taking br.
fs.writeFileSync(
  path.join(webDir, 'theme.js.br'),
  zlib.brotliCompressSync('document.documentElement.dataset.theme = "light";\n'),
);
fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

let t: TTestApp;
let firm: Awaited<ReturnType<TTestApp['seedFirm']>>;
beforeAll(async () => {
  t = await createTestApp({}, { webDir });
  firm = await t.seedFirm();
  const owner = t.client(firm.owner.token);
  for (let i = 0; i < 12; i++)
    await owner.clients.create.mutate({ code: `CC${i}`, name: `Compression Client ${i}` });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

/** A raw GET: fetch would decode the body and hide the encoding that was sent. */
function get(pathname: string, acceptEncoding: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>(
    (resolve, reject) => {
      http
        .get(`${t.url}${pathname}`, { headers: { 'accept-encoding': acceptEncoding, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    },
  );
}

describe('compression', () => {
  it('serves a hashed asset as its build-time brotli or gzip file, still immutable', async () => {
    const br = await get('/assets/index-AbCd1234.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toContain('javascript');
    expect(zlib.brotliDecompressSync(br.bytes).toString()).toBe(script);

    // Only a document reads a page policy; a script keeps what protects it.
    expect(br.headers['content-security-policy']).toBeUndefined();
    expect(br.headers['x-frame-options']).toBeUndefined();
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(br.headers['cross-origin-resource-policy']).toBe('same-origin');
    // Never revalidated, so no validators; a file outside /assets keeps them (below).
    expect(br.headers.etag).toBeUndefined();
    expect(br.headers['last-modified']).toBeUndefined();
    const theme = await get('/theme.js', 'br');
    expect(theme.headers.etag).toBeDefined();
    // The theme script and the deployment's settings are scripts too; an SVG keeps a document's policies.
    expect(theme.headers['content-security-policy']).toBeUndefined();
    expect(theme.headers['x-content-type-options']).toBe('nosniff');
    expect(theme.headers['content-encoding']).toBe('br');
    expect((await get('/api/config.js', 'br')).headers['content-security-policy']).toBeUndefined();
    expect((await get('/favicon.svg', 'br')).headers['content-security-policy']).toBeDefined();

    const gz = await get('/assets/index-AbCd1234.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.bytes).toString()).toBe(script);

    const plain = await get('/assets/index-AbCd1234.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.toString()).toBe(script);
  });

  it('serves the app page compressed on any path the router owns, never cached', async () => {
    const br = await get('/auth/login', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-security-policy']).toContain("default-src 'self'");
    expect(zlib.brotliDecompressSync(br.bytes).toString()).toBe(page);
    expect((await get('/', '')).bytes.toString()).toBe(page);
  });

  it("serves the portal's own page on the portal's paths, with the same policies and variants", async () => {
    for (const pathname of [
      '/clientportal',
      '/clientportal/auth/login',
      '/clientportal/x/requests/y?tab=1',
    ]) {
      const br = await get(pathname, 'br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers['content-security-policy']).toContain("default-src 'self'");
      expect(br.headers['x-frame-options']).toBeDefined();
      expect(zlib.brotliDecompressSync(br.bytes).toString()).toBe(portalPage);
    }
    const gz = await get('/clientportal/auth/login', 'gzip');
    expect(zlib.gunzipSync(gz.bytes).toString()).toBe(portalPage);
    expect((await get('/clientportal/auth/login', '')).bytes.toString()).toBe(portalPage);
    // Only the prefix as a path segment: a staff path that begins alike keeps the staff page.
    expect((await get('/clientportalx', '')).bytes.toString()).toBe(page);
    expect((await get('/clients/clientportal', '')).bytes.toString()).toBe(page);
  });

  it('compresses a procedure answer over 1 KB for a caller that accepts it, and leaves a small one', async () => {
    const auth = { authorization: `Bearer ${firm.owner.token}` };
    const list = `/api/trpc/clients.list?input=${encodeURIComponent('{"json":{"page":1,"pageSize":25}}')}`;
    const br = await get(list, 'gzip, deflate, br', auth);
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const answer = JSON.parse(zlib.brotliDecompressSync(br.bytes).toString());
    expect(answer.result.data.json.rows).toHaveLength(12);
    // A JSON answer is no page: a policy that allows nothing instead of the app page's (about 0.5 KB less).
    expect(br.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(br.headers['x-frame-options']).toBeUndefined();
    expect(br.headers['referrer-policy']).toBeUndefined();
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(br.headers['cross-origin-resource-policy']).toBe('same-origin');

    const plain = await get(list, 'identity', auth);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.bytes.toString())).toEqual(answer);

    const small = await get('/api/trpc/notifications.unreadCount', 'br', auth);
    expect(small.status).toBe(200);
    expect(small.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('takes a compressed request body as sent, never inflating it', async () => {
    const body = zlib.gzipSync(JSON.stringify({ json: { code: 'INF1', name: 'Inflated Client' } }));
    const res = await fetch(`${t.url}/api/trpc/clients.create`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${firm.owner.token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const names = (await t.client(firm.owner.token).clients.list.query({ page: 1, pageSize: 50 })).rows.map(
      (r) => r.name,
    );
    expect(names).not.toContain('Inflated Client');
  });
});
