import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { TConfig } from '../config';
import { assertStorageKey, type TStorage } from './driver';

/** Parts of 5 MB (S3's minimum), two in flight: an upload holds about 10 MB whatever the file's size. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/** S3-compatible object storage through the AWS SDK v3 (AWS, MinIO, R2, s3rver in tests). */
export function createS3Storage(options: TConfig['storage']['s3']): TStorage {
  const bucket = options.bucket;
  if (!bucket) throw new Error('S3_BUCKET is required when STORAGE_DRIVER is s3');
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
  });
  return {
    driver: 's3',
    async put(key, body, putOptions) {
      assertStorageKey(key);
      // Multipart for a stream of unknown length; a failed upload is aborted (its parts dropped).
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key, Body: body, ContentType: putOptions?.contentType },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => {});
        throw error;
      }
    },
    async get(key) {
      assertStorageKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        // In Node the SDK's body is an http.IncomingMessage: a Readable.
        return (out.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async head(key) {
      assertStorageKey(key);
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: Number(out.ContentLength ?? 0) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertStorageKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
