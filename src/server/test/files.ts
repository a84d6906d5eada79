import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TTestApp } from './app';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
export const randomFile = (size: number) => new Uint8Array(randomBytes(size));

/**
 * Uploads as the browser does: multipart/form-data, one file, the staff token as Bearer; `query`
 * adds to the folder (share: 'true' | 'false').
 */
export async function uploadFile(
  t: TTestApp,
  token: string,
  folderId: string,
  name: string,
  bytes: Uint8Array | string,
  type = 'application/octet-stream',
  query: Record<string, string> = {},
) {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart], { type }), name);
  const search = new URLSearchParams({ folderId, ...query });
  const res = await fetch(`${t.url}/api/documents/upload?${search}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as {
    id: string;
    name: string;
    version: number;
    portal?: string;
    alsoShared?: { id: string; name: string }[];
    message?: string;
  };
  return { status: res.status, body };
}

export async function download(t: TTestApp, token: string, pathname: string) {
  const res = await fetch(`${t.url}${pathname}`, { headers: { authorization: `Bearer ${token}` } });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Every file under a directory, as paths relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    const entries = await fs.readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  await walk(dir);
  return out.sort();
}
