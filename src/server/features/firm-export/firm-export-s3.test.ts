import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerJobs } from '../../jobs/setup';
import { createWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { download, randomFile, sha256, uploadFile } from '../../test/files';
import { startS3 } from '../../test/s3';
import { FIRM_EXPORT_JOB } from './service';

// The export on S3-compatible storage (s3rver on loopback): what several instances must use. The zip
// is archiver's stream, which the SDK's upload once refused ("Body Data is unsupported format").

let s3: Awaited<ReturnType<typeof startS3>>;
let t: TTestApp;
let s3Client: S3Client;

beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp(s3.env);
  registerJobs(t.storage);
  s3Client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  s3Client?.destroy();
  await t?.close();
  await s3?.close();
});

const objectKeys = async () =>
  ((await s3Client.send(new ListObjectsV2Command({ Bucket: s3.env.S3_BUCKET }))).Contents ?? [])
    .map((o) => o.Key ?? '')
    .sort();

describe('the whole-firm export on S3', () => {
  it('round-trips a document, then writes the export to the bucket and serves it', {
    timeout: 180_000,
  }, async () => {
    expect(t.storage.driver).toBe('s3');
    const firm = await t.seedFirm('S3 Export & Co');
    const api = t.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'S1', name: 'Asha Rao' });
    const root = await api.documents.open.mutate({ clientId: client.id });
    // Over one 5 MB part: the document and then the zip take the SDK's multipart path.
    const bytes = randomFile(5 * 1024 * 1024 + 4321);
    const up = await uploadFile(t, firm.owner.token, root.id, 'ledger.bin', bytes);
    expect(up.status).toBe(201);
    const back = await download(t, firm.owner.token, `/api/documents/${up.body.id}/download`);
    expect(back.res.status).toBe(200);
    expect(sha256(back.bytes)).toBe(sha256(bytes));
    const before = await objectKeys();
    expect(before).toHaveLength(1);

    const { id } = await api.firmExport.start.mutate({ includeVault: false });
    const worker = createWorker(
      { db: t.db, config: t.config, mailer: t.mailer, log: { info() {}, warn() {}, error() {} } },
      { pollMs: 10, kinds: [FIRM_EXPORT_JOB] },
    );
    while ((await worker.tick()) > 0) {}
    const [ready] = await api.firmExport.list.query();
    expect(ready).toMatchObject({ id, status: 'ready', error: null });
    // The zip is an object of its own in the bucket, beside the document.
    const after = await objectKeys();
    expect(after).toHaveLength(2);
    expect(after.filter((k) => !before.includes(k))[0]).toMatch(new RegExp(`^${firm.org.id}/`));

    const got = await download(t, firm.owner.token, `/api/firm-exports/${id}/download`);
    expect(got.res.status).toBe(200);
    expect(got.bytes.length).toBe(ready?.size);
    const zip = await JSZip.loadAsync(got.bytes);
    const doc = zip.file('documents/Asha Rao (S1)/ledger.bin');
    expect(doc).toBeTruthy();
    expect(sha256((await doc?.async('uint8array')) ?? new Uint8Array())).toBe(sha256(bytes));
    const clientsJson = JSON.parse((await zip.file('json/clients.json')?.async('string')) ?? '[]');
    expect(clientsJson).toEqual([expect.objectContaining({ id: client.id, code: 'S1' })]);
  });
});
