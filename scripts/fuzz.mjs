// The fuzz suite (src/server/fuzz.test.ts) for longer: `npm run fuzz -- --runs 2000 --seed 7`.
// On PGlite, then again on PostgreSQL when DATABASE_URL is set (as `npm run test:integration`).
// --runs: cases per procedure, route and IdP operation (default 200); --seed: fast-check's seed
// (default: a new one, printed, so a failure can be replayed with it).
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '200' }, seed: { type: 'string' } },
  allowPositionals: true,
});
const runs = Number(values.runs);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S] [vitest options]');
  process.exit(2);
}
console.log(`fuzz: ${runs} runs per target, seed ${seed}`);

const run = (label, env) => {
  console.log(`\n▶ fuzz on ${label}\n`);
  const result = spawnSync(
    'npx',
    ['vitest', 'run', '--project', 'integration-isolated', 'src/server/fuzz.test.ts', ...positionals],
    // Each target's batch grows with the runs: the per-test timeout grows with it.
    { stdio: 'inherit', env: { ...env, FUZZ_RUNS: String(runs), FUZZ_SEED: String(seed) } },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const { DATABASE_URL, ...withoutUrl } = process.env;
run('PGlite', withoutUrl);
if (DATABASE_URL) run(`PostgreSQL (${new URL(DATABASE_URL).host})`, process.env);
