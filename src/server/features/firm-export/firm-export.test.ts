import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import JSZip from 'jszip';
import { decrypt, readMessage } from 'openpgp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmExports, idpUsers, jobs, notifications, systemLog } from '../../db/schema';
import * as billingSchema from '../../db/schema/billing';
import { hashPassword } from '../../idp/passwords';
import { claimJobs } from '../../jobs/queue';
import { registeredJob } from '../../jobs/registry';
import { registerJobs } from '../../jobs/setup';
import { createWorker, type TWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedInvoice, seedReceipt } from '../../test/billing';
import { download, randomFile, sha256, uploadFile } from '../../test/files';
import { seedPortalUser } from '../../test/portal';
import { portalCookie } from '../../test/portal-world';
import { sweepOrphanFiles } from '../documents';
import { FIRM_EXPORT_JOB } from './service';
import { EXPORT_TABLES } from './tables';

const PASSWORD = 'Ledger#2026';
const PASSPHRASE = 'correct horse battery staple';
let t: TTestApp;
let dataDir: string;
let worker: TWorker;
let firm: Awaited<ReturnType<typeof seed>>;
let other: Awaited<ReturnType<TTestApp['seedFirm']>>;
const TRPC = (code: string) => expect.objectContaining({ data: expect.objectContaining({ code }) });

async function seed() {
  const f = await t.seedFirm('Export & Co');
  // The owner's identity, so the vault export can check their password.
  await t.db.insert(idpUsers).values({
    id: f.owner.sub as string,
    username: f.owner.email,
    usernameKey: f.owner.email,
    email: f.owner.email,
    emailVerified: true,
    status: 'CONFIRMED',
    passwordHash: await hashPassword(PASSWORD),
    srpSalt: 'x',
    srpVerifier: 'x',
  });
  const api = t.client(f.owner.token);
  const client = await api.clients.create.mutate({ code: 'C1', name: 'Rakesh Mehta' });
  const task = await api.tasks.create.mutate({
    title: 'File the GST return',
    clientId: client.id,
    checklist: [{ text: 'Collect invoices', done: true }, { text: 'Reconcile' }],
  });
  await api.tasks.comments.add.mutate({ taskId: task.id, body: 'Invoices are in, "quoted", and, commas' });
  await api.vault.create.mutate({
    title: 'GST portal',
    username: 'rakesh',
    password: 'S3cret!pw',
    clientId: client.id,
  });
  const root = await api.documents.open.mutate({ clientId: client.id });
  const sub = await api.documents.createFolder.mutate({ parentId: root.id, name: 'Returns' });
  const pdf = randomFile(70_000);
  const up = await uploadFile(t, f.owner.token, sub.id, 'return.bin', pdf);
  expect(up.status).toBe(201);
  const invoice = await seedInvoice(t, f.org.id, {
    clientId: client.id,
    lines: [{ description: 'Annual return, "final"', rate: 150_000 }],
  });
  const payment = await seedReceipt(t, f.org.id, {
    clientId: client.id,
    receivedOn: '2026-11-10',
    amount: 100_000,
    allocate: [{ invoiceId: invoice.id, amount: 100_000 }],
  });
  // A client request, answered in the portal with a file the firm has not accepted yet (held).
  const person = await seedPortalUser(t, { orgId: f.org.id, clientIds: [client.id] });
  const request = await api.requests.create.mutate({
    clientId: client.id,
    title: 'ITR documents',
    dueDate: '2099-07-31',
    recipientIds: [person.user.id],
    sections: [
      {
        title: 'Income',
        items: [
          { key: 'pan', kind: 'short_text', label: 'PAN' },
          { key: 'form16', kind: 'file', label: 'Form 16' },
        ],
      },
    ],
  });
  const items = (await api.requests.get.query({ requestId: request.id })).items;
  const itemOf = (key: string) => items.find((i) => i.key === key)?.id as string;
  await person.client.clientPortalRequests.answer.mutate({
    clientId: client.id,
    requestId: request.id,
    itemId: itemOf('pan'),
    value: 'ABCDE1234F',
  });
  const form16 = randomFile(5_000);
  const form = new FormData();
  form.append('file', new Blob([form16]), 'form16.bin');
  const query = new URLSearchParams({ clientId: client.id, requestId: request.id, itemId: itemOf('form16') });
  const held = await fetch(`${t.url}/api/clientportal/requests/upload?${query}`, {
    method: 'POST',
    headers: portalCookie(person.token),
    body: form,
  });
  expect(held.status).toBe(201);
  const requestFile = { requestId: request.id, fileId: ((await held.json()) as { id: string }).id, form16 };
  return { ...f, api, client, task, pdf, fileId: up.body.id, invoice, payment, requestFile };
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'firm-export-test-'));
  t = await createTestApp({ DATA_DIR: dataDir, VAULT_KEYS: `k1:${randomBytes(32).toString('base64')}` });
  registerJobs(t.storage);
  worker = createWorker(
    { db: t.db, config: t.config, mailer: t.mailer, log: { info() {}, warn() {}, error() {} } },
    { pollMs: 10, kinds: [FIRM_EXPORT_JOB] },
  );
  firm = await seed();
  other = await t.seedFirm('Other firm');
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function entry(zip: JSZip, name: string) {
  const file = zip.file(name);
  if (!file) throw new Error(`${name} is not in the zip`);
  return file;
}

