import fs from 'node:fs';
import path from 'node:path';

export class DirLockedError extends Error {}

/**
 * When a process started, as the kernel counts it (clock ticks since boot: field 22 of
 * /proc/<pid>/stat), or null where there is no /proc (macOS, Windows) or no such process. With
 * the pid it names one process for good: a pid reused after a crash has another start time.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22 counted from 1, the 20th after the name.
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock's content: `<pid>` or, where the start time is known, `<pid>:<start time>`. */
const holderOf = (pid: number) => {
  const started = processStartTime(pid);
  return started ? `${pid}:${started}` : String(pid);
};

/**
 * Whether the process a lock names still runs. A lock from before the start time was recorded
 * (pid only), or written where /proc is missing, falls back to the pid alone.
 */
function holderAlive(content: string): { pid: number; alive: boolean } {
  const [pidText, started] = content.trim().split(':');
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return { pid, alive: false };
  if (!isAlive(pid)) return { pid, alive: false };
  if (started) {
    const now = processStartTime(pid);
    // The pid runs, but it is another process that got the pid after the holder died.
    if (now !== null && now !== started) return { pid, alive: false };
  }
  return { pid, alive: true };
}

/**
 * PGlite has no lock between processes and two writers silently lose writes, so the server refuses
 * a data directory another live process holds. A lock left by a dead process, or naming a pid that
 * now belongs to another process, is taken over.
 */
export function acquireDirLock(dir: string): () => Promise<void> {
  const file = path.join(dir, '.practice.lock');
  const mine = holderOf(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx', mode: 0o600 });
      return async () => {
        try {
          if (fs.readFileSync(file, 'utf8') === mine) fs.unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const { pid, alive } = holderAlive(fs.readFileSync(file, 'utf8'));
      if (alive && pid !== process.pid) {
        throw new DirLockedError(`The database directory ${dir} is in use by process ${pid}`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DirLockedError(`Could not lock the database directory ${dir}`);
}
