import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, isStorageKey, putTracker, type TStorage } from './driver';

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
  const puts = putTracker();
  // `<uuid>.<uuid>.part` beside the file it becomes: the key is the name before the first dot.
  const PART = /^([0-9a-f-]{36})\.[0-9a-f-]{36}\.part$/;
  return {
    driver: 'local',
    put(key, body) {
      const file = fileOf(key);
      const temp = `${file}.${randomUUID()}.part`;
      const work = (async () => {
        await fsp.mkdir(path.dirname(file), { recursive: true });
        try {
          await pipeline(body, fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
          await fsp.rename(temp, file);
        } catch (error) {
          await fsp.rm(temp, { force: true });
          throw error;
        }
      })();
      return puts.track(key, work);
    },
    writing: puts.writing,
    settle: puts.settle,
    async *list(prefix) {
      let orgs: string[];
      try {
        orgs = await fsp.readdir(root);
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for (const org of orgs) {
        if (!`${org}/`.startsWith(prefix) && !prefix.startsWith(`${org}/`)) continue;
        let names: string[];
        try {
          names = await fsp.readdir(path.join(root, org));
        } catch {
          continue; // Not a directory, or gone since.
        }
        for (const name of names) {
          const part = PART.exec(name);
          const key = `${org}/${part ? part[1] : name}`;
          if (!key.startsWith(prefix) || !isStorageKey(key)) continue;
          const stat = await fsp.stat(path.join(root, org, name)).catch(() => null);
          if (!stat?.isFile()) continue;
          yield { key, lastModified: stat.mtime, partial: Boolean(part), ref: part ? name : undefined };
        }
      }
    },
    async remove(object) {
      if (!object.partial) return this.delete(object.key);
      const file = fileOf(object.key);
      // Only ever a part file beside the key's own file.
      if (!object.ref || PART.exec(object.ref)?.[1] !== path.basename(file))
        throw new Error(`Invalid part name: ${object.ref}`);
      await fsp.rm(path.join(path.dirname(file), object.ref), { force: true });
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
