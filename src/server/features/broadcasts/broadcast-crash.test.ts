import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openPostgres, type TDatabase } from '../../db/client';
import { broadcastDeliveries, broadcastSettings, clients } from '../../db/schema';
import { createTestApp } from '../../test/app';
import { startServerProcess } from '../../test/server-process';
import { startSmtpServer } from '../../test/smtp-server';
import { createDatabase, dropDatabase, POSTGRES_TEMPLATE_ENV } from '../../test/templates';
import { STOPPED_WHILE_SENDING } from './pump';

// The instance sending a broadcast is killed (SIGKILL) in the middle of a claimed batch; the next
// instance on the same database carries on within a minute. What the dead one claimed but never
// handed to the SMTP server is sent (once); only what it had handed over may be left as "may have
// arrived". On PGlite by default; on PostgreSQL when DATABASE_URL is set.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-broadcast-crash-'));
const children: ChildProcess[] = [];
const baseUrl = process.env.DATABASE_URL;
const pgName = baseUrl ? `test_bcrash_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}` : null;
let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await smtp?.close();
  if (baseUrl && pgName) await dropDatabase(baseUrl, pgName).catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a broadcast whose instance is killed mid-batch', () => {
  it('is carried on by the next instance within a minute, sending what was never handed over', async () => {
    smtp = await startSmtpServer();
    let dbUrl: string | undefined;
    if (baseUrl && pgName) {
      await createDatabase(baseUrl, pgName, process.env[POSTGRES_TEMPLATE_ENV]);
      const target = new URL(baseUrl);
      target.pathname = `/${pgName}`;
      dbUrl = target.toString();
    }
    const sameDatabase = async (): Promise<{ dataDir?: string; database?: TDatabase }> =>
      dbUrl ? { database: await openPostgres(dbUrl, { max: 5 }) } : { dataDir: path.join(dataDir, 'db') };
    const vaultKeys = `k1:${randomBytes(32).toString('base64')}`;
    const env = {
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://127.0.0.1',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Practice <no-reply@practice.test>',
      VAULT_KEYS: vaultKeys,
    };

    // A firm of 40 clients, sending 5 a second: each claimed batch is 5, handed over one by one.
    const n = 40;
    const setup = await createTestApp(env, await sameDatabase());
    const firm = await setup.seedFirm('Crash Broadcasts');
    const tag = `crash-${randomUUID().slice(0, 6)}`;
    await setup.db.insert(clients).values(
      Array.from({ length: n }, (_, i) => ({
        orgId: firm.org.id,
        code: `B${i}`,
        name: `Client ${i}`,
        email: `client${i}@crash.test`,
        tags: [tag],
      })),
    );
    await setup.db
      .insert(broadcastSettings)
      .values({ orgId: firm.org.id, ratePerSecond: 5 })
      .onConflictDoUpdate({ target: broadcastSettings.orgId, set: { ratePerSecond: 5 } });
    const created = await setup
      .client(firm.owner.token)
      .broadcasts.create.mutate({ subject: 'News', bodyHtml: '<p>News.</p>', audience: { tags: [tag] } });
    expect(created.recipients).toBe(n);
    await setup.close();

    const first = startServerProcess(
      { ...env, JOBS_ENABLED: 'true', JOBS_POLL_MS: '50', ...(dbUrl ? { DATABASE_URL: dbUrl } : {}) },
      children,
    );
    await first.listening;
    const received = smtp.received;
    await vi.waitFor(
      () => {
        if (received.length < 3) throw new Error(`${received.length} sent`);
      },
      { timeout: 60_000, interval: 5 },
    );
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const sentBefore = received.length;
    expect(sentBefore).toBeLessThan(n);

    // The next instance, on the same database. What the dead one handed over was handed before this.
    const restartedAt = new Date();
    const next = await createTestApp(
      { ...env, JOBS_ENABLED: 'true', JOBS_POLL_MS: '50' },
      await sameDatabase(),
    );
    try {
      const deliveries = () =>
        next.db
          .select()
          .from(broadcastDeliveries)
          .where(
            and(eq(broadcastDeliveries.orgId, firm.org.id), eq(broadcastDeliveries.broadcastId, created.id)),
          );
      const handedByTheDead = (d: typeof broadcastDeliveries.$inferSelect) =>
        d.state !== 'sent' && d.handedAt !== null && d.handedAt < restartedAt;
      // Everything but what the dead instance had handed over is sent within the minute.
      const rows = await vi.waitFor(
        async () => {
          const all = await deliveries();
          const open = all.filter((d) => d.state !== 'sent' && !handedByTheDead(d));
          if (open.length) throw new Error(`${open.length} deliveries still to send`);
          return all;
        },
        { timeout: 60_000, interval: 100 },
      );
      // At most the messages in their SMTP conversation at the kill (one batch): left "sending" until
      // their claim runs out, then "may have arrived"; never sent again by themselves.
      const handed = rows.filter(handedByTheDead);
      expect(handed.length).toBeLessThanOrEqual(5);
      for (const d of handed) {
        expect(['sending', 'failed']).toContain(d.state);
        if (d.state === 'failed') expect(d.error).toBe(STOPPED_WHILE_SENDING);
      }
      // Each sent delivery arrived exactly once; nobody got two.
      const count = new Map<string, number>();
      for (const m of received) for (const to of m.to) count.set(to, (count.get(to) ?? 0) + 1);
      for (const d of rows) {
        if (d.state === 'sent') expect(count.get(d.email), d.email).toBe(1);
        else expect(count.get(d.email) ?? 0).toBeLessThanOrEqual(1);
      }
    } finally {
      await next.close();
    }
  }, 180_000);
});
