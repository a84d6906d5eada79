import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { TConfig } from '../config';
import { assertStorageKey, isStorageKey, putTracker, type TStorage } from './driver';

/** Parts of 5 MB (S3's minimum), two in flight: an upload holds about 10 MB whatever the file's size. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * The SDK's upload takes only Node's own Readable (an `instanceof` check): a stream from the
 * readable-stream package (archiver's zip, the firm export) is refused with "Body Data is
 * unsupported format". Any async-iterable stream is re-wrapped; its error still fails the upload.
 */
export function nodeReadable(body: Readable): Readable {
  return body instanceof Readable ? body : Readable.from(body);
}

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
  async function put(key: string, body: Readable, contentType: string | undefined) {
    assertStorageKey(key);
    // Multipart for a stream of unknown length; a failed upload is aborted (its parts dropped).
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: nodeReadable(body), ContentType: contentType },
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
  }
  const listUploads = (prefix: string, keyMarker?: string, uploadIdMarker?: string) =>
    client.send(
      new ListMultipartUploadsCommand({
        Bucket: bucket,
        Prefix: prefix,
        KeyMarker: keyMarker,
        UploadIdMarker: uploadIdMarker,
      }),
    );
  const puts = putTracker();
  return {
    driver: 's3',
    put(key, body, putOptions) {
      return puts.track(key, put(key, body, putOptions?.contentType));
    },
    writing: puts.writing,
    settle: puts.settle,
    async *list(prefix) {
      let token: string | undefined;
      do {
        const out = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of out.Contents ?? []) {
          if (object.Key && isStorageKey(object.Key)) {
            yield { key: object.Key, lastModified: object.LastModified ?? new Date(), partial: false };
          }
        }
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      // A process killed mid-upload leaves a multipart upload whose parts are billed until aborted.
      // Some S3-compatible servers cannot list them (s3rver): then a bucket lifecycle rule
      // (AbortIncompleteMultipartUpload) is the only way, and there is nothing to list here.
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      do {
        let out: Awaited<ReturnType<typeof listUploads>>;
        try {
          out = await listUploads(prefix, keyMarker, uploadIdMarker);
        } catch (error) {
          if ((error as { name?: string })?.name === 'NotImplemented') return;
          throw error;
        }
        for (const upload of out.Uploads ?? []) {
          if (upload.Key && upload.UploadId && isStorageKey(upload.Key)) {
            yield {
              key: upload.Key,
              lastModified: upload.Initiated ?? new Date(),
              partial: true,
              ref: upload.UploadId,
            };
          }
        }
        keyMarker = out.IsTruncated ? out.NextKeyMarker : undefined;
        uploadIdMarker = out.IsTruncated ? out.NextUploadIdMarker : undefined;
      } while (keyMarker);
    },
    async remove(object) {
      assertStorageKey(object.key);
      if (!object.partial) return this.delete(object.key);
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: object.key, UploadId: object.ref }))
        .catch((error) => {
          if (!isNotFound(error) && (error as { name?: string })?.name !== 'NoSuchUpload') throw error;
        });
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
