import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, type TStorage } from '../../files/storage';
import { createTestApp, type TTestApp } from '../../test/app';
import { download, randomFile, sha256, uploadFile } from '../../test/files';
import { startS3 } from '../../test/s3';
import { purgeTrash } from './trash';

// The same flows as documents.test.ts, against S3-compatible storage (s3rver on loopback).
const MAX = 8 * 1024 * 1024;
let s3: Awaited<ReturnType<typeof startS3>>;
let t: TTestApp;
let storage: TStorage;
let s3Client: S3Client;

beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ ...s3.env, UPLOAD_MAX_BYTES: String(MAX) });
  storage = await createStorage(t.config);
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

describe('S3 storage', () => {
  it('streams a multipart upload in and out with its checksum, refuses an oversized one, purges', {
    timeout: 180_000,
  }, async () => {
    expect(storage.driver).toBe('s3');
    const firm = await t.seedFirm('S3 firm');
    const api = t.client(firm.owner.token);
    const root = await api.documents.open.mutate({ clientId: null });
    // Larger than one 5 MB part, so the SDK's multipart path runs.
    const bytes = randomFile(6 * 1024 * 1024 + 123);
    const up = await uploadFile(t, firm.owner.token, root.id, 'scan.bin', bytes);
    expect(up.status).toBe(201);
    const keys = await objectKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${firm.org.id}/[0-9a-f-]{36}$`));

    const { res, bytes: back } = await download(t, firm.owner.token, `/api/documents/${up.body.id}/download`);
    expect(res.status).toBe(200);
    expect(back.length).toBe(bytes.length);
    expect(sha256(back)).toBe(sha256(bytes));
    expect(res.headers.get('x-checksum-sha256')).toBe(sha256(bytes));

    const tooBig = await uploadFile(t, firm.owner.token, root.id, 'huge.bin', randomFile(MAX + 1024));
    expect(tooBig.status).toBe(413);
    expect(await objectKeys()).toEqual(keys);

    await api.documents.delete.mutate({ documentId: up.body.id });
    const purged = await purgeTrash(t.db, storage, new Date(Date.now() + 31 * 24 * 3600 * 1000));
    expect(purged).toMatchObject({ files: 1, objects: 1 });
    expect(await objectKeys()).toEqual([]);
  });
});
