import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { eq } from 'drizzle-orm';
import superjson from 'superjson';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres, type TDatabase } from '../../db/client';
import { clientImports, clients } from '../../db/schema';
import { createTestApp } from '../../test/app';
import { startServerProcess } from '../../test/server-process';
import { createDatabase, dropDatabase, POSTGRES_TEMPLATE_ENV } from '../../test/templates';
import type { AppRouter } from '../../trpc/router';

// The server killed (SIGKILL) while an import steps through its rows; the import is continued on the
// next server over the same database. Each row counts once: the import ends at 3,000 of 3,000, as
// it does without the kill. On PGlite by default; on PostgreSQL when DATABASE_URL is set.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-import-crash-'));
const children: ChildProcess[] = [];
const baseUrl = process.env.DATABASE_URL;
const pgName = baseUrl ? `test_icrash_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}` : null;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (baseUrl && pgName) await dropDatabase(baseUrl, pgName).catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('an import cut by a killed server', () => {
  it('resumes on the next server and counts each row once', async () => {
    let dbUrl: string | undefined;
    if (baseUrl && pgName) {
      await createDatabase(baseUrl, pgName, process.env[POSTGRES_TEMPLATE_ENV]);
      const target = new URL(baseUrl);
      target.pathname = `/${pgName}`;
      dbUrl = target.toString();
    }
    const sameDatabase = async (): Promise<{ dataDir?: string; database?: TDatabase }> =>
      dbUrl ? { database: await openPostgres(dbUrl, { max: 5 }) } : { dataDir: path.join(dataDir, 'db') };
    const env = { DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1' };
    const setup = await createTestApp(env, await sameDatabase());
    const firm = await setup.seedFirm('Import Crash & Co');
    await setup.close();

    const server = startServerProcess(
      {
        ...env,
        JOBS_ENABLED: 'false',
        ...(dbUrl ? { DATABASE_URL: dbUrl, VAULT_KEYS: `k1:${randomBytes(32).toString('base64')}` } : {}),
      },
      children,
    );
    const url = await server.listening;
    const n = 3000;
    const lines = ['Name,Email'];
    for (let i = 1; i <= n; i++) lines.push(`Cut ${i},cut${i}@import.test`);
    const form = new FormData();
    form.append('file', new Blob([`${lines.join('\r\n')}\r\n`]), 'clients.csv');
    const res = await fetch(`${url}/api/clients/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${firm.owner.token}` },
      body: form,
    });
    const { importId } = (await res.json()) as { importId: string };
    expect(res.status).toBe(200);
    const api = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${url}/api/trpc`,
          transformer: superjson,
          headers: { authorization: `Bearer ${firm.owner.token}` },
        }),
      ],
    });
    await api.clients.import.step.mutate({ importId });
    // The next step is in flight when the server dies.
    const cut = api.clients.import.step.mutate({ importId }).catch(() => null);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    await cut;

    const next = await createTestApp(env, await sameDatabase());
    try {
      const again = next.client(firm.owner.token);
      const resumed = await again.clients.import.get.query({ importId });
      expect(resumed.processedRows).toBeLessThanOrEqual(n);
      let summary = resumed;
      for (let i = 0; i < 20 && summary.status !== 'done'; i++) {
        summary = await again.clients.import.step.mutate({ importId });
        expect(summary.processedRows).toBeLessThanOrEqual(n);
      }
      expect(summary).toMatchObject({ status: 'done', totalRows: n, processedRows: n });
      expect(summary.counts).toEqual({ new: 0, imported: n, duplicate: 0, error: 0 });
      const imported = await next.db
        .select({ id: clients.id })
        .from(clients)
        .where(eq(clients.orgId, firm.org.id));
      expect(imported).toHaveLength(n);
      const [stored] = await next.db.select().from(clientImports).where(eq(clientImports.id, importId));
      expect(stored).toMatchObject({ processedRows: n, totalRows: n });
    } finally {
      await next.close();
    }
  }, 180_000);
});
