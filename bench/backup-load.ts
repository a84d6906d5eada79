// `npm run backup` against a running PGlite server that is being written to, as an operator meets it:
//   npx tsx bench/backup-load.ts [--rows 100000] [--writers 0,1,2,6] [--cap 300] [--built]
// --built runs the server (and so its backup worker) and the command as production does, from
// npm run build's dist/server; without it, from the sources through tsx.
// The server runs as `node --import tsx src/server/main.ts` on a fresh data directory (one firm, and
// a table of `rows` filler rows of about 1 KB each so the directory has a firm's size); each writer
// is a loop creating clients through tRPC, one call after another. For each number of writers the
// backup command runs once; printed: how long it took, and the writers' calls during it against the
// same writers' calls in the seconds before it (count per second, median, p99, slowest).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import superjson from 'superjson';
import { createTestApp } from '../src/server/test/app';
import { startServerProcess } from '../src/server/test/server-process';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    writers: { type: 'string', default: '0,1,2,6' },
    /** Seconds after which a backup is given up (reported as "> cap"). */
    cap: { type: 'string', default: '300' },
    built: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const writerCounts = values.writers.split(',').map(Number);
const capMs = Number(values.cap) * 1000;
const PUBLIC_URL = 'http://127.0.0.1';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-backup-load-'));
const dataDir = path.join(root, 'data');
const setup = await createTestApp({ DATA_DIR: dataDir, PUBLIC_URL }, { dataDir: path.join(dataDir, 'db') });
const firm = await setup.seedFirm('Backup Bench');
const client = setup.database.pglite?.client;
if (!client) throw new Error('not PGlite');
await client.exec(`create table bench_filler(id serial primary key, body text);
  insert into bench_filler(body) select repeat(md5(g::text), 10) from generate_series(1, ${rows}) g; checkpoint`);
await setup.close();

const children: Parameters<typeof startServerProcess>[1] = [];
const server = startServerProcess(
  { DATA_DIR: dataDir, PUBLIC_URL, RATE_LIMIT_PER_MINUTE: '1000000' },
  children,
  values.built ? ['dist/server/main.js'] : undefined,
);
const url = await server.listening;

type TCall = { at: number; ms: number };
let serial = 0;
function writer(calls: TCall[], stop: { now: boolean }) {
  return (async () => {
    while (!stop.now) {
      const t = performance.now();
      const n = ++serial;
      const res = await fetch(`${url}/api/trpc/clients.create?batch=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${firm.owner.token}` },
        body: JSON.stringify({ 0: superjson.serialize({ code: `B${n}`, name: `Bench client ${n}` }) }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`clients.create answered ${res.status}`);
      calls.push({ at: t, ms: performance.now() - t });
    }
  })();
}

const stats = (calls: TCall[], ms: number) => {
  const sorted = calls.map((c) => c.ms).sort((a, b) => a - b);
  const q = (p: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
  return `${(calls.length / (ms / 1000)).toFixed(1)}/s, median ${q(0.5)} ms, p99 ${q(0.99)} ms, slowest ${Math.round(sorted.at(-1) ?? 0)} ms`;
};

function runBackup(out: string) {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const command = values.built ? ['dist/server/backup.js'] : ['--import', 'tsx', 'src/server/backup/cli.ts'];
  const child = spawn(process.execPath, [...command, 'backup', out], {
    env: { ...env, DATA_DIR: dataDir, PUBLIC_URL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), capMs);
  return new Promise<{ ok: boolean; output: string }>((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output: output.trim() });
    }),
  );
}

const size = async (dir: string): Promise<number> => {
  let bytes = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) bytes += await size(path.join(dir, e.name));
    else if (e.isFile()) bytes += (await fs.stat(path.join(dir, e.name))).size;
  }
  return bytes;
};
console.log(
  `PGlite server, ${rows} filler rows, data directory ${Math.round((await size(dataDir)) / 1e6)} MB`,
);

for (const count of writerCounts) {
  const calls: TCall[] = [];
  const stop = { now: false };
  const loops = Array.from({ length: count }, () => writer(calls, stop));
  const before = performance.now();
  await new Promise((r) => setTimeout(r, count ? 5000 : 0));
  const started = performance.now();
  const out = path.join(root, `backup-${count}.tar.gz`);
  const result = await runBackup(out);
  const took = performance.now() - started;
  stop.now = true;
  await Promise.all(loops);
  const during = calls.filter((c) => c.at >= started && c.at < started + took);
  const ahead = calls.filter((c) => c.at >= before && c.at < started);
  const archive = result.ok ? `${Math.round((await fs.stat(out)).size / 1e6)} MB archive` : 'FAILED';
  console.log(
    `${count} writer(s): backup ${result.ok || took < capMs ? (took / 1000).toFixed(1) : `> ${capMs / 1000}`} s (${archive})` +
      (count
        ? `\n  writes before: ${stats(ahead, started - before)}\n  writes during: ${stats(during, took)}`
        : ''),
  );
  if (!result.ok) console.log(`  ${result.output.slice(-500)}`);
  else
    console.log(
      `  ${result.output
        .split('\n')
        .at(-1)
        ?.replace(/^.*the database/, 'the database')}`,
    );
  await fs.rm(out, { force: true });
  const logged = server
    .output()
    .split('\n')
    .filter((l) => l.includes('backup made'))
    .at(-1);
  if (logged) console.log(`  steps (ms): ${JSON.stringify(JSON.parse(logged).steps)}`);
}

server.child.kill('SIGTERM');
await server.exited;
await fs.rm(root, { recursive: true, force: true });
