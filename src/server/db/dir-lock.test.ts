import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDirLock, DirLockedError, processStartTime } from './dir-lock';

const lockFile = (dir: string) => path.join(dir, '.practice.lock');

describe('data directory lock', () => {
  it('refuses a directory a live process holds and takes over one a dead process left', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const pid = holder.pid as number;
    const started = processStartTime(pid);
    fs.writeFileSync(lockFile(dir), started ? `${pid}:${started}` : String(pid));
    expect(() => acquireDirLock(dir)).toThrow(DirLockedError);
    // An older lock with the pid alone still counts while that pid runs.
    fs.writeFileSync(lockFile(dir), String(pid));
    expect(() => acquireDirLock(dir)).toThrow(DirLockedError);
    holder.kill();
    await new Promise((resolve) => holder.once('exit', resolve));
    const release = acquireDirLock(dir);
    expect(fs.readFileSync(lockFile(dir), 'utf8')).toMatch(new RegExp(`^${process.pid}(:\\d+)?$`));
    await release();
    expect(fs.existsSync(lockFile(dir))).toBe(false);
  });

  it.runIf(processStartTime(process.pid) !== null)(
    'takes over a lock whose pid now belongs to another live process',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
      // The parent (the test runner) is alive, but it is not the process that wrote the lock:
      // its start time differs.
      const other = process.ppid;
      const started = Number(processStartTime(other));
      fs.writeFileSync(lockFile(dir), `${other}:${started + 12345}`);
      const release = acquireDirLock(dir);
      expect(fs.readFileSync(lockFile(dir), 'utf8')).toBe(`${process.pid}:${processStartTime(process.pid)}`);
      await release();
    },
  );
});
