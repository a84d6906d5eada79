// `npm start` and the operator commands: run a built entry of dist/server (scripts/build-server.mjs),
// building first only when the build is missing or older than what it is built from, so a fresh
// clone still starts with `npm ci && npm start` and a restart does not rebuild.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const entry = process.argv[2] ?? 'main';
const outputs = ['dist/web/index.html', `dist/server/${entry}.js`].map((f) => path.join(root, f));
const inputs = [
  'src',
  'scripts/build-server.mjs',
  'scripts/precompress.ts',
  'vite.config.ts',
  'package-lock.json',
  'tsconfig.json',
];

/** The newest modification time under a path (files only), 0 when it does not exist. */
function newest(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const name of fs.readdirSync(target)) latest = Math.max(latest, newest(path.join(target, name)));
  return latest;
}

const builtAt = Math.min(...outputs.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)));
const changedAt = Math.max(...inputs.map((f) => newest(path.join(root, f))));
if (builtAt === 0 || changedAt > builtAt) {
  console.log(builtAt === 0 ? 'No build yet: building.' : 'Sources changed since the last build: building.');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The entry reads its own arguments from process.argv[2] on, as when run from source.
if (process.argv[2] !== undefined) process.argv.splice(2, 1);
// Stack traces point into src/ through the bundle's source maps.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(root, `dist/server/${entry}.js`)).href);
