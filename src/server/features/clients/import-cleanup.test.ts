import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IMPORT_BATCH } from '../../../domain/client-import';
import { clientImportRows, clientImports, clients, jobs } from '../../db/schema';
import { CLIENT_IMPORTS_PURGE, registerJobs } from '../../jobs/setup';
import { createWorker, type TWorker } from '../../jobs/worker';
import { createMailer } from '../../mail/mailer';
import { createTestApp, type TTestApp } from '../../test/app';
import { CLIENT_IMPORT_RETENTION_DAYS } from './import-cleanup';

let t: TTestApp;
let worker: TWorker;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  t = await createTestApp();
  registerJobs(t.storage);
  worker = createWorker(
    { db: t.db, config: t.config, mailer: createMailer(t.config.mail), log: silent },
    { pollMs: 10 },
  );
});
afterAll(() => t?.close());

const DAY_MS = 24 * 60 * 60_000;
const csv = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

async function upload(token: string, text: string) {
  const form = new FormData();
  form.append('file', new Blob([text]), 'clients.csv');
  const res = await fetch(`${t.url}/api/clients/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { importId?: string; message?: string };
  expect(res.status, body.message).toBe(200);
  return body.importId as string;
}

/** As if the import was last touched `days` ago. */
async function age(importId: string, days: number) {
  const at = new Date(Date.now() - days * DAY_MS);
  await t.db
    .update(clientImports)
    .set({ updatedAt: at, createdAt: at })
    .where(eq(clientImports.id, importId));
}

async function drain() {
  let total = 0;
  for (let n = await worker.tick(); n > 0; n = await worker.tick()) total += n;
  return total;
}

const rowCount = async (importId: string) =>
  (await t.db.select().from(clientImportRows).where(eq(clientImportRows.importId, importId))).length;

describe('client import clean-up', () => {
  it('deletes imports finished or abandoned over a week ago with their rows, keeps recent ones and the clients', async () => {
    const firm = await t.seedFirm('Cleaners');
    const other = await t.seedFirm('Other firm');
    const api = t.client(firm.owner.token);
    const old = CLIENT_IMPORT_RETENTION_DAYS + 1;

    // Finished a week and a day ago: its report has had its week; the client it made stays.
    const finished = await upload(firm.owner.token, csv('Name,Email', 'Asha Rao,asha@rao.test'));
    expect((await api.clients.import.step.mutate({ importId: finished })).status).toBe('done');
    await age(finished, old);

    // Stopped part-way (a closed tab) and never resumed.
    const many = Array.from({ length: CLIENT_IMPORT_BATCH + 2 }, (_, i) => `Client ${i + 1},`);
    const stopped = await upload(firm.owner.token, csv('Name,Email', ...many));
    expect((await api.clients.import.step.mutate({ importId: stopped })).status).toBe('importing');
    await age(stopped, old);

    // Previews nobody ran, more than one purge batch of them, in two firms.
    const previews = [];
    for (let i = 0; i < 6; i++) {
      const owner = i % 2 ? other.owner : firm.owner;
      const id = await upload(owner.token, csv('Name', `Preview ${i}`));
      await age(id, old);
      previews.push(id);
    }

    // Kept: finished today, and a preview six days old.
    const recentDone = await upload(firm.owner.token, csv('Name', 'Kapoor Textiles'));
    await api.clients.import.step.mutate({ importId: recentDone });
    const recentPreview = await upload(firm.owner.token, csv('Name', 'Nair Logistics'));
    await age(recentPreview, CLIENT_IMPORT_RETENTION_DAYS - 1);

    const stale = [finished, stopped, ...previews];
    expect(await rowCount(stopped)).toBe(CLIENT_IMPORT_BATCH + 2);
    await drain();

    const left = await t.db
      .select({ id: clientImports.id })
      .from(clientImports)
      .where(inArray(clientImports.id, [...stale, recentDone, recentPreview]));
    expect(left.map((r) => r.id).sort()).toEqual([recentDone, recentPreview].sort());
    for (const id of stale) expect(await rowCount(id)).toBe(0);
    expect(await rowCount(recentPreview)).toBe(1);
    expect(await rowCount(recentDone)).toBe(1);

    // The member's screens answer as for any import that is gone.
    await expect(api.clients.import.get.query({ importId: finished })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect(await api.clients.import.unfinished.query()).toBeNull();
    const names = (await t.db.select().from(clients).where(eq(clients.orgId, firm.org.id))).map(
      (c) => c.name,
    );
    expect(names).toEqual(expect.arrayContaining(['Asha Rao', 'Kapoor Textiles', 'Client 1']));

    const runs = await t.db.select().from(jobs).where(eq(jobs.kind, CLIENT_IMPORTS_PURGE));
    expect(runs.map((r) => r.status)).toEqual(['done']);
  });
});
