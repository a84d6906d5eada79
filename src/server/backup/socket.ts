import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/client';
import { vaultKeyring } from '../features/vault';
import type { TStorage } from '../files/storage';
import { BackupError } from './archive';
import { createBackup } from './create';

// On PGlite the running server holds the data directory, so `npm run backup` asks it for the
// archive over a Unix socket in that directory: reachable from this machine only, by whoever may
// open the file (the directory is the server user's), and each request must carry the secret in
// DATA_DIR/backup.secret (mode 0600), so a process that can reach the socket but not read the
// directory gets nothing. No TCP port: nothing on the network can ask for a copy of the firm.

export const socketPath = (dataDir: string) => path.join(dataDir, 'backup.sock');
const secretPath = (dataDir: string) => path.join(dataDir, 'backup.secret');

async function ensureSecret(dataDir: string): Promise<Buffer> {
  try {
    await fs.writeFile(secretPath(dataDir), randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return Buffer.from((await fs.readFile(secretPath(dataDir), 'utf8')).trim());
}

export type TBackupSocket = { path: string; close(): Promise<void> };

/** Serves POST /backup on DATA_DIR/backup.sock: the archive as the response body. */
export async function startBackupSocket(deps: {
  config: Pick<TConfig, 'dataDir' | 'vault' | 'storage'>;
  database: TDatabase;
  storage: TStorage;
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}): Promise<TBackupSocket> {
  const { dataDir } = deps.config;
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secret = await ensureSecret(dataDir);
  const file = socketPath(dataDir);
  // This process holds the database directory, so a socket file left here is a dead server's.
  await fs.rm(file, { force: true });
  const server = http.createServer(async (req, res) => {
    const given = Buffer.from((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    if (given.length !== secret.length || !timingSafeEqual(given, secret)) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: 'Wrong backup secret' }));
      return;
    }
    const out = path.join(dataDir, 'backups', `.request-${randomUUID()}.tar.gz`);
    // A command that is stopped (Ctrl-C, a timeout) takes its backup with it: otherwise the server
    // went on making an archive nobody would read, and refused the next request meanwhile.
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    try {
      const keyring = await vaultKeyring(deps.config);
      const result = await createBackup({
        database: deps.database,
        storage: deps.storage,
        storageConfig: deps.config.storage,
        keyring,
        out,
        signal: gone.signal,
      });
      deps.log?.info(
        { blockedMs: result.manifest.blockedMs, files: result.manifest.files, steps: result.steps },
        'backup made for npm run backup',
      );
      const size = (await fs.stat(out)).size;
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': size });
      // In 1 MB reads: each read waits for a turn of this loop, which PGlite's statements keep busy.
      await pipeline(createReadStream(out, { highWaterMark: 1 << 20 }), res);
    } catch (error) {
      deps.log?.error({ err: error }, 'backup failed');
      if (!res.headersSent) {
        res
          .writeHead(error instanceof BackupError ? 409 : 500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: (error as Error).message }));
      } else res.destroy();
    } finally {
      await fs.rm(out, { force: true });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  await fs.chmod(file, 0o600);
  return {
    path: file,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => fs.rm(file, { force: true })),
  };
}

/** Asks the server running on `dataDir` for an archive, written to `out` (atomically). */
export async function requestServerBackup(dataDir: string, out: string): Promise<void> {
  const secret = await fs.readFile(secretPath(dataDir), 'utf8').catch(() => {
    throw new BackupError(
      `The server holds ${dataDir} but ${secretPath(dataDir)} cannot be read: run the backup as the server's user`,
    );
  });
  const partial = `${out}.partial`;
  await new Promise<void>((resolve, reject) => {
    const req = http.request(
      {
        socketPath: socketPath(dataDir),
        path: '/backup',
        method: 'POST',
        headers: { authorization: `Bearer ${secret.trim()}` },
      },
      (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => {
            let message = body;
            try {
              message = JSON.parse(body).message;
            } catch {}
            reject(new BackupError(`The server could not make the backup: ${message || res.statusCode}`));
          });
          return;
        }
        const expected = Number(res.headers['content-length']);
        let received = 0;
        res.on('data', (d: Buffer) => {
          received += d.length;
        });
        pipeline(res, createWriteStream(partial, { mode: 0o600 })).then(() => {
          if (received !== expected)
            reject(new BackupError('The server stopped before the whole archive was sent'));
          else resolve();
        }, reject);
      },
    );
    req.on('error', (error) =>
      reject(
        new BackupError(
          `The server holds ${dataDir} but does not answer on ${socketPath(dataDir)} (${(error as Error).message}): is it an older version? Stop it and run the backup again.`,
        ),
      ),
    );
    req.end();
  }).catch(async (error) => {
    await fs.rm(partial, { force: true });
    throw error;
  });
  await fs.rename(partial, out);
}
