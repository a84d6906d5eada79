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

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({}, { webDir });
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
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toContain('javascript');
    expect(zlib.brotliDecompressSync(br.bytes).toString()).toBe(script);

    const gz = await get('/assets/index-AbCd1234.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.bytes).toString()).toBe(script);

    const plain = await get('/assets/index-AbCd1234.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.toString()).toBe(script);
  });

  it('serves the app page compressed on any path the router owns, never cached', async () => {
    const br = await get('/clientportal/auth/login', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(br.bytes).toString()).toBe(page);
    expect((await get('/', '')).bytes.toString()).toBe(page);
  });
});
