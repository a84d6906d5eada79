import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openPostgres, type TDb } from '../db/client';
import { notifications, systemLog } from '../db/schema';
import { idpCall } from '../idp/test-helpers';
import { periodicJobs, registeredJob } from '../jobs/registry';
import { createTestApp, type TTestApp } from '../test/app';
import { seedInvoice, seedReceipt } from '../test/billing';
import { randomFile, sha256, uploadFile } from '../test/files';
import { signedUpUser } from '../test/idp-user';
import { createDatabase, dropDatabase } from '../test/templates';
import { BackupError } from './archive';
import { createBackup } from './create';
import type { TManifest } from './manifest';
import { restoreBackup } from './restore';
import {
  BACKUP_CHECK_MS,
  BACKUP_SCHEDULED,
  notifyBackupFailed,
  pruneBackups,
  registerBackupJob,
  scheduledName,
} from './schedule';
import { requestServerBackup, startBackupSocket } from './socket';

// Back up a small firm while requests keep writing, restore into a fresh target, and find exactly
// one moment: everything acknowledged before the backup began, a prefix of what was written during
// it, people signing in with their passwords, documents opening, vault entries revealing.

const pgUrl = process.env.DATABASE_URL;
const engine = pgUrl ? 'postgres' : 'pglite';
const KEY = randomBytes(32).toString('base64');
const VAULT_KEYS = `k1:${KEY}`;
const PASSWORD = 'Ledger#2026';

let root: string;
let src: TTestApp;
const created: string[] = [];

