import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, type TStorage } from './driver';

/**
 * Files under a directory (DATA_DIR/files by default), one per key. A put writes to a temporary
 * name and renames when complete, so a reader never sees half a file and a failed upload leaves
 * nothing behind.
 */
export function createLocalStorage(root: string): TStorage {
  const fileOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, key);
  };
  const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';
  return {
    driver: 'local',
    async put(key, body) {
      const file = fileOf(key);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${randomUUID()}.part`;
      try {
        await pipeline(body, fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
        await fsp.rename(temp, file);
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const handle = await fsp.open(file, 'r');
        return handle.createReadStream();
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async head(key) {
      try {
        const stat = await fsp.stat(fileOf(key));
        return { size: stat.size };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },
  };
}
