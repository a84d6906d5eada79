// Runs the integration suite on embedded PGlite, then again on PostgreSQL when DATABASE_URL is set.
import { spawnSync } from 'node:child_process';

const extra = process.argv.slice(2);
const run = (label, env) => {
  console.log(`\n▶ integration tests on ${label}\n`);
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'integration', ...extra], {
    stdio: 'inherit',
    env,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const { DATABASE_URL, ...withoutUrl } = process.env;
run('PGlite', withoutUrl);
if (DATABASE_URL) run(`PostgreSQL (${new URL(DATABASE_URL).host})`, process.env);
