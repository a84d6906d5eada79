import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import type { TDb } from '../db/client';
import { createStorage } from '../files/storage';
import { membersOf, pack } from './archive';
import { copyFiles } from './copy-files';
import { databaseFacts, type TManifest } from './manifest';
import { copyTree } from './pglite-copy';
import type { TWorkerReply, TWorkerRequest } from './worker-client';

// The backup's own work, in a process of its own at a lower priority (worker-client.ts): copying
// the data directory, opening the copy (a PGlite start and its WAL replay are seconds of WASM),
// copying the stored files, checksumming and packing. In the server, each of its steps waited for a turn of an event loop
// that PGlite's statements keep busy: under a steady write load a backup took minutes, growing
// with the writers. Here only the server's two PGlite calls (start and stop) are the server's.

async function handle(request: TWorkerRequest): Promise<TWorkerReply> {
  switch (request.op) {
    case 'ping':
      return { ok: true };
    case 'copy': {
      const { from, to, rel, skipWal, label } = request;
      if (label !== undefined) await fs.writeFile(path.join(to, 'backup_label'), label, { mode: 0o600 });
      return { ok: true, bytes: await copyTree(from, to, rel, skipWal) };
    }
    case 'inspect': {
      // Replays the copy's WAL to its consistent moment, then reads it. Never migrates: the archive
      // keeps the schema it was taken at.
      const client = await PGlite.create(request.dir, { extensions: { pg_trgm, btree_gin } });
      try {
        return { ok: true, facts: await databaseFacts(drizzle({ client }) as unknown as TDb) };
      } finally {
        await client.close();
      }
    }
    case 'files': {
      const storage = await createStorage({ storage: request.storage });
      return { ok: true, ...(await copyFiles(storage, request.keys, request.staging)) };
    }
    case 'pack': {
      const { staging, out, roots } = request;
      const manifest: TManifest = { ...request.manifest, members: await membersOf(staging, roots) };
      await pack(staging, out, manifest, roots);
      return { ok: true, manifest };
    }
  }
}

// One request at a time, in order; the worker ends when the server lets go of it (or dies).
let queue = Promise.resolve();
process.on('message', (request: TWorkerRequest) => {
  queue = queue.then(async () => {
    let reply: TWorkerReply;
    try {
      reply = await handle(request);
    } catch (error) {
      reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    process.send?.(reply);
  });
});
process.on('disconnect', () => process.exit(0));
