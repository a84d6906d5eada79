import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import superjson from 'superjson';
import { ALL_PERMISSIONS } from '../../domain/permissions';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openPglite, type TDatabase } from '../db/client';
import { members, orgs, roles } from '../db/schema';
import { listenHttps } from '../http/https-listener';
import { signTokens } from '../idp/tokens';
import { MAIL_JOB_KINDS, registerMailJobs } from '../jobs/setup';
import { createWorker, type TWorker } from '../jobs/worker';
import { readOutbox } from '../mail';
import type { AppRouter } from '../trpc/router';
import { createTestDatabase } from './database';
import { PGLITE_TEMPLATE_ENV } from './templates';

export type TTestApp = Awaited<ReturnType<typeof createTestApp>>;

/** The real server on a loopback port over a fresh database, as the browser would reach it. */
export async function createTestApp(
  env: Record<string, string> = {},
  /** dataDir: a PGlite directory to open (or create); database: one already open (closed with the app). */
  options: { dataDir?: string; port?: number; database?: TDatabase; webDir?: string } = {},
) {
  const database: TDatabase =
    options.database ??
    (options.dataDir
      ? await openPglite(options.dataDir, { templateFile: process.env[PGLITE_TEMPLATE_ENV] })
      : await createTestDatabase());
  // A data directory of its own unless the test names one: the files, the mail outbox and the vault
  // key live under it, and one shared by every test app let a test in the other worker take this
  // one's files (the orphan sweep removes whatever its own database does not name, every firm's).
  const ownDataDir = env.DATA_DIR ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'practice-test-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: ownDataDir ?? '',
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    // A test that needs background jobs turns them on (or drives a worker itself).
    JOBS_ENABLED: 'false',
    ...env,
  });
  const { app, keys, staffAuth, worker, storage, mailer, inboundSmtp } = await buildApp({
    config,
    database,
    logger: false,
    ...(options.webDir ? { webDir: options.webDir } : {}),
  });
  // As main.ts: the HTTPS listener (HTTPS_PORT) before the plain one.
  await listenHttps(app, config);
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  /** A tRPC client that calls as the browser does: batched GET queries, POST mutations. */
  function client(token?: string | (() => string | undefined)) {
    return createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${url}/api/trpc`,
          transformer: superjson,
          headers: () => {
            const value = typeof token === 'function' ? token() : token;
            return value ? { authorization: `Bearer ${value}` } : {};
          },
        }),
      ],
    });
  }

  /** Mints id and access tokens as the embedded identity provider would after a sign-in. */
  function tokensFor(sub: string, username = sub) {
    if (!keys) throw new Error('tokens are minted by the embedded identity provider only');
    return signTokens(keys, {
      issuer: staffAuth.issuer,
      clientId: config.idp.clientId,
      subject: {
        sub,
        username,
        email: `${username}@example.test`,
        emailVerified: true,
        authTime: Math.floor(Date.now() / 1000),
        originJti: randomUUID(),
      },
    });
  }

  async function tokenFor(sub: string, username = sub) {
    return (await tokensFor(sub, username)).accessToken;
  }

  /** A firm with an owner and a staff role; returns ids and signed-in clients. */
  async function seedFirm(name = 'Firm') {
    const db = database.db;
    const [org] = await db.insert(orgs).values({ name }).returning();
    if (!org) throw new Error('org not created');
    const [ownerRole, staffRole] = await db
      .insert(roles)
      .values([
        { orgId: org.id, name: 'Owner', permissions: [...ALL_PERMISSIONS] },
        { orgId: org.id, name: 'Staff', permissions: ['clients.view', 'tasks.view'] },
      ])
      .returning();
    if (!ownerRole || !staffRole) throw new Error('roles not created');
    const ownerSub = randomUUID();
    const staffSub = randomUUID();
    const [owner, staff] = await db
      .insert(members)
      .values([
        {
          orgId: org.id,
          sub: ownerSub,
          email: `owner-${ownerSub}@example.test`,
          firstName: 'Olivia',
          lastName: 'Owner',
          roleId: ownerRole.id,
          isOwner: true,
          isVerified: true,
        },
        {
          orgId: org.id,
          sub: staffSub,
          email: `staff-${staffSub}@example.test`,
          firstName: 'Sam',
          lastName: 'Staff',
          roleId: staffRole.id,
          isVerified: true,
        },
      ])
      .returning();
    if (!owner || !staff) throw new Error('members not created');
    return {
      org,
      roles: { owner: ownerRole, staff: staffRole },
      owner: { ...owner, token: await tokenFor(ownerSub) },
      staff: { ...staff, token: await tokenFor(staffSub) },
    };
  }

  let mailWorker: TWorker | null = null;
  /**
   * Sends the queued mail that is due, as the job worker would (with the app's mailer), until none
   * is left; answers how many jobs ran. Mail is queued in each change's transaction and sent by the
   * worker, which test apps do not run (JOBS_ENABLED=false): a test that reads the outbox calls
   * this first, or waits for it with vi.waitFor when the app runs its own worker.
   */
  async function sendQueuedMail(): Promise<number> {
    registerMailJobs();
    mailWorker ??= createWorker(
      { db: database.db, config, mailer, log: { info() {}, warn() {}, error() {} } },
      // One at a time, oldest first: the outbox's order is the order the changes queued their mail.
      { pollMs: 50, kinds: MAIL_JOB_KINDS, batchSize: 1 },
    );
    let total = 0;
    for (let n = await mailWorker.tick(); n > 0; n = await mailWorker.tick()) total += n;
    return total;
  }

  return {
    app,
    config,
    database,
    worker,
    storage,
    mailer,
    /** Inbound mail's SMTP listener (its port once listening), when the env turns it on. */
    inboundSmtp,
    sendQueuedMail,
    /** The outbox (no SMTP_URL) after sending the queued mail that is due. */
    async outbox() {
      await sendQueuedMail();
      return readOutbox(config.mail.outboxDir);
    },
    db: database.db,
    url,
    client,
    tokenFor,
    tokensFor,
    seedFirm,
    async close() {
      // As main.ts does after its grace period: a connection still open after a while (a test's
      // fetch pool can hold one the server does not count as idle) is cut, so closing never hangs.
      const cut = setTimeout(() => app.server.closeAllConnections(), 5_000);
      await app.close().finally(() => clearTimeout(cut));
      await database.close();
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}
