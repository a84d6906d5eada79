// The unit suite on the Node running npm, then on the other supported Node line
// (scripts/other-node.mjs). Extra arguments (files, -t) go to both runs.
import { spawnSync } from 'node:child_process';
import { nodeLabel, otherNodeBinary } from './other-node.mjs';

const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--project', 'unit*', ...process.argv.slice(2)];
const other = otherNodeBinary();
for (const binary of other ? [null, other] : [null]) {
  console.log(`\n▶ unit tests on ${nodeLabel(binary)}\n`);
  const result = spawnSync(binary ?? process.execPath, vitest, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
