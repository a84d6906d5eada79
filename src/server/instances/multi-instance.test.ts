import { type ChildProcess, execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { and, eq } from 'drizzle-orm';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPostgres, type TDatabase } from '../db/client';
import { broadcastDeliveries, broadcasts, clients, jobs } from '../db/schema';
import { idpCall } from '../idp/test-helpers';
import { createTestApp } from '../test/app';
import { startS3 } from '../test/s3';
import { startServerProcess } from '../test/server-process';
import { readable, startSmtpServer } from '../test/smtp-server';
import { createDatabase, dropDatabase, POSTGRES_TEMPLATE_ENV } from '../test/templates';
import type { AppRouter } from '../trpc/router';
import { listInstances } from '.';

// Three server processes on one PostgreSQL database, with S3 storage and an SMTP server, as a firm's
// IT would run them behind a load balancer: a sign-in made on one holds on the others, a broadcast
// survives the stop of the instance sending it, an export made by one downloads through another,
// and an instance whose vault key disagrees refuses to start. PostgreSQL only (several instances
// cannot share embedded PGlite).

const baseUrl = process.env.DATABASE_URL;
const PUBLIC_URL = 'http://127.0.0.1';
const RECIPIENTS = 300;
const children: ChildProcess[] = [];
const dataDirs: string[] = [];
const dbName = `test_instances_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

let dbUrl = '';
let database: TDatabase['db'];
let pool: TDatabase;
let s3: Awaited<ReturnType<typeof startS3>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let env: Record<string, string>;
let servers: { url: string; child: ChildProcess; exited: Promise<unknown>; output: () => string }[] = [];
let firm: { orgId: string; token: string; tag: string };
/** An instance started with another key under the deployment's vault key id. */
let refused: ReturnType<typeof startServerProcess>;
const otherKey = randomBytes(32).toString('base64');

const api = (url: string, token?: string) =>
  createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${url}/api/trpc`,
        transformer: superjson,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
    ],
  });

function start(extra: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-instance-'));
  dataDirs.push(dataDir);
  return startServerProcess({ ...env, DATA_DIR: dataDir, ...extra }, children);
}

