import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { eq } from 'drizzle-orm';
import superjson from 'superjson';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openPostgres, type TDatabase } from '../db/client';
import { jobs } from '../db/schema';
import { createTestApp } from '../test/app';
import { startServerProcess } from '../test/server-process';
import { createDatabase, dropDatabase, POSTGRES_TEMPLATE_ENV } from '../test/templates';
import type { AppRouter } from '../trpc/router';
import { MAIL_SEND, readOutbox } from '.';

// The server process killed (SIGKILL) after a change committed and before its mail was sent: the
// mail was queued in the change's transaction, so the next server on the same database sends it,
// exactly once. On PGlite by default; on PostgreSQL when DATABASE_URL is set.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-mail-crash-'));
const outboxDir = path.join(dataDir, 'mail');
const children: ChildProcess[] = [];
const baseUrl = process.env.DATABASE_URL;
const pgName = baseUrl ? `test_crash_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}` : null;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (baseUrl && pgName) await dropDatabase(baseUrl, pgName).catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const startServer = (env: Record<string, string>) => startServerProcess(env, children);

describe('a server killed between the commit and the send', () => {
  it('sends the mail once, from the next server on the same database', async () => {
    let dbUrl: string | undefined;
    if (baseUrl && pgName) {
      await createDatabase(baseUrl, pgName, process.env[POSTGRES_TEMPLATE_ENV]);
      const target = new URL(baseUrl);
      target.pathname = `/${pgName}`;
      dbUrl = target.toString();
    }
    // The same database each time: the PGlite directory the server uses, or the PostgreSQL one.
    const sameDatabase = async (): Promise<{ dataDir?: string; database?: TDatabase }> =>
      dbUrl ? { database: await openPostgres(dbUrl, { max: 5 }) } : { dataDir: path.join(dataDir, 'db') };
    const env = { DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1' };

    // A firm and the identity provider's keys, written by a test app that then closes.
    const setup = await createTestApp(env, await sameDatabase());
    const firm = await setup.seedFirm('Crash & Co');
    await setup.close();

    // The server with its jobs off, so nothing can send before the kill: the invitation commits,
    // its mail waits in the queue.
    const server = startServer({
      ...env,
      JOBS_ENABLED: 'false',
      ...(dbUrl ? { DATABASE_URL: dbUrl, VAULT_KEYS: `k1:${randomBytes(32).toString('base64')}` } : {}),
    });
    const url = await server.listening;
    const api = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${url}/api/trpc`,
          transformer: superjson,
          headers: { authorization: `Bearer ${firm.owner.token}` },
        }),
      ],
    });
    const invited = await api.team.invite.mutate({
      email: 'after-crash@example.test',
      roleId: firm.roles.staff.id,
    });
    expect(invited.email).toBe('after-crash@example.test');
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    expect(await readOutbox(outboxDir)).toEqual([]);

    // The next server on the same database, with its jobs on.
    const next = await createTestApp(
      { ...env, JOBS_ENABLED: 'true', JOBS_POLL_MS: '50' },
      await sameDatabase(),
    );
    try {
      const sent = await vi.waitFor(
        async () => {
          const [job] = await next.db.select().from(jobs).where(eq(jobs.kind, MAIL_SEND));
          if (job?.status !== 'done') throw new Error(`the mail job is ${job?.status ?? 'missing'}`);
          return readOutbox(outboxDir);
        },
        // The new server's worker has every periodic job of its own to run besides this one: on a
        // busy 2-core machine its first ticks have taken over 20 s.
        { timeout: 60_000, interval: 50 },
      );
      expect(sent.map((m) => m.to)).toEqual(['after-crash@example.test']);
      expect(sent[0]?.subject).toBe('Olivia Owner invited you to join Crash & Co');
      // More polls send nothing more.
      await next.worker?.tick();
      await next.worker?.tick();
      expect(await readOutbox(outboxDir)).toHaveLength(1);
      expect(
        await next.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.kind, MAIL_SEND)),
      ).toEqual([{ status: 'done' }]);
      // And its link opens the invitation the killed server committed.
      const key = sent[0]?.notes.link?.split('/auth/invite/')[1] ?? '';
      expect(await next.client().invites.preview.query({ key })).toMatchObject({
        state: 'open',
        email: 'after-crash@example.test',
      });
    } finally {
      await next.close();
    }
  }, 120_000);
});
