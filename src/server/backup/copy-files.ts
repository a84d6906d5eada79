import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { TStorage } from '../files/storage';
import { BackupError } from './archive';
import type { TDatabaseFacts } from './manifest';

/** Copies every stored file the snapshot names into `staging/files/<key>`, checking its size. */
export async function copyFiles(storage: TStorage, keys: TDatabaseFacts['storageKeys'], staging: string) {
  let bytes = 0;
  for (const { key, size } of keys) {
    const body = await storage.get(key);
    if (!body) {
      throw new BackupError(
        `The stored file ${key} that the database names is missing (deleted from the trash during the backup?): run the backup again`,
      );
    }
    const file = path.join(staging, 'files', key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    let copied = 0;
    const hash = createHash('sha256');
    await pipeline(
      body,
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          copied += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      }),
      createWriteStream(file, { mode: 0o600 }),
    );
    if (copied !== size)
      throw new BackupError(`The stored file ${key} has ${copied} bytes, not the ${size} recorded`);
    bytes += copied;
  }
  return { count: keys.length, bytes };
}
