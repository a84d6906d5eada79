// Reads a V8 .cpuprofile: where the server's time went, by package (self time) and by function
// (time including callees, i.e. top-down). `tsx bench/profile.ts file.cpuprofile` prints it again.
import fs from 'node:fs';

type TNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
export type TCpuProfile = { nodes: TNode[]; samples: number[]; timeDeltas: number[] };

/** node_modules/<package>, src/<dir>, node:internal, or V8's own (garbage collector), (idle). */
function groupOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return 'node: core';
  const own = url.match(/\/(src\/[^/]+\/[^/]+|bench)\//);
  return own?.[1] ?? url;
}

function label(node: TNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*node_modules\//, '').replace(/^.*\/(src|bench)\//, '$1/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

export function summariseProfile(profile: TCpuProfile, requests: number, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    total += dt;
    if (node.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    const group = groupOf(node.callFrame.url, node.callFrame.functionName);
    self.set(group, (self.get(group) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n || n.callFrame.functionName === '(root)') continue;
      seen.add(label(n));
    }
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
  });
  const busy = total - idle;
  const pct = (v: number) =>
    `${((100 * v) / busy).toFixed(1).padStart(5)}% ${Math.round(v / requests)
      .toString()
      .padStart(5)} µs/req`;
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `  ${pct(v)}  ${k}`);
  return [
    `busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s sampled (${((100 * busy) / total).toFixed(0)}%), ` +
      `${Math.round(busy / requests)} µs of CPU per request; shares are of busy time`,
    'self time by package:',
    ...rows(self),
    'time including callees (top-down), by function:',
    ...rows(inclusive),
  ].join('\n');
}

if (process.argv[1] && import.meta.filename === fs.realpathSync(process.argv[1])) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: tsx bench/profile.ts file.cpuprofile requests [top]');
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  console.log(summariseProfile(profile, Number(process.argv[3] ?? 1), Number(process.argv[4] ?? 40)));
}
