import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDirLock, DirLockedError } from './dir-lock';

describe('data directory lock', () => {
  it('refuses a directory a live process holds and takes over one a dead process left', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    fs.writeFileSync(path.join(dir, '.practice.lock'), String(holder.pid));
    expect(() => acquireDirLock(dir)).toThrow(DirLockedError);
    holder.kill();
    await new Promise((resolve) => holder.once('exit', resolve));
    const release = acquireDirLock(dir);
    expect(fs.readFileSync(path.join(dir, '.practice.lock'), 'utf8')).toBe(String(process.pid));
    await release();
    expect(fs.existsSync(path.join(dir, '.practice.lock'))).toBe(false);
  });
});
