// The second Node line the tests run on, beside the one running npm: Node's own binary for this
// platform from the npm registry (node-<platform>-<arch>, no install script), fetched by npx once and
// cached in npm's cache. Override with TEST_NODE_BINARY (a path), or TEST_NODE_BINARY=none to skip.
import { execFileSync } from 'node:child_process';

export const OTHER_NODE_VERSION = '24.21.0';

/** The path of the other Node binary, or null when this process already runs that line or none is wanted. */
export function otherNodeBinary() {
  const chosen = process.env.TEST_NODE_BINARY;
  if (chosen === 'none') return null;
  if (chosen) return chosen;
  if (process.versions.node.split('.')[0] === OTHER_NODE_VERSION.split('.')[0]) return null;
  const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}@${OTHER_NODE_VERSION}`;
  const binary = execFileSync('npx', ['--yes', '-p', pkg, '-c', 'node -p process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return binary;
}

/** A label for a Node binary's version, e.g. "Node 24.9.0". */
export function nodeLabel(binary) {
  return `Node ${binary ? execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim().slice(1) : process.versions.node}`;
}

// `node scripts/other-node.mjs` fetches it ahead (CI does, while the lint runs) and prints its path.
if (import.meta.url === `file://${process.argv[1]}`) console.log(otherNodeBinary());
