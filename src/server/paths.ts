import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's directory, found upward from this module: it is src/server/ when run from source
 * and dist/server/ once bundled, so paths are resolved from the root rather than from here.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
/** The built web app (npm run build). */
export const webDistDir = path.join(projectRoot, 'dist/web');
/** Drizzle's SQL migrations, read at start from the sources in either case. */
export const migrationsFolder = path.join(projectRoot, 'src/server/db/migrations');

/**
 * Node's arguments to run one of the server's entries (scripts/build-server.mjs) as a child
 * process: the bundle beside this one when running built, or the source through tsx (development
 * and tests), so production needs no development tools.
 */
export function entryArgs(entry: string, source: string): string[] {
  // Bundled, this module sits in dist/server or in one of its shared chunks below it.
  const distDir = path.join(projectRoot, 'dist/server');
  const bundled = path.join(distDir, `${entry}.js`);
  if (fileURLToPath(import.meta.url).startsWith(distDir + path.sep) && fs.existsSync(bundled)) {
    return ['--enable-source-maps', bundled];
  }
  return ['--import', 'tsx', path.join(projectRoot, source)];
}
