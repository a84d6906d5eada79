import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The boundaries live in biome.json. This runs the project's Biome with that very configuration over
// a small tree laid out like src/server, so a rule switched off or a pattern that stopped matching
// fails here rather than letting the imports drift again.

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');

function lint(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-'));
  const config = JSON.parse(fs.readFileSync(path.join(root, 'biome.json'), 'utf8'));
  config.$schema = undefined;
  config.vcs = { enabled: false };
  fs.writeFileSync(path.join(dir, 'biome.json'), JSON.stringify(config));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const run = spawnSync(biome, ['lint', '--max-diagnostics=50', '.'], { cwd: dir, encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  return `${run.stdout}${run.stderr}`;
}

const feature = {
  'src/server/features/clients/index.ts': "export { visibleClient } from './visibility';\n",
  'src/server/features/clients/visibility.ts': 'export const visibleClient = () => 1;\n',
};

describe('feature boundaries (biome.json)', () => {
  it("accepts another feature's public surface", () => {
    const out = lint({
      ...feature,
      'src/server/features/tasks/people.ts':
        "import { visibleClient } from '../clients';\nexport const p = visibleClient();\n",
      'src/server/app.ts':
        "import { visibleClient } from './features/clients';\nexport const a = visibleClient();\n",
    });
    expect(out).not.toMatch(/noRestrictedImports|noImportCycles/);
  });

  it("refuses an import into another feature's inner files, from a feature or from outside", () => {
    const out = lint({
      ...feature,
      'src/server/features/tasks/people.ts':
        "import { visibleClient } from '../clients/visibility';\nexport const p = visibleClient();\n",
      'src/server/jobs/setup.ts':
        "import { visibleClient } from '../features/clients/visibility';\nexport const j = visibleClient();\n",
    });
    expect(out).toContain('src/server/features/tasks/people.ts:1:31 lint/style/noRestrictedImports');
    expect(out).toContain('src/server/jobs/setup.ts:1:31 lint/style/noRestrictedImports');
  });

  it('refuses an import cycle, feature to feature through their surfaces', () => {
    const out = lint({
      'src/server/features/clients/index.ts': "export { visibleClient } from './visibility';\n",
      'src/server/features/clients/visibility.ts':
        "import { taskOf } from '../tasks';\nexport const visibleClient = () => taskOf;\n",
      'src/server/features/tasks/index.ts': "export { taskOf } from './people';\n",
      'src/server/features/tasks/people.ts':
        "import { visibleClient } from '../clients';\nexport const taskOf = () => visibleClient;\n",
    });
    expect(out).toContain('lint/suspicious/noImportCycles');
  });
});
