import { createHash } from 'node:crypto';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { ZDocumentName } from '../../../domain/documents';
import { formatBytes } from '../../../domain/format';
import type { TStorage } from '../../files/storage';
import type { TStoredUpload } from './files';
import { SNIFF_BYTES, sniffContentType } from './sniff';

// The streaming half of an upload, shared by the staff route, the client portal's and the public
// API's (multipart or the raw body): one file per request, streamed to storage while its size,
// checksum and type are taken.

/** Multipart for one upload route scope (the rest of the API keeps its 1 MB JSON bodies). */
export async function registerMultipart(scoped: FastifyInstance, maxBytes: number) {
  await scoped.register(multipart, {
    // A name is kept as typed ("../x" included): it is only ever a name, never a path.
    preservePath: true,
    limits: { fileSize: maxBytes + 1, files: 1, fields: 5, parts: 10 },
    throwFileSizeLimit: false,
  });
}

class TooLarge extends Error {}

/**
 * Counts, hashes and keeps the first bytes of an upload as it passes, and fails the stream the
 * moment it goes past the limit, so an oversized file is never stored whole.
 */
class UploadMeter extends Transform {
  // Not "size": the S3 uploader would take a numeric size property for the stream's total length.
  bytes = 0;
  private hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.max) return done(new TooLarge());
    this.hash.update(chunk);
    if (this.headBytes < SNIFF_BYTES) {
      this.head.push(chunk.subarray(0, SNIFF_BYTES - this.headBytes));
      this.headBytes += Math.min(chunk.length, SNIFF_BYTES - this.headBytes);
    }
    done(null, chunk);
  }
  checksum() {
    return this.hash.digest('hex');
  }
  firstBytes() {
    return Buffer.concat(this.head);
  }
}

type TUploadDeps = { storage: TStorage; maxBytes: number };

const fail = (code: TRPCError['code'], message: string): never => {
  throw new TRPCError({ code, message });
};

/**
 * Streams the request's multipart file to storage under the firm's prefix (see storeUpload).
 * Throws the answer to a bad upload, and returns null when the browser went away; the caller
 * records the upload and deletes `storageKey` if recording fails.
 */
export async function receiveUpload(
  req: FastifyRequest,
  deps: TUploadDeps,
  orgId: string,
): Promise<TStoredUpload | null> {
  if (!req.isMultipart()) return fail('BAD_REQUEST', 'Send the file as multipart/form-data');
  const part = await req.file().catch(() => undefined);
  if (!part) return fail('BAD_REQUEST', 'Choose a file to upload');
  return storeUpload(req, deps, orgId, {
    name: part.filename ?? '',
    declaredType: part.mimetype,
    bytes: part.file,
  });
}

/**
 * The same for a request whose body is the file itself (the public API's raw upload): its name is
 * given beside it (a query parameter or Content-Disposition), its declared type is Content-Type.
 */
export async function receiveRawUpload(
  req: FastifyRequest,
  deps: TUploadDeps,
  orgId: string,
  file: { name: string; declaredType: string },
): Promise<TStoredUpload | null> {
  return storeUpload(req, deps, orgId, { ...file, bytes: req.raw });
}

/**
 * The one path every upload's bytes take: the name checked, the bytes streamed to storage while
 * their size, checksum and first bytes are taken, the type read from those bytes. A file that
 * breaks the limit or is cut off leaves nothing behind.
 */
async function storeUpload(
  req: FastifyRequest,
  deps: TUploadDeps,
  orgId: string,
  file: { name: string; declaredType: string | undefined; bytes: Readable },
): Promise<TStoredUpload | null> {
  const { storage, maxBytes } = deps;
  const name = ZDocumentName.safeParse(file.name);
  if (!name.success) {
    file.bytes.resume();
    return fail('BAD_REQUEST', name.error.issues[0]?.message ?? 'Check the file name');
  }
  const storageKey = `${orgId}/${uuidv7()}`;
  const meter = new UploadMeter(maxBytes);
  const [piped, stored] = await Promise.allSettled([
    pipeline(file.bytes, meter),
    // A store that gives up stops reading: end the upload stream too, or it would wait forever.
    storage.put(storageKey, meter, { contentType: 'application/octet-stream' }).catch((error) => {
      meter.destroy(error);
      throw error;
    }),
  ]);
  if (piped.status === 'rejected' || stored.status === 'rejected') {
    await storage.delete(storageKey).catch(() => {});
    const cause = piped.status === 'rejected' ? piped.reason : (stored as PromiseRejectedResult).reason;
    if (cause instanceof TooLarge || meter.bytes > maxBytes) {
      // Let the rest of the body drain so the browser reads this answer rather than a reset.
      req.raw.resume();
      return fail('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${formatBytes(maxBytes)}`);
    }
    if (req.raw.destroyed || req.raw.aborted) return null;
    req.raw.resume();
    req.log.warn({ err: cause }, 'upload failed');
    return fail('BAD_REQUEST', 'The upload was interrupted. Please try again.');
  }
  return {
    name: name.data,
    size: meter.bytes,
    contentType: sniffContentType(meter.firstBytes(), file.declaredType),
    checksumSha256: meter.checksum(),
    storageKey,
  };
}
