import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import { MANIFEST, sha256File, type TManifest, type TMember, ZManifest } from './manifest';
import { eachLimited } from './pglite-copy';

export class BackupError extends Error {}

/** Every file under `root` (relative, `/`-separated) with its size and checksum. */
export async function membersOf(root: string, under: string[]): Promise<TMember[]> {
  const names: string[] = [];
  const walk = async (rel: string) => {
    const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const name = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) names.push(name);
    }
  };
  for (const dir of under) await walk(dir);
  const out: TMember[] = [];
  await eachLimited(names, 2, async (name) => {
    const file = path.join(root, name);
    out.push({ path: name, size: (await fs.stat(file)).size, sha256: await sha256File(file) });
  });
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Writes `staging` (manifest first) as a gzipped tar at `out`, atomically (a partial file never shows). */
export async function pack(staging: string, out: string, manifest: TManifest, roots: string[]) {
  await fs.writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  const partial = `${out}.partial`;
  // Level 1: a data directory is mostly empty pages, which any level squeezes; higher levels only
  // cost CPU on the server's thread pool.
  await tar.create({ gzip: { level: 1 }, file: partial, cwd: staging, portable: true }, [MANIFEST, ...roots]);
  await fs.chmod(partial, 0o600);
  await fs.rename(partial, out);
}

/**
 * The manifest alone, read from the archive's first member without unpacking the rest, so a
 * restore that is going to be refused (wrong key, another engine) says so at once.
 */
export async function readManifest(file: string): Promise<TManifest> {
  const text = await new Promise<string>((resolve, reject) => {
    const input = createReadStream(file);
    const fail = (why: string) => {
      input.destroy();
      reject(new BackupError(`${file} is not a Practice backup archive (${why})`));
    };
    const parser = new tar.Parser({
      onReadEntry: (entry) => {
        if (entry.path !== MANIFEST) return fail(`its first member is ${entry.path}, not ${MANIFEST}`);
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => {
          input.destroy();
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
      },
    });
    parser.on('error', (error: Error) => fail(error.message));
    input.on('error', (error) => fail(error.message));
    input.on('close', () => fail('it ended before a manifest'));
    input.pipe(parser);
  });
  try {
    return ZManifest.parse(JSON.parse(text));
  } catch {
    throw new BackupError(`${file} has no valid ${MANIFEST}: it is not a Practice backup, or it was altered`);
  }
}

/**
 * Unpacks an archive into `dir` and checks it against its manifest: every member listed, of its
 * size and checksum, and nothing else. Answers the manifest.
 */
export async function unpackVerified(file: string, dir: string): Promise<TManifest> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    // Only plain files and directories, never links or devices (tar refuses `..` and absolute paths).
    await tar.extract({
      file,
      cwd: dir,
      strict: true,
      filter: (_p, entry) => 'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
    });
  } catch (error) {
    throw new BackupError(`${file} is not a readable backup archive: ${(error as Error).message}`);
  }
  let manifest: TManifest;
  try {
    manifest = ZManifest.parse(JSON.parse(await fs.readFile(path.join(dir, MANIFEST), 'utf8')));
  } catch {
    throw new BackupError(`${file} has no valid ${MANIFEST}: it is not a Practice backup, or it was altered`);
  }
  const found = await membersOf(dir, ['database', 'files']);
  const listed = new Map(manifest.members.map((m) => [m.path, m]));
  for (const member of found) {
    const expected = listed.get(member.path);
    if (!expected) throw new BackupError(`The archive was altered: ${member.path} is not in its manifest`);
    if (expected.size !== member.size || expected.sha256 !== member.sha256) {
      throw new BackupError(`The archive was altered or damaged: ${member.path} does not match its checksum`);
    }
    listed.delete(member.path);
  }
  const [missing] = listed.keys();
  if (missing) throw new BackupError(`The archive is incomplete: ${missing} is missing`);
  return manifest;
}
