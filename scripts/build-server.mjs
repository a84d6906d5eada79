// `npm run build` (after vite): bundles the server, and the operator commands that run beside it,
// into dist/server with source maps. Packages stay in node_modules (imported at run time): PGlite
// finds its wasm and data files next to its own modules, and most gain little from bundling.
import fs from 'node:fs';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';

export const serverEntries = {
  main: 'src/server/main.ts',
  'vault-rotate': 'src/server/features/vault/rotate-cli.ts',
  backup: 'src/server/backup/cli.ts',
  'backup-worker': 'src/server/backup/worker.ts',
  instances: 'src/server/instances/cli.ts',
};

export async function buildServer() {
  await build({
    entryPoints: serverEntries,
    outdir: 'dist/server',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [packagesExternalBut(BUNDLED)],
    // A dynamic import() of our own module becomes a chunk of its own, so the packages it imports
    // load when it does (the S3 SDK, the spreadsheet writer...), not at every start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    // Stack traces map back to src/ through the .map files (run with --enable-source-maps).
    sourcesContent: false,
    logLevel: 'warning',
  });
  // An empty PGlite database with every migration applied: the built server starts a new data
  // directory from it instead of running initdb and the migrations (most of a first start). It
  // holds no data and no keys; the migrations still run over it at start.
  const { pgliteTemplateTarball } = await tsImport('../src/server/db/client.ts', import.meta.url);
  fs.writeFileSync('dist/server/pglite-template.tar', await pgliteTemplateTarball());
}

/**
 * date-fns is bundled, only the functions we call: its index imports some 250 modules, about 90 ms
 * of every start.
 */
const BUNDLED = /^(date-fns|@date-fns\/tz)(\/|$)/;

/** esbuild's `packages: 'external'`, except for the packages `bundled` matches. */
function packagesExternalBut(bundled) {
  return {
    name: 'packages-external-but',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        bundled.test(args.path) ? undefined : { path: args.path, external: true },
      );
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