beforeAll(async () => {
  if (!baseUrl) return;
  await createDatabase(baseUrl, dbName, process.env[POSTGRES_TEMPLATE_ENV]);
  const target = new URL(baseUrl);
  target.pathname = `/${dbName}`;
  dbUrl = target.toString();
  [s3, smtp] = await Promise.all([startS3(), startSmtpServer()]);
  env = {
    DATABASE_URL: dbUrl,
    VAULT_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    PUBLIC_URL,
    SMTP_URL: smtp.url,
    ...s3.env,
    JOBS_POLL_MS: '100',
    DATABASE_POOL_MAX: '4',
    // The stopped instance finishes the pump's slice (at most 10 s) before it exits.
    SHUTDOWN_GRACE_MS: '20000',
  };
  // The firm and its clients, written by a test app on the same database (its tokens are valid on
  // every instance: one PUBLIC_URL, one identity provider's keys in the database).
  const setup = await createTestApp({ PUBLIC_URL }, { database: await openPostgres(dbUrl, { max: 2 }) });
  try {
    const seeded = await setup.seedFirm('Instances & Co');
    await setup
      .client(seeded.owner.token)
      .broadcasts.updateSettings.mutate({ ratePerSecond: 25, dailyCap: 5000 });
    const tag = `i-${randomUUID().slice(0, 6)}`;
    await setup.db.insert(clients).values(
      Array.from({ length: RECIPIENTS }, (_, i) => ({
        orgId: seeded.org.id,
        code: `C${i}`,
        name: `Client ${i}`,
        email: `client-${i}@example.test`,
        tags: [tag],
      })),
    );
    firm = { orgId: seeded.org.id, token: seeded.owner.token, tag };
  } finally {
    await setup.close();
  }
  // The first records the deployment's settings; the others start together, with the instance
  // whose vault key differs (its refusal is checked below).
  const first = start();
  await first.listening;
  refused = start({ VAULT_KEYS: `k1:${otherKey}` });
  const started = [first, start(), start()];
  const urls = await Promise.all(started.map((s) => s.listening));
  servers = started.map((s, i) => ({ ...s, url: urls[i] ?? '' }));
  pool = await openPostgres(dbUrl, { max: 2 });
  database = pool.db;
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await pool?.close();
  await s3?.close();
  await smtp?.close();
  if (baseUrl) await dropDatabase(baseUrl, dbName).catch(() => {});
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.runIf(baseUrl)('three instances on one PostgreSQL database', () => {
  it('register themselves, and a sign-up on one, confirmed on another and signed in on the third holds on all', async () => {
    const [a, b, c] = servers.map((s) => s.url) as [string, string, string];
    const registered = await listInstances(database);
    expect(
      registered
        .filter((r) => r.live)
        .map((r) => r.pid)
        .sort(),
    ).toEqual(servers.map((s) => s.child.pid).sort());
    const email = `person-${randomUUID().slice(0, 8)}@example.test`;
    const call = async (url: string, op: string, body: Record<string, unknown>) => {
      const res = await idpCall(`${url}/api/idp`, op, { ClientId: 'practiceweb', ...body });
      expect(res.status, `${op}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    };
    await call(a, 'SignUp', {
      Username: email,
      Password: 'Ledger#2026',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'given_name', Value: 'Ina' },
        { Name: 'family_name', Value: 'Stance' },
      ],
    });
    // The code is sent at the request, through the shared SMTP server: not in one instance's outbox.
    const code = await vi.waitFor(
      () => {
        const found = readable(smtp.received.findLast((m) => m.to.includes(email))).match(
          /verification code is (\d{6})/,
        )?.[1];
        if (!found) throw new Error(`no code mailed to ${email}`);
        return found;
      },
      { timeout: 10_000, interval: 20 },
    );
    await call(b, 'ConfirmSignUp', { Username: email, ConfirmationCode: code });
    const signedIn = (await call(c, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: 'Ledger#2026' },
    })) as { AuthenticationResult: { AccessToken: string; RefreshToken: string } };
    const token = signedIn.AuthenticationResult.AccessToken;
    for (const url of [a, b, c]) {
      expect(await api(url, token).onboarding.status.query()).toEqual({ hasFirm: false });
    }
    // Refreshed on another instance than the one that signed in.
    const refreshed = (await call(a, 'InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: signedIn.AuthenticationResult.RefreshToken },
    })) as { AuthenticationResult: { AccessToken: string } };
    expect(await api(b, refreshed.AuthenticationResult.AccessToken).onboarding.status.query()).toEqual({
      hasFirm: false,
    });
    // Signed out everywhere on one: refused on the others.
    await call(b, 'GlobalSignOut', { AccessToken: refreshed.AuthenticationResult.AccessToken });
    await expect(api(c, token).onboarding.status.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
  });

  it('refuse to start an instance whose vault key differs under the same id, naming VAULT_KEYS only; npm run instances lists the three', async () => {
    // The operator's command, with nothing but the database's address.
    const listed = new Promise<string>((resolve) => {
      const { DATABASE_URL: _ignored, VAULT_KEYS: _none, ...base } = process.env;
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/server/instances/cli.ts'],
        { env: { ...base, DATABASE_URL: dbUrl } },
        (_error, stdout, stderr) => resolve(stdout + stderr),
      );
    });
    expect(await refused.exited).toBe(1);
    const table = await listed;
    expect(table).toMatch(/Instances \(3 live\)/);
    for (const s of servers) expect(table).toContain(String(s.child.pid));
    expect(table).not.toContain(env.VAULT_KEYS?.slice(3));
    expect(refused.output()).toMatch(
      /Refusing to start: VAULT_KEYS: key "k1" is not the key this deployment recorded/,
    );
    expect(refused.output()).not.toContain(otherKey);
    expect(refused.output()).not.toContain(env.VAULT_KEYS?.slice(3));
  });

  // Once failed on S3 ("Body Data is unsupported format": the zip was not a Node stream).
  it('download the firm export made by one instance through the others (S3 storage)', async () => {
    const [a, b, c] = servers.map((s) => s.url) as [string, string, string];
    const { id } = await api(a, firm.token).firmExport.start.mutate({ includeVault: false });
    const ready = await vi.waitFor(
      async () => {
        const [row] = await api(b, firm.token).firmExport.list.query();
        if (row?.status !== 'ready') throw new Error(`the export is ${row?.status}: ${JSON.stringify(row)}`);
        return row;
      },
      { timeout: 25_000, interval: 200 },
    );
    expect(ready.id).toBe(id);
    for (const [issuer, reader] of [
      [a, b],
      [b, c],
    ] as const) {
      // A signed link made by one instance opens on another (the keyed-hash key is the deployment's).
      const { url } = await api(issuer, firm.token).links.issue.mutate({
        path: `/api/firm-exports/${id}/download`,
      });
      const res = await fetch(`${reader}${url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 2).toString()).toBe('PK');
    }
  }, 60_000);

  it('send a broadcast to every client exactly once while the instance sending it stops mid-send and another is killed', async () => {
    const [a] = servers.map((s) => s.url) as [string];
    const before = smtp.received.length;
    const created = await api(a, firm.token).broadcasts.create.mutate({
      subject: 'Year-end for {{client_name}}',
      bodyHtml: '<p>Dear {{client_name}}, your documents are due.</p>',
      audience: { tags: [firm.tag] },
      mode: 'client',
    });
    expect(created.recipients).toBe(RECIPIENTS);
    const sent = async () =>
      (
        await database
          .select({ id: broadcastDeliveries.id })
          .from(broadcastDeliveries)
          .where(and(eq(broadcastDeliveries.broadcastId, created.id), eq(broadcastDeliveries.state, 'sent')))
      ).length;
    // Mid-send: a sixth of the way, the instance whose worker holds the pump is stopped as a
    // rolling upgrade stops it (SIGTERM).
    const holder = await vi.waitFor(
      async () => {
        if ((await sent()) < RECIPIENTS / 6) throw new Error('not far enough yet');
        const [job] = await database
          .select({ lockedBy: jobs.lockedBy })
          .from(jobs)
          .where(and(eq(jobs.kind, 'broadcasts.pump'), eq(jobs.status, 'running')));
        const pid = Number(job?.lockedBy?.split(':')[1]);
        const server = servers.find((s) => s.child.pid === pid);
        if (!server) throw new Error(`no instance holds the pump (${job?.lockedBy})`);
        return server;
      },
      { timeout: 30_000, interval: 50 },
    );
    const atStop = await sent();
    expect(atStop).toBeLessThan(RECIPIENTS);
    // Another instance dies outright (SIGKILL) meanwhile: it held no delivery, so nothing waits on it.
    const bystander = servers.find((s) => s !== holder) as (typeof servers)[number];
    bystander.child.kill('SIGKILL');
    expect(await bystander.exited).toBe('SIGKILL');
    holder.child.kill('SIGTERM');
    expect(await holder.exited).toBe(0);
    // The one left carries on, nobody retrying anything.
    await vi.waitFor(
      async () => {
        const [row] = await database
          .select({ status: broadcasts.status })
          .from(broadcasts)
          .where(eq(broadcasts.id, created.id));
        if (row?.status !== 'completed')
          throw new Error(`the broadcast is ${row?.status}, ${await sent()} sent`);
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(await sent()).toBe(RECIPIENTS);
    const mails = smtp.received.slice(before).filter((m) => m.data.includes('Year-end for'));
    const recipients = mails.flatMap((m) => m.to).sort();
    expect(recipients).toHaveLength(RECIPIENTS);
    expect(new Set(recipients).size).toBe(RECIPIENTS);
  }, 90_000);
});
