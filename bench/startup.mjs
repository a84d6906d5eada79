// node bench/startup.mjs [--runs 3] — how long the server takes from its start to a healthy
// /api/health on an empty PGlite data directory, and its resident memory once idle, run as
// `npm start` runs it (the bundle, dist/server/main.js: npm run build first) and, for comparison,
// from the sources through tsx as it ran before. Load average printed: the machine is shared.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
const modes = {
  bundle: ['--enable-source-maps', 'dist/server/main.js'],
  'tsx (sources)': ['--import', 'tsx', 'src/server/main.ts'],
};
if (!fs.existsSync('dist/server/main.js')) throw new Error('Build first: npm run build');

async function once(args) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-startup-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  let healthyMs = null;
  while (healthyMs === null) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) healthyMs = performance.now() - started;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  // Idle: past start-up work (the job worker's first poll, lazy imports).
  await new Promise((r) => setTimeout(r, 5000));
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { healthyMs, rssMb };
}

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${os.cpus().length} cores`,
);
console.log('| Server | start to healthy /api/health, empty PGlite directory (ms) | resident at idle (MB) |');
console.log('|---|---|---|');
for (const [mode, args] of Object.entries(modes)) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once(args));
  const ms = results.map((r) => Math.round(r.healthyMs)).join(', ');
  const mb = results.map((r) => Math.round(r.rssMb)).join(', ');
  console.log(`| ${mode} | ${ms} | ${mb} |`);
}