/** Every table's rows as sorted JSON texts. */
async function allRows(db: TDb): Promise<Map<string, string[]>> {
  const tables = (await db.execute(
    sql`select table_schema || '.' || table_name as name from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows: { name: string }[] };
  const out = new Map<string, string[]>();
  for (const { name } of tables.rows) {
    const [schema, table] = name.split('.') as [string, string];
    const rows = (await db.execute(
      sql`select to_jsonb(t)::text as j from ${sql.identifier(schema)}.${sql.identifier(table)} t`,
    )) as unknown as { rows: { j: string }[] };
    out.set(name, rows.rows.map((r) => r.j).sort());
  }
  return out;
}

/** A target to restore into: an empty DATA_DIR, and on PostgreSQL an empty database. */
async function target(name: string, vaultKeys = VAULT_KEYS) {
  const dataDir = path.join(root, name);
  let url: string | undefined;
  if (pgUrl) {
    const db = `test_restore_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await createDatabase(pgUrl, db);
    created.push(db);
    const u = new URL(pgUrl);
    u.pathname = `/${db}`;
    url = u.toString();
  }
  const env = { DATA_DIR: dataDir, VAULT_KEYS: vaultKeys, ...(url ? { DATABASE_URL: url } : {}) };
  return { dataDir, url, env, config: loadConfig({ ...env, NODE_ENV: 'test' }) };
}

let archive: string;
let manifest: TManifest;
let before: Map<string, string[]>;
let after: Map<string, string[]>;
const acknowledged: string[] = [];
const beforeFiles: { id: string; sha: string }[] = [];
let firm: Awaited<ReturnType<TTestApp['seedFirm']>>;
let vaultEntry: { id: string; password: string };
let billed: { invoiceId: string; number: string | null; paymentId: string };
let latencyMs = 0;

const t0 = performance.now();
const step = (what: string) =>
  process.env.BACKUP_TEST_TRACE && console.log(`${Math.round(performance.now() - t0)} ms: ${what}`);

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'practice-backup-'));
  const dataDir = path.join(root, 'source');
  src = await createTestApp(
    { DATA_DIR: dataDir, VAULT_KEYS },
    pgUrl ? {} : { dataDir: path.join(dataDir, 'db') },
  );
  step('firm = await src.seedFirm');
  firm = await src.seedFirm('Backed Up & Co');
  const api = src.client(firm.owner.token);
  const client = await api.clients.create.mutate({ code: 'C001', name: 'Rakesh Mehta' });
  const folder = await api.documents.open.mutate({ clientId: client.id });
  for (let i = 0; i < 3; i++) {
    const bytes = randomFile(20_000 + i);
    const up = await uploadFile(src, firm.owner.token, folder.id, `scan-${i}.pdf`, bytes);
    expect(up.status).toBe(201);
    beforeFiles.push({ id: up.body.id, sha: sha256(bytes) });
  }
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const entry = await api.vault.create.mutate({ title: 'GST portal', clientId: client.id, password });
  vaultEntry = { id: entry.id, password };
  // Billing: an invoice partly paid by a receipt.
  const invoice = await seedInvoice(src, firm.org.id, {
    clientId: client.id,
    lines: [{ description: 'Annual accounts', rate: 250_000 }],
  });
  const payment = await seedReceipt(src, firm.org.id, {
    clientId: client.id,
    receivedOn: '2026-11-20',
    amount: 90_000,
    tdsAmount: 10_000,
    allocate: [{ invoiceId: invoice.id, amount: 100_000 }],
  });
  billed = { invoiceId: invoice.id, number: invoice.number, paymentId: payment.id };
  // A person of the identity provider, with a password (its users live in the database).
  await signedUpUser(
    {
      endpoint: `${src.url}/api/idp`,
      clientId: src.config.idp.clientId,
      outboxDir: src.config.mail.outboxDir,
    },
    { email: 'lee@backed.test', password: PASSWORD },
  );
  step('before = await allRows(src.db)');
  before = await allRows(src.db);

  // The write load: clients one after another, and now and then a file, until the backup is done.
  let stop = false;
  const load = (async () => {
    for (let i = 0; !stop; i++) {
      const t = performance.now();
      const c = await api.clients.create.mutate({
        code: `L${String(i).padStart(4, '0')}`,
        name: `Load ${i}`,
      });
      if (i % 5 === 0) {
        const up = await uploadFile(src, firm.owner.token, folder.id, `load-${i}.bin`, randomFile(5_000));
        expect(up.status).toBe(201);
      }
      latencyMs = Math.max(latencyMs, performance.now() - t);
      acknowledged.push(c.id);
      // A busy firm, not a flood: a flood on one PGlite thread starves everything, backup or not.
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  while (acknowledged.length < 3) await new Promise((r) => setTimeout(r, 20));
  step('latencyMs = 0;');
  latencyMs = 0;
  archive = path.join(root, 'backup.tar.gz');
  const started = performance.now();
  try {
    if (pgUrl) {
      const { vaultKeyring } = await import('../features/vault');
      manifest = (
        await createBackup({
          database: src.database,
          storage: src.storage,
          keyring: await vaultKeyring(src.config),
          out: archive,
        })
      ).manifest;
    } else {
      // As `npm run backup` does while the server runs: over the socket in DATA_DIR.
      const socket = await startBackupSocket({
        config: src.config,
        database: src.database,
        storage: src.storage,
      });
      try {
        await requestServerBackup(dataDir, archive);
      } finally {
        await socket.close();
      }
    }
  } finally {
    stop = true;
    await load;
  }
  step('const tookMs');
  const tookMs = performance.now() - started;
  after = await allRows(src.db);
  const check = path.join(root, 'check');
  const { unpackVerified } = await import('./archive');
  step('manifest ??=');
  manifest ??= await unpackVerified(archive, check);
  console.log(
    `[${engine}] backup took ${Math.round(tookMs)} ms; database held for ${manifest.blockedMs} ms; slowest write during it ${Math.round(latencyMs)} ms; ${acknowledged.length} clients written meanwhile`,
  );
}, 240_000);

afterAll(async () => {
  await src?.close();
  if (pgUrl) for (const db of created) await dropDatabase(pgUrl, db).catch(() => {});
  await fs.rm(root, { recursive: true, force: true });
});

describe(`backup and restore (${engine})`, () => {
  it('restores one moment: all acknowledged before, a prefix of what came during; sign-in, files, vault', async () => {
    expect(manifest.engine).toBe(engine);
    expect(manifest.vault.keyIds).toEqual(['k1']);
    expect(JSON.stringify(manifest)).not.toContain(KEY);
    expect(manifest.migration.tag).toMatch(/^\d{4}_/);

    const to = await target('restored');
    const restored = await restoreBackup({ config: to.config, file: archive });
    expect(restored.tables).toEqual(manifest.tables);
    const app = await createTestApp(
      to.env,
      to.url
        ? { database: await openPostgres(to.url, { max: 3 }) }
        : { dataDir: path.join(to.dataDir, 'db') },
    );
    try {
      const rows = await allRows(app.db);
      expect([...rows.keys()]).toEqual([...before.keys()]);
      for (const [table, list] of rows) {
        // Every API call rewrites its caller's rate-limit counter, so a counter acknowledged before
        // the backup may rightly be newer in it (the calls made during the backup).
        if (table === 'public.rate_limit_counters') continue;
        const now = new Set(list);
        const later = new Set(after.get(table));
        expect(
          before.get(table)?.filter((r) => !now.has(r)),
          `${table}: acknowledged rows missing`,
        ).toEqual([]);
        expect(
          list.filter((r) => !later.has(r)),
          `${table}: rows the source never had`,
        ).toEqual([]);
      }
      // One moment: the clients written during the backup that are in it are the first n of them.
      const ids = new Set(
        (rows.get('public.clients') ?? []).map((r) => (JSON.parse(r) as { id: string }).id),
      );
      const n = acknowledged.filter((id) => ids.has(id)).length;
      expect(acknowledged.slice(0, n).every((id) => ids.has(id))).toBe(true);
      expect(Object.values(manifest.tables).reduce((a, b) => a + b, 0)).toBe(
        [...rows.values()].reduce((a, l) => a + l.length, 0),
      );

      // Every stored file the database names is there with its checksum.
      const versions = (await app.db.execute(
        sql`select storage_key as key, checksum_sha256 as sha from document_versions`,
      )) as unknown as { rows: { key: string; sha: string }[] };
      expect(versions.rows.length).toBe(manifest.files.count);
      for (const v of versions.rows) {
        const body = await app.storage.get(v.key);
        const hash = createHash('sha256');
        for await (const chunk of body ?? []) hash.update(chunk as Buffer);
        expect(hash.digest('hex'), v.key).toBe(v.sha);
      }
      // People sign in with their passwords; documents open; the vault reveals.
      const signIn = await idpCall(`${app.url}/api/idp`, 'InitiateAuth', {
        ClientId: app.config.idp.clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'lee@backed.test', PASSWORD },
      });
      expect(signIn.status).toBe(200);
      const token = await app.tokenFor(firm.owner.sub ?? '');
      for (const f of beforeFiles) {
        const res = await fetch(`${app.url}/api/documents/${f.id}/download`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(f.sha);
      }
      const revealed = await app.client(token).vault.reveal.mutate({ id: vaultEntry.id });
      expect(revealed.password).toBe(vaultEntry.password);
      // The invoice with its number and what was paid of it, and the receipt that paid it.
      const money = (await app.db.execute(sql`select i.number, i.total, i.amount_paid, i.balance,
          i.status, p.amount, p.tds_amount, a.amount as allocated
        from invoices i join allocations a on a.org_id = i.org_id and a.invoice_id = i.id
        join payments p on p.org_id = a.org_id and p.id = a.payment_id
        where i.id = ${billed.invoiceId} and p.id = ${billed.paymentId}`)) as unknown as {
        rows: Record<string, unknown>[];
      };
      expect(
        money.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)]))),
      ).toEqual([
        {
          number: billed.number,
          total: '250000',
          amount_paid: '100000',
          balance: '150000',
          status: 'partly_paid',
          amount: '90000',
          tds_amount: '10000',
          allocated: '100000',
        },
      ]);
    } finally {
      await app.close();
    }

    // The same target again: not empty any more.
    await expect(restoreBackup({ config: to.config, file: archive })).rejects.toThrow(/not empty/);
  }, 60_000);

  it('refuses a wrong vault key and a tampered archive, writing nothing', async () => {
    const wrong = await target('wrong-key', `k1:${randomBytes(32).toString('base64')}`);
    const refused = restoreBackup({ config: wrong.config, file: archive });
    await expect(refused).rejects.toThrow(BackupError);
    await expect(refused).rejects.toThrow(
      'The vault key "k1" given is not the key this backup was made with',
    );
    const other = await target('other-key', `k9:${KEY}`);
    await expect(restoreBackup({ config: other.config, file: archive })).rejects.toThrow(
      /needs the vault key "k1"/,
    );
    expect(await fs.readdir(wrong.dataDir).catch(() => [])).toEqual([]);

    // One byte of one stored file changed, the manifest left as it was (the rest of the archive
    // can stay out: the changed member is found first).
    const member = manifest.members.find((m) => m.path.startsWith('files/'));
    if (!member) throw new Error('no file in the archive');
    const dir = path.join(root, 'tamper');
    await fs.mkdir(dir);
    await tar.extract({ file: archive, cwd: dir }, ['manifest.json', member.path]);
    const bytes = await fs.readFile(path.join(dir, member.path));
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    await fs.writeFile(path.join(dir, member.path), bytes);
    const tampered = path.join(root, 'tampered.tar.gz');
    await tar.create({ gzip: true, file: tampered, cwd: dir }, ['manifest.json', member.path]);
    const fresh = await target('tampered');
    await expect(restoreBackup({ config: fresh.config, file: tampered })).rejects.toThrow(
      `The archive was altered or damaged: ${member.path} does not match its checksum`,
    );
    expect(await fs.readdir(fresh.dataDir).catch(() => [])).toEqual([]);
  }, 60_000);

  it('schedules daily backups on PGlite, keeps the newest, and tells each owner of a failure', async () => {
    const kept = path.join(root, 'scheduled');
    await fs.mkdir(kept);
    const names = [0, 1, 2].map((d) => scheduledName(new Date(Date.UTC(2026, 10, 20 + d, 2))));
    for (const n of [...names, 'mine.tar.gz']) await fs.writeFile(path.join(kept, n), '');
    expect(await pruneBackups(kept, 2)).toEqual([names[0]]);
    expect((await fs.readdir(kept)).sort()).toEqual(['mine.tar.gz', names[1], names[2]].sort());

    // A backup directory that cannot be made: the job fails for good and the owner hears of it.
    const blocked = path.join(root, 'not-a-directory');
    await fs.writeFile(blocked, '');
    const config = loadConfig({
      DATA_DIR: path.join(root, 'source'),
      VAULT_KEYS,
      BACKUP_DIR: path.join(blocked, 'x'),
    });
    expect(config.backup).toMatchObject({ intervalHours: 24, keep: 7 });
    registerBackupJob({ config, database: src.database, storage: src.storage });
    const job = registeredJob(BACKUP_SCHEDULED);
    if (engine === 'postgres') {
      // PostgreSQL is backed up with its own tools: no scheduled job; the notice still works.
      expect(job).toBeUndefined();
      await notifyBackupFailed(src.db, 'disk full');
    } else {
      expect(periodicJobs()).toContainEqual([BACKUP_SCHEDULED, BACKUP_CHECK_MS]);
      const log = { info() {}, warn() {}, error() {} };
      const run = job?.handler(
        {
          id: 'j',
          kind: BACKUP_SCHEDULED,
          payload: null,
          attempts: 1,
          maxAttempts: 5,
          orgId: null,
          runAt: new Date(),
        },
        { db: src.db, config, mailer: src.mailer, log },
      );
      await expect(run).rejects.toThrow(/ENOTDIR|not a directory/);
    }
    const notices = await src.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, 'backup.failed'), eq(notifications.memberId, firm.owner.id)));
    expect(notices).toHaveLength(1);
    expect(notices[0]?.title).toBe('The scheduled backup failed');
    const logged = await src.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'backup.failed')));
    expect(logged).toHaveLength(1);
    // Only the owner: the staff member hears nothing.
    const staff = await src.db.select().from(notifications).where(eq(notifications.memberId, firm.staff.id));
    expect(staff.filter((n) => n.kind === 'backup.failed')).toEqual([]);
  });
});
