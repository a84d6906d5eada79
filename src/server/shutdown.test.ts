import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ORPHAN_MIN_AGE_MS, sweepOrphanFiles } from './features/documents';
import { createTestApp } from './test/app';
import { filesUnder } from './test/files';
import { startServerProcess } from './test/server-process';

// The server as an operator stops it (SIGTERM) and as a crash stops it (SIGKILL), each with an
// upload streaming in. PGlite only: the lock and the flush are what is at stake.

// The token's issuer derives from PUBLIC_URL: the seeding app and the server must agree.
const PUBLIC_URL = 'http://127.0.0.1';
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-stop-'));
  dirs.push(dir);
  return dir;
};

/** A firm with a client and its documents root, written by a test app that then closes. */
async function seed(dataDir: string) {
  const setup = await createTestApp({ DATA_DIR: dataDir, PUBLIC_URL }, { dataDir: path.join(dataDir, 'db') });
  const firm = await setup.seedFirm('Stop & Co');
  const api = setup.client(firm.owner.token);
  const client = await api.clients.create.mutate({ code: 'S1', name: 'Slow Uploader' });
  const root = await api.documents.open.mutate({ clientId: client.id });
  await setup.close();
  return { token: firm.owner.token, folderId: root.id, orgId: firm.org.id };
}

/** A multipart upload that sends a first chunk and then trickles, until the server cuts it. */
function slowUpload(url: string, token: string, folderId: string) {
  const boundary = 'slow-upload';
  const req = http.request(`${url}/api/documents/upload?folderId=${folderId}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
  const ended = new Promise<string>((resolve) => {
    req.on('error', (error) => resolve(`error: ${error.message}`));
    req.on('response', (res) => resolve(`status ${res.statusCode}`));
  });
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\n\r\n`);
  req.write(randomBytes(256 * 1024));
  const trickle = setInterval(() => {
    if (!req.destroyed) req.write(randomBytes(1024));
  }, 100);
  ended.finally(() => clearInterval(trickle));
  const stop = () => {
    clearInterval(trickle);
    req.destroy();
  };
  return { ended, stop };
}

/** A plain TCP connection to the server, and everything it hears until the server closes it. */
async function rawConnection(url: string) {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let heard = '';
  socket.on('data', (chunk) => {
    heard += chunk;
  });
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(heard)));
  socket.on('error', () => {});
  return { socket, answer };
}

/** 40 wrong passwords at once (each a full scrypt), then 15 loads of the sign-in page and its config. */
async function signInBurst(url: string) {
  await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const res = await fetch(`${url}/api/idp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
        },
        body: JSON.stringify({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: 'practiceweb',
          AuthParameters: { USERNAME: `nobody${i}@example.test`, PASSWORD: 'Wrong-password-1' },
        }),
      });
      expect(res.status).toBe(400);
      await res.arrayBuffer();
    }),
  );
  for (let i = 0; i < 15; i++) {
    await Promise.all(
      ['/auth/login', '/api/config.js', '/api/ready'].map(async (p) =>
        (await fetch(`${url}${p}`)).arrayBuffer(),
      ),
    );
  }
}

const partsUnder = async (dir: string) => (await filesUnder(dir)).filter((f) => f.endsWith('.part'));

async function upload(url: string, token: string, folderId: string, name: string) {
  const form = new FormData();
  form.append('file', new Blob([randomBytes(10_000)]), name);
  const res = await fetch(`${url}/api/documents/upload?folderId=${folderId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
}

describe('stopping the server', () => {
  it('on SIGTERM closes an idle keep-alive connection, cuts a long upload after the grace period, removes its part, releases the lock and exits 0', async () => {
    const dataDir = tempDir();
    const filesDir = path.join(dataDir, 'files');
    const { token, folderId } = await seed(dataDir);
    const server = startServerProcess({ DATA_DIR: dataDir, PUBLIC_URL, SHUTDOWN_GRACE_MS: '1500' }, children);
    const url = await server.listening;

    // One request on a keep-alive connection, which then sits idle in the agent's pool.
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http
        .get(`${url}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        })
        .on('error', reject),
    );
    const upload = slowUpload(url, token, folderId);
    await expect.poll(() => partsUnder(filesDir), { timeout: 20_000 }).toHaveLength(1);
    // A load balancer's readiness probe, under way when the signal comes (its last line not sent).
    expect((await fetch(`${url}/api/ready`)).status).toBe(200);
    const probe = await rawConnection(url);
    probe.socket.write('GET /api/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n');

    const started = Date.now();
    server.child.kill('SIGTERM');
    await expect.poll(() => server.output(), { timeout: 5_000 }).toContain('shutting down');
    probe.socket.write('\r\n');
    const answer = await probe.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(await server.exited).toBe(0);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1500); // the upload had its grace period…
    expect(took).toBeLessThan(1500 + 5000); // …and the stop was not the forced one
    expect(await upload.ended).toMatch(/^error/);
    upload.stop();
    agent.destroy();
    expect(server.output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, 'db', '.practice.lock'))).toBe(false);
    expect(await partsUnder(filesDir)).toEqual([]);
  }, 120_000);

  it('on SIGTERM right after a burst of sign-ins and page loads, with nothing in flight, exits 0 within a second', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    const server = startServerProcess({ DATA_DIR: dataDir, PUBLIC_URL }, children);
    const url = await server.listening;
    await signInBurst(url);
    // An idle keep-alive connection, and one a browser opened and has not used yet.
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http
        .get(`${url}/api/ready`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        })
        .on('error', reject),
    );
    const spare = await rawConnection(url);

    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await spare.answer).toBe('');
    agent.destroy();
    expect(server.output()).not.toContain('grace period over');
  }, 120_000);

  it('after a SIGKILL mid-upload, starts again and the sweep removes the part and the unrecorded file, never a real one', async () => {
    const dataDir = tempDir();
    const filesDir = path.join(dataDir, 'files');
    const { token, folderId, orgId } = await seed(dataDir);
    const server = startServerProcess({ DATA_DIR: dataDir, PUBLIC_URL }, children);
    const url = await server.listening;
    await upload(url, token, folderId, 'kept.bin');
    const kept = await filesUnder(filesDir);
    expect(kept).toHaveLength(1);
    const slow = slowUpload(url, token, folderId);
    await expect.poll(() => partsUnder(filesDir), { timeout: 20_000 }).toHaveLength(1);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    slow.stop();
    const [part] = await partsUnder(filesDir);
    // A complete file whose version row never committed (the process died between the two).
    const unrecorded = `${orgId}/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`;
    fs.writeFileSync(path.join(filesDir, unrecorded), 'never recorded');

    // The stale lock (a dead process) does not stop the next start.
    const again = startServerProcess({ DATA_DIR: dataDir, PUBLIC_URL }, children);
    const url2 = await again.listening;
    expect((await fetch(`${url2}/api/health`)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);

    const t = await createTestApp({ DATA_DIR: dataDir, PUBLIC_URL }, { dataDir: path.join(dataDir, 'db') });
    try {
      const storage = t.storage;
      // Today nothing is old enough: an upload could still be on its way.
      expect(await sweepOrphanFiles(t.db, storage, new Date())).toMatchObject({ removed: 0 });
      expect(await filesUnder(filesDir)).toEqual([...kept, part, unrecorded].sort());
      const later = new Date(Date.now() + ORPHAN_MIN_AGE_MS + 60_000);
      expect(await sweepOrphanFiles(t.db, storage, later)).toMatchObject({ removed: 2, partial: 1 });
      expect(await filesUnder(filesDir)).toEqual(kept);
    } finally {
      await t.close();
    }
  }, 120_000);
});
