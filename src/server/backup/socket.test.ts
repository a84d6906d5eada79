import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../test/app';
import { requestServerBackup, socketPath, startBackupSocket, type TBackupSocket } from './socket';

// `npm run backup` against the running server (PGlite), when the command is stopped part-way.

let root: string;
let dataDir: string;
let t: TTestApp;
let socket: TBackupSocket;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'practice-backup-socket-'));
  dataDir = path.join(root, 'data');
  t = await createTestApp({ DATA_DIR: dataDir }, { dataDir: path.join(dataDir, 'db') });
  await t.seedFirm('Stopped Command & Co');
  socket = await startBackupSocket({ config: t.config, database: t.database, storage: t.storage });
}, 120_000);
afterAll(async () => {
  await socket?.close();
  await t?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

describe('a backup whose command goes away', () => {
  it('is abandoned, so the next backup is made at once rather than refused as one already running', async () => {
    const secret = (await fs.readFile(path.join(dataDir, 'backup.secret'), 'utf8')).trim();
    // The command asks, and is stopped before the archive comes back.
    const asked = http.request({
      socketPath: socketPath(dataDir),
      path: '/backup',
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
    });
    asked.on('error', () => {});
    asked.end();
    await new Promise((resolve) => asked.once('socket', (s) => s.once('connect', resolve)));
    asked.destroy();

    const archive = path.join(root, 'after.tar.gz');
    await requestServerBackup(dataDir, archive);
    expect((await fs.stat(archive)).size).toBeGreaterThan(0);
    // Neither the abandoned archive nor its staging is left behind.
    const left = await fs.readdir(path.join(dataDir, 'backups')).catch(() => []);
    expect(left).toEqual([]);
  }, 120_000);
});
