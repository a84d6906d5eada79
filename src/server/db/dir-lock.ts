import fs from 'node:fs';
import path from 'node:path';

export class DirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite has no lock between processes and two writers silently lose writes, so the server refuses
 * a data directory another live process holds. A lock left by a dead process is taken over.
 */
export function acquireDirLock(dir: string): () => Promise<void> {
  const file = path.join(dir, '.practice.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return async () => {
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DirLockedError(`The database directory ${dir} is in use by process ${holder}`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DirLockedError(`Could not lock the database directory ${dir}`);
}
