// How long each way of copying a running PGlite holds it, under a steady write load:
//   npx tsx bench/backup.ts [--rows 300000]
// A table of `rows` filler rows (about 1 KB each with its index) beside the migrated schema; one
// insert and one update every 5 ms while each method runs; "held" is how long the engine was taken
// from the requests, "slowest write" the longest a write waited meanwhile.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { copyPgliteDir } from '../src/server/backup/pglite-copy';
import { openPglite } from '../src/server/db/client';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '300000' } } });
const rows = Number(values.rows);
const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-backup-'));
const dir = path.join(root, 'db');
const database = await openPglite(dir);
const client = database.pglite?.client;
if (!client) throw new Error('not PGlite');
await client.exec(`create table filler(id serial primary key, body text);
  insert into filler(body) select repeat(md5(g::text), 10) from generate_series(1, ${rows}) g; checkpoint`);

let slowest = 0;
let stop = false;
const load = (async () => {
  while (!stop) {
    const t = performance.now();
    await client.query('insert into filler(body) values ($1)', ['x']);
    await client.query('update filler set body = $1 where id = $2', [
      'y',
      1 + Math.floor(Math.random() * rows),
    ]);
    slowest = Math.max(slowest, performance.now() - t);
    await new Promise((r) => setTimeout(r, 5));
  }
})();

async function measure(name: string, run: () => Promise<number | undefined>) {
  await new Promise((r) => setTimeout(r, 300));
  slowest = 0;
  const t = performance.now();
  const held = await run();
  const total = performance.now() - t;
  // The write that waited finishes just after: let it report.
  await new Promise((r) => setTimeout(r, 200));
  console.log(
    `${name.padEnd(44)} held ${String(Math.round(held ?? total)).padStart(6)} ms   slowest write ${String(Math.round(slowest)).padStart(6)} ms   whole ${Math.round(total)} ms`,
  );
}

const size = async () => {
  let bytes = 0;
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(path.join(d, e.name));
      else bytes += (await fs.stat(path.join(d, e.name))).size;
    }
  };
  await walk(dir);
  return bytes;
};
console.log(`PGlite, ${rows} filler rows, data directory ${(await size()) / 1e6} MB`);

await measure('pg_backup_start / copy / pg_backup_stop', async () => {
  const copy = await copyPgliteDir(client, dir, path.join(root, `copy-${Date.now()}`));
  return copy.blockedMs;
});
await measure('dumpDataDir (no compression)', async () => {
  await client.dumpDataDir('none');
  return undefined;
});
await measure('dumpDataDir (gzip)', async () => {
  await client.dumpDataDir('gzip');
  return undefined;
});
await measure('CHECKPOINT + copy of the directory, held', async () => {
  await client.transaction(async (tx) => {
    await tx.exec('CHECKPOINT');
    await fs.cp(dir, path.join(root, `cold-${Date.now()}`), {
      recursive: true,
      filter: (s) => !/(\.practice\.lock|postmaster\.pid)$/.test(s),
    });
  });
  return undefined;
});
await measure('REPEATABLE READ read of every row', async () => {
  await client.transaction(async (tx) => {
    await tx.exec('set transaction isolation level repeatable read');
    const tables = await tx.query<{ t: string }>(
      `select quote_ident(table_schema) || '.' || quote_ident(table_name) as t from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'`,
    );
    for (const { t } of tables.rows) await tx.query(`select * from ${t}`);
  });
  return undefined;
});

stop = true;
await load;
await database.close();
await fs.rm(root, { recursive: true, force: true });
