// `npm run build` (after vite): bundles the server, and the operator commands that run beside it,
// into dist/server with source maps. Packages stay in node_modules (imported at run time): PGlite
// finds its wasm and data files next to its own modules, and the rest gain little from bundling.
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { build } from 'esbuild';

export const serverEntries = {
  main: 'src/server/main.ts',
  'vault-rotate': 'src/server/features/vault/rotate-cli.ts',
  backup: 'src/server/backup/cli.ts',
  'backup-inspect': 'src/server/backup/inspect-cli.ts',
};

export async function buildServer() {
  await build({
    entryPoints: serverEntries,
    outdir: 'dist/server',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // A dynamic import() of our own module becomes a chunk of its own, so the packages it imports
    // load when it does (the S3 SDK, the spreadsheet writer...), not at every start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    // Stack traces map back to src/ through the .map files (run with --enable-source-maps).
    sourcesContent: false,
    logLevel: 'warning',
  });
  await writePgliteTemplate('dist/server/pglite-template.tar.gz');
}

/**
 * An empty PGlite database with every migration applied, as a data directory tarball: the built
 * server starts a new data directory from it instead of running initdb and the migrations (most of
 * a first start). It holds no data and no keys; the migrations still run over it at start.
 */
async function writePgliteTemplate(file) {
  const client = await PGlite.create({ extensions: { pg_trgm, btree_gin } });
  await migrate(drizzle({ client }), { migrationsFolder: 'src/server/db/migrations' });
  const tarball = await client.dumpDataDir('gzip');
  await client.close();
  fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