async function drain() {
  for (let n = await worker.tick(); n > 0; n = await worker.tick()) {}
}

async function linkTo(token: string, pathname: string) {
  return (await t.client(token).links.issue.mutate({ path: pathname })).url;
}

async function readZip(exportId: string) {
  const url = await linkTo(firm.owner.token, `/api/firm-exports/${exportId}/download`);
  const res = await fetch(`${t.url}${url}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  return JSZip.loadAsync(new Uint8Array(await res.arrayBuffer()));
}

describe('the whole-firm export', () => {
  it('has a file for every billing table', () => {
    const exported = new Set(EXPORT_TABLES.map((spec) => getTableName(spec.table)));
    const billing = Object.values(billingSchema)
      .filter((v) => is(v, PgTable))
      .map((v) => getTableName(v as PgTable));
    expect(billing.length).toBe(10);
    expect(billing.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('is the owner’s alone, one at a time, and answers NOT_FOUND across firms', async () => {
    const staff = t.client(firm.staff.token);
    await expect(staff.firmExport.start.mutate({ includeVault: false })).rejects.toEqual(TRPC('FORBIDDEN'));
    await expect(staff.firmExport.list.query()).rejects.toEqual(TRPC('FORBIDDEN'));

    const { id } = await firm.api.firmExport.start.mutate({ includeVault: false });
    await expect(firm.api.firmExport.start.mutate({ includeVault: false })).rejects.toEqual(TRPC('CONFLICT'));
    await drain();
    // The other firm's owner can neither see it nor get a link to it.
    const otherApi = t.client(other.owner.token);
    expect(await otherApi.firmExport.list.query()).toEqual([]);
    await expect(otherApi.links.issue.mutate({ path: `/api/firm-exports/${id}/download` })).rejects.toEqual(
      TRPC('NOT_FOUND'),
    );
    await expect(staff.links.issue.mutate({ path: `/api/firm-exports/${id}/download` })).rejects.toEqual(
      TRPC('FORBIDDEN'),
    );
    // Nor can the bearer route be reached with the other firm's token.
    const direct = await download(t, other.owner.token, `/api/firm-exports/${id}/download`);
    expect(direct.res.status).toBe(404);
  });

  it('holds every kind of record as CSV and JSON, the links, and the documents in their tree', async () => {
    const { id } = await firm.api.firmExport.start.mutate({ includeVault: false });
    const [queued] = await firm.api.firmExport.list.query();
    expect(queued).toMatchObject({ id, status: 'queued' });
    await drain();
    const [ready] = await firm.api.firmExport.list.query();
    expect(ready).toMatchObject({ id, status: 'ready', done: ready?.total });
    expect(ready?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600_000);

    const zip = await readZip(id);
    const names = Object.keys(zip.files);
    for (const kind of ['clients', 'contacts', 'services', 'engagements', 'projects', 'tasks', 'reminders']) {
      expect(names).toContain(`${kind}.csv`);
      expect(names).toContain(`json/${kind}.json`);
    }
    for (const file of ['task-comments.csv', 'task-checklists.csv', 'system-log.csv', 'manifest.json'])
      expect(names).toContain(file);
    expect(names.some((n) => n.startsWith('vault/'))).toBe(false);

    const clientsJson = JSON.parse(await entry(zip, 'json/clients.json').async('string'));
    expect(clientsJson).toEqual([
      expect.objectContaining({ id: firm.client.id, code: 'C1', name: 'Rakesh Mehta' }),
    ]);
    const tasksJson = JSON.parse(await entry(zip, 'json/tasks.json').async('string'));
    expect(tasksJson[0]).toMatchObject({ id: firm.task.id, clientId: firm.client.id });
    const checklist = await entry(zip, 'task-checklists.csv').async('string');
    expect(checklist).toContain('Collect invoices');
    expect(checklist).toContain(firm.task.id);
    const comments = await entry(zip, 'task-comments.csv').async('string');
    expect(comments).toContain('"Invoices are in, ""quoted"", and, commas"');
    const log = await entry(zip, 'system-log.csv').async('string');
    expect(log).toContain('firm.export.start');

    const manifest = JSON.parse(await entry(zip, 'manifest.json').async('string'));
    expect(manifest.links).toContainEqual({ from: 'tasks.clientId', to: 'clients.id' });
    expect(manifest.links).toContainEqual({ from: 'task-comments.taskId', to: 'tasks.id' });
    expect(manifest.files).toContainEqual(expect.objectContaining({ name: 'clients', rows: 1 }));

    // Billing: the invoice with its line and balance, the payment and what it settled.
    const invoicesJson = JSON.parse(await entry(zip, 'json/invoices.json').async('string'));
    expect(invoicesJson).toEqual([
      expect.objectContaining({
        id: firm.invoice.id,
        clientId: firm.client.id,
        number: firm.invoice.number,
        total: 150_000,
        amountPaid: 100_000,
        balance: 50_000,
        status: 'partly_paid',
      }),
    ]);
    expect(await entry(zip, 'invoice-lines.csv').async('string')).toContain('"Annual return, ""final"""');
    const paymentsJson = JSON.parse(await entry(zip, 'json/payments.json').async('string'));
    expect(paymentsJson).toEqual([expect.objectContaining({ id: firm.payment.id, amount: 100_000 })]);
    const allocationsJson = JSON.parse(await entry(zip, 'json/allocations.json').async('string'));
    expect(allocationsJson).toEqual([
      expect.objectContaining({ invoiceId: firm.invoice.id, paymentId: firm.payment.id, amount: 100_000 }),
    ]);
    const counters = JSON.parse(await entry(zip, 'json/invoice-counters.json').async('string'));
    expect(counters).toEqual([expect.objectContaining({ series: 'INV', lastSeq: 1 })]);
    for (const name of [
      'billing-settings',
      'client-billing',
      'disbursements',
      'invoice-reminder-steps',
      'invoice-deliveries',
    ])
      expect(names).toContain(`${name}.csv`);
    expect(manifest.links).toContainEqual({ from: 'allocations.paymentId', to: 'payments.id' });
    expect(manifest.links).toContainEqual({ from: 'invoice-lines.invoiceId', to: 'invoices.id' });
    // Client requests (issue 36): requests and their items with the answers, linked to each other.
    for (const name of [
      'request-templates',
      'requests',
      'request-recipients',
      'request-items',
      'request-item-files',
    ])
      expect(names).toContain(`${name}.csv`);
    expect(manifest.links).toContainEqual({ from: 'request-items.requestId', to: 'requests.id' });
    // Proposals (issue 37): the tables and their links; the signers' secrets stay out.
    for (const name of ['proposal-templates', 'proposals', 'proposal-signers', 'proposal-events'])
      expect(names).toContain(`${name}.csv`);
    expect(manifest.links).toContainEqual({ from: 'proposal-signers.proposalId', to: 'proposals.id' });
    expect(manifest.links).toContainEqual({ from: 'proposals.documentId', to: 'documents.id' });
    const signerHeader = (await entry(zip, 'proposal-signers.csv').async('string')).split('\n')[0] ?? '';
    expect(signerHeader).not.toMatch(/linkHash|codeHash|sessionHash/);
    expect(manifest.links).toContainEqual({ from: 'request-item-files.documentId', to: 'documents.id' });
    expect(manifest.links).toContainEqual({ from: 'request-item-files.itemId', to: 'request-items.id' });
    // Client messages (issue 38): threads, people, messages and their files, linked.
    for (const name of [
      'message-threads',
      'message-thread-members',
      'message-thread-contacts',
      'messages',
      'message-attachments',
      'messages-held',
    ])
      expect(names).toContain(`${name}.csv`);
    expect(manifest.links).toContainEqual({ from: 'messages.threadId', to: 'message-threads.id' });
    // Automations (issue 41): stages, rules and their runs.
    for (const name of ['project-template-stages', 'automation-rules', 'automation-runs'])
      expect(names).toContain(`${name}.csv`);
    expect(manifest.links).toContainEqual({
      from: 'project-template-stages.templateId',
      to: 'project-templates.id',
    });
    expect(manifest.links).toContainEqual({ from: 'message-attachments.documentId', to: 'documents.id' });
    const requestItemsJson = JSON.parse(await entry(zip, 'json/request-items.json').async('string'));
    expect(requestItemsJson).toContainEqual(
      expect.objectContaining({ requestId: firm.requestFile.requestId, key: 'pan', value: 'ABCDE1234F' }),
    );
    const requestFilesJson = JSON.parse(await entry(zip, 'json/request-item-files.json').async('string'));
    expect(requestFilesJson).toEqual([
      expect.objectContaining({ id: firm.requestFile.fileId, name: 'form16.bin', documentId: null }),
    ]);
    // The file the firm has not accepted yet, byte for byte, under its client and request.
    const heldFile = entry(
      zip,
      `requests/Rakesh Mehta (C1)/ITR documents (${firm.requestFile.requestId})/form16.bin`,
    );
    expect(sha256(await heldFile.async('uint8array'))).toBe(sha256(firm.requestFile.form16));
    expect(manifest.requestFiles).toEqual({ folder: 'requests/', files: 1 });

    // The document, byte for byte, under its client and folder; nothing of the other firm.
    const doc = entry(zip, 'documents/Rakesh Mehta (C1)/Returns/return.bin');
    expect(sha256(await doc.async('uint8array'))).toBe(sha256(firm.pdf));
    expect(JSON.stringify(names)).not.toContain('Other firm');

    // Logged: the start by the owner, the file ready by the system, the download; and announced.
    const actions = (
      await t.db
        .select()
        .from(systemLog)
        .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, id)))
    ).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['firm.export.start', 'firm.export.ready', 'firm.export.download']),
    );
    const notes = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.memberId, firm.owner.id), eq(notifications.kind, 'firm.export')));
    expect(notes.length).toBeGreaterThan(0);

    // The orphan sweep leaves a day-old export alone (its row names the file), and the request file
    // held with its item (request_item_files names it, as the backup reads it).
    const swept = await sweepOrphanFiles(t.db, t.storage, new Date(Date.now() + 2 * 24 * 3600_000));
    expect(swept.removed).toBe(0);
  });

  it('puts the vault in only with the owner’s password, encrypted with their passphrase', async () => {
    await expect(
      firm.api.firmExport.start.mutate({
        includeVault: true,
        password: 'Wrong#pass1',
        passphrase: PASSPHRASE,
      }),
    ).rejects.toEqual(TRPC('BAD_REQUEST'));
    await expect(
      firm.api.firmExport.start.mutate({
        includeVault: true,
        password: PASSWORD,
        passphrase: 'short',
      } as never),
    ).rejects.toEqual(TRPC('BAD_REQUEST'));
    const { id } = await firm.api.firmExport.start.mutate({
      includeVault: true,
      password: PASSWORD,
      passphrase: PASSPHRASE,
    });
    const [row] = await t.db.select().from(firmExports).where(eq(firmExports.id, id));
    expect(row?.passphraseSealed).not.toContain(PASSPHRASE);
    await drain();
    const [done] = await t.db.select().from(firmExports).where(eq(firmExports.id, id));
    expect(done).toMatchObject({ status: 'ready', passphraseSealed: null });

    const zip = await readZip(id);
    const sealed = await entry(zip, 'vault/vault-passwords.csv.gpg').async('uint8array');
    expect(Buffer.from(sealed).includes(Buffer.from('S3cret!pw'))).toBe(false);
    const message = await readMessage({ binaryMessage: sealed });
    await expect(decrypt({ message, passwords: ['not the passphrase'], format: 'binary' })).rejects.toThrow();
    const { data } = await decrypt({
      message: await readMessage({ binaryMessage: sealed }),
      passwords: [PASSPHRASE],
      format: 'binary',
    });
    const csv = Buffer.from(data as Uint8Array).toString('utf8');
    expect(csv).toContain('GST portal');
    expect(csv).toContain('S3cret!pw');
    const [start] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.recordId, id), eq(systemLog.action, 'firm.export.start_with_vault')));
    expect(start).toBeTruthy();
  });

  it('is built again within half a minute when the instance building it dies', async () => {
    const { id } = await firm.api.firmExport.start.mutate({ includeVault: false });
    // An instance claims the job, marks the export running, and dies: nothing renews its lease.
    const leaseMs = registeredJob(FIRM_EXPORT_JOB)?.leaseMs ?? 0;
    const claimedAt = Date.now();
    const [claimed] = await claimJobs(t.db, 'dead-instance', 1, { [FIRM_EXPORT_JOB]: leaseMs });
    expect(claimed?.payload).toEqual({ exportId: id });
    await t.db
      .update(firmExports)
      .set({ status: 'running', step: 'Adding documents' })
      .where(eq(firmExports.id, id));
    const [held] = await t.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, claimed?.id as string));
    // Held for the short default lease, not for hours: the owner waits that long at most.
    expect(held?.lockedUntil?.getTime()).toBeLessThanOrEqual(claimedAt + 31_000);
    await drain();
    expect((await firm.api.firmExport.list.query())[0]).toMatchObject({ id, status: 'running' });
    await expect(firm.api.firmExport.start.mutate({ includeVault: false })).rejects.toEqual(TRPC('CONFLICT'));
    // As if that half minute had passed.
    await t.db
      .update(jobs)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, claimed?.id as string));
    await drain();
    expect((await firm.api.firmExport.list.query())[0]).toMatchObject({ id, status: 'ready' });
    const zip = await readZip(id);
    expect(zip.file('manifest.json')).toBeTruthy();
  });

  it('is removed by the expiry job after its days, and its link then opens nothing', async () => {
    const { id } = await firm.api.firmExport.start.mutate({ includeVault: false });
    await drain();
    const [row] = await t.db.select().from(firmExports).where(eq(firmExports.id, id));
    const url = await linkTo(firm.owner.token, `/api/firm-exports/${id}/download`);
    await t.db
      .update(firmExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(firmExports.id, id));
    const expireWorker = createWorker(
      { db: t.db, config: t.config, mailer: t.mailer, log: { info() {}, warn() {}, error() {} } },
      { pollMs: 10, kinds: ['firmExport.expire'] },
    );
    const { enqueue } = await import('../../jobs/queue');
    await enqueue(t.db, 'firmExport.expire', {}, { dedupeKey: `test-expire-${randomUUID()}` });
    for (let n = await expireWorker.tick(); n > 0; n = await expireWorker.tick()) {}
    const [gone] = await t.db.select().from(firmExports).where(eq(firmExports.id, id));
    expect(gone).toMatchObject({ status: 'expired', storageKey: null });
    expect(await t.storage.head(row?.storageKey as string)).toBeNull();
    expect((await fetch(`${t.url}${url}`)).status).toBe(404);
    const [logged] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.recordId, id), eq(systemLog.action, 'firm.export.expired')));
    expect(logged?.actorKind).toBe('system');
  });
});

describe('signed links', () => {
  const docPath = () => `/api/documents/${firm.fileId}/download`;

  it('stream a file without the staff token, for minutes, for that route and object only', async () => {
    const url = await linkTo(firm.owner.token, docPath());
    expect(url).toMatch(/\?link=/);
    const res = await fetch(`${t.url}${url}`);
    expect(res.status).toBe(200);
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(firm.pdf));
    // Each use is logged as a download by the member the link was issued to.
    const rows = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.recordId, firm.fileId), eq(systemLog.action, 'documents.file.download')));
    expect(rows.at(-1)?.actorMemberId).toBe(firm.owner.id);
  });

  it('refuse tampering, another object, another purpose and expiry', async () => {
    const url = await linkTo(firm.owner.token, docPath());
    const token = new URL(url, t.url).searchParams.get('link') as string;
    const [payload, mac] = token.split('.') as [string, string];
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const reSigned = (claims: object) =>
      `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${mac}`;
    const status = async (p: string) => (await fetch(`${t.url}${p}`)).status;

    // Tampered: a longer life, or the signature of another payload.
    expect(
      await status(
        `${docPath()}?link=${encodeURIComponent(reSigned({ ...forged, e: forged.e + 3600_000 }))}`,
      ),
    ).toBe(403);
    expect(
      await status(`${docPath()}?link=${encodeURIComponent(`${payload}.${'0'.repeat(mac.length)}`)}`),
    ).toBe(403);
    // Another object, another version, another purpose (the preview of the same file), the zip route.
    const other = await uploadFile(
      t,
      firm.owner.token,
      (await firm.api.documents.open.mutate({ clientId: firm.client.id })).id,
      'other.bin',
      randomFile(100),
    );
    expect(await status(`/api/documents/${other.body.id}/download?link=${encodeURIComponent(token)}`)).toBe(
      403,
    );
    expect(await status(`${docPath()}?version=1&link=${encodeURIComponent(token)}`)).toBe(403);
    expect(await status(`/api/documents/${firm.fileId}/preview?link=${encodeURIComponent(token)}`)).toBe(403);
    // A route that takes no links, and no link at all.
    expect(await status(`/api/clients/export.csv?link=${encodeURIComponent(token)}`)).toBe(403);
    expect(await status(docPath())).toBe(401);
    // Expired.
    const { signLink } = await import('../../http/signed-links');
    const { secretBox } = await import('../vault');
    const box = secretBox(t.config, t.db);
    const old = await signLink((d) => box.mac(d), { ...forged, e: undefined }, Date.now() - 10 * 60_000);
    expect(await status(old.url)).toBe(403);
    const fresh = await signLink((d) => box.mac(d), { ...forged, e: undefined });
    expect(await status(fresh.url)).toBe(200);
  });

  it('are issued only after the route’s own checks: permission, and the other firm’s ids are NOT_FOUND', async () => {
    const otherApi = t.client(other.owner.token);
    await expect(otherApi.links.issue.mutate({ path: docPath() })).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(
      otherApi.links.issue.mutate({ path: `/api/documents/${randomUUID()}/preview` }),
    ).rejects.toEqual(TRPC('NOT_FOUND'));
    // The staff role here has no documents.view.
    await expect(t.client(firm.staff.token).links.issue.mutate({ path: docPath() })).rejects.toEqual(
      TRPC('FORBIDDEN'),
    );
    await expect(firm.api.links.issue.mutate({ path: '/api/health' })).rejects.toEqual(TRPC('NOT_FOUND'));
    await expect(firm.api.links.issue.mutate({ path: 'https://evil.test/api/x' })).rejects.toEqual(
      TRPC('BAD_REQUEST'),
    );
    // A link of one firm's member does not open the other firm's file either: the route checks again.
    const mine = await linkTo(other.owner.token, '/api/systemlog/export.csv');
    const res = await fetch(`${t.url}${mine}`);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('Export & Co');
  });
});
