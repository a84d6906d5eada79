// The integration suite on both engines and both Node lines: embedded PGlite on the Node running
// npm, then, when DATABASE_URL is set, PostgreSQL on the other Node line (scripts/other-node.mjs).
// One after the other: on two cores, running both at once took longer than the two in a row (each
// keeps both cores busy) and pushed tests past their timeouts. Extra arguments (files, -t) go to
// both runs.
//
// Nothing is run twice for nothing: the PostgreSQL run leaves out the files that start their
// servers on a PGlite directory whatever DATABASE_URL says (main, shutdown), and the fuzzer, whose
// property (no input makes a 5xx) is decided by the validation in front of the database, not by the
// engine behind it (PGlite is PostgreSQL's own code): it runs once, on PGlite. `npm run fuzz` runs
// it longer, on both engines.
import { spawnSync } from 'node:child_process';
import { nodeLabel, otherNodeBinary } from './other-node.mjs';

const ONCE = ['src/server/main.test.ts', 'src/server/shutdown.test.ts', 'src/server/fuzz.test.ts'];

const extra = process.argv.slice(2).filter((a) => a !== '--sequential');
const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--project', 'integration*'];

function run(label, binary, env, args) {
  console.log(`\n▶ integration tests on ${label}\n`);
  const result = spawnSync(binary ?? process.execPath, [...vitest, ...args], { env, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { DATABASE_URL, ...withoutUrl } = process.env;
run(`PGlite, ${nodeLabel(null)}`, null, withoutUrl, extra);
if (DATABASE_URL) {
  const other = otherNodeBinary();
  run(
    `PostgreSQL (${new URL(DATABASE_URL).host}), ${nodeLabel(other)}`,
    other,
    // Three files at once: a file on the server waits for it much of the time, and two left a
    // quarter of the CPU idle (306 s with three against about 450 s with two, on this machine).
    { INTEGRATION_WORKERS: '3', ...process.env, INTEGRATION_SKIP: ONCE.join(',') },
    [...extra, '--passWithNoTests'],
  );
}
