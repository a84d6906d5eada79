// npx tsx bench/documents.ts [--mb 1024] [--files 10000] [--skip-upload] [--skip-list]
// Issue 7's two documents targets, measured on this machine:
// - a folder of 10,000 files lists its first page in under 50 ms on PostgreSQL (BENCH_PG_URL, default
//   postgres://postgres@127.0.0.1:5432/postgres; a fresh database is created and dropped);
// - a 1 GB upload and download grow the server's resident memory by less than 100 MB (the server
//   runs in this process on PGlite and local storage in a temporary directory; the client streams
//   its body from a reused 1 MB buffer, so the process's growth is the server's).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../src/server/test/app';
import { quantile } from './stats';

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '1024' },
    files: { type: 'string', default: '10000' },
    'skip-upload': { type: 'boolean', default: false },
    'skip-list': { type: 'boolean', default: false },
  },
});

async function benchList() {
  const files = Number(args.files);
  process.env.DATABASE_URL ??= process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const t = await createTestApp({ DATA_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'bench-docs-')) });
  try {
    const firm = await t.seedFirm('Bench');
    const api = t.client(firm.owner.token);
    const root = await api.documents.open.mutate({ clientId: null });
    // Another firm's files in the same table, so the index has to pick the right org and folder.
    const other = await t.seedFirm('Other');
    const otherRoot = await t.client(other.owner.token).documents.open.mutate({ clientId: null });
    await t.db.execute(sql`
      insert into documents (id, org_id, folder_id, name, size, content_type)
      select gen_random_uuid(), ${other.org.id}, ${otherRoot.id}, 'other-' || i || '.pdf', i, 'application/pdf'
      from generate_series(1, ${files * 3}) i`);
    await t.db.execute(sql`
      insert into documents (id, org_id, folder_id, name, size, content_type, updated_at)
      select gen_random_uuid(), ${firm.org.id}, ${root.id}, 'file-' || lpad(i::text, 6, '0') || '.pdf',
             (i * 7919) % 5000000, 'application/pdf', now() - (i || ' seconds')::interval
      from generate_series(1, ${files}) i`);
    await t.db.execute(sql`vacuum analyze documents`);
    for (const sort of ['name', 'date', 'size'] as const) {
      const times: number[] = [];
      for (let i = 0; i < 60; i++) {
        const start = performance.now();
        const page = await api.documents.contents.query({ folderId: root.id, sort, direction: 'desc' });
        if (i >= 10) times.push(performance.now() - start);
        if (page.documents.total !== files)
          throw new Error(`expected ${files} files, got ${page.documents.total}`);
      }
      console.log(
        `list ${files} files, first page by ${sort} through tRPC on PostgreSQL: p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms`,
      );
    }
    const plan = await t.db.execute(sql`explain analyze
      select id, name from documents
      where org_id = ${firm.org.id} and folder_id = ${root.id} and deleted_at is null
      order by name desc, id desc limit 50`);
    const lines = (plan as unknown as { rows: Record<string, string>[] }).rows.map(
      (r) => Object.values(r)[0],
    );
    console.log(lines.join('\n'));
  } finally {
    await t.close();
    delete process.env.DATABASE_URL;
  }
}

async function benchUpload() {
  const bytes = Number(args.mb) * 1024 * 1024;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-upload-'));
  const t = await createTestApp(
    { DATA_DIR: dataDir, UPLOAD_MAX_BYTES: String(bytes + 1024) },
    { dataDir: path.join(dataDir, 'db') },
  );
  try {
    const firm = await t.seedFirm('Upload bench');
    const root = await t.client(firm.owner.token).documents.open.mutate({ clientId: null });
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const chunk = randomBytes(1024 * 1024);
    const boundary = `bench${Date.now()}`;
    const url = new URL(`${t.url}/api/documents/upload?folderId=${root.id}`);
    const started = performance.now();
    const uploaded = await new Promise<{ id: string }>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${firm.owner.token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(body)) : reject(new Error(body))));
        },
      );
      req.on('error', reject);
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      let sent = 0;
      const pump = () => {
        while (sent < bytes) {
          const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
          sent += part.length;
          if (!req.write(part)) return void req.once('drain', pump);
        }
        req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    const upSeconds = (performance.now() - started) / 1000;
    const upPeak = peak;
    peak = process.memoryUsage().rss;
    const downStart = performance.now();
    const received = await new Promise<number>((resolve, reject) => {
      http
        .get(
          `${t.url}/api/documents/${uploaded.id}/download`,
          { headers: { authorization: `Bearer ${firm.owner.token}` } },
          (res) => {
            let n = 0;
            res.on('data', (d: Buffer) => {
              n += d.length;
            });
            res.on('end', () => resolve(n));
          },
        )
        .on('error', reject);
    });
    clearInterval(sampler);
    if (received !== bytes) throw new Error(`downloaded ${received} of ${bytes} bytes`);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(
      `upload ${args.mb} MB: ${upSeconds.toFixed(1)} s, resident memory peak ${mb(upPeak)} MB against ${mb(baseline)} MB before (+${mb(Math.max(0, upPeak - baseline))} MB)`,
    );
    console.log(
      `download ${args.mb} MB: ${((performance.now() - downStart) / 1000).toFixed(1)} s, resident memory peak ${mb(peak)} MB (+${mb(Math.max(0, peak - baseline))} MB over the same baseline)`,
    );
  } finally {
    await t.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (!args['skip-list']) await benchList();
if (!args['skip-upload']) await benchUpload();
process.exit(0);
