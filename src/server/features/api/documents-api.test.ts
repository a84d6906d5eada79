import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { randomFile, sha256 } from '../../test/files';
import { putOnTeam, seedClient } from '../../test/fixtures';

// Documents over the public API: the documents feature's own upload and download, with a key.

const MAX = 100_000;
let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MAX_BYTES: String(MAX) });
});
afterAll(() => t?.close());

type TFirm = Awaited<ReturnType<TTestApp['seedFirm']>>;

async function setUp(name: string) {
  const firm = await t.seedFirm(name);
  const api = t.client(firm.owner.token);
  const { secret } = await api.apiKeys.create.mutate({ name: 'Scanner', roleId: firm.roles.owner.id });
  const client = await seedClient(t, firm.org.id, { name: `${name} client` });
  const root = await api.documents.open.mutate({ clientId: client.id });
  return { firm, api, secret, client, root };
}

function upload(
  secret: string,
  query: Record<string, string>,
  name: string,
  bytes: Uint8Array | string,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart]), name);
  return fetch(`${t.url}/api/v1/documents?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, ...headers },
    body: form,
  });
}

/** The raw-body upload: PUT with the bytes as the body and the file's type as Content-Type. */
function put(
  secret: string,
  query: Record<string, string>,
  bytes: Uint8Array | string,
  headers: Record<string, string> = { 'content-type': 'application/octet-stream' },
) {
  return fetch(`${t.url}/api/v1/documents?${new URLSearchParams(query)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${secret}`, ...headers },
    body: bytes as BodyInit,
  });
}

/** What storage holds for the firm (files the uploads left, recorded or not). */
async function storedKeys(orgId: string) {
  const keys: string[] = [];
  for await (const object of t.storage.list(`${orgId}/`)) keys.push(object.key);
  return keys;
}

const get = (secret: string, path: string) =>
  fetch(`${t.url}/api/v1${path}`, { headers: { authorization: `Bearer ${secret}` } });

async function logOf(firm: TFirm, action: string) {
  return t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, action)));
}

describe('documents over the API', () => {
  it('uploads by streaming, lists with cursor paging and filters, gets metadata, downloads the bytes', async () => {
    const { firm, secret, client, root } = await setUp('Docs API & Co');
    const pdf = '%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\n';
    const up = await upload(secret, { folderId: root.id }, 'return.pdf', pdf);
    expect(up.status).toBe(201);
    const made = (await up.json()) as { id: string; version: number; created: boolean };
    expect(made).toMatchObject({ version: 1, created: true });
    // The same name again is the file's next version, as in the app.
    const again = await upload(secret, { folderId: root.id }, 'return.pdf', `${pdf}%more\n`);
    expect(await again.json()).toMatchObject({ id: made.id, version: 2, created: false });
    for (let i = 0; i < 3; i++)
      expect((await upload(secret, { folderId: root.id }, `scan-${i}.bin`, randomFile(100))).status).toBe(
        201,
      );

    const meta = await (await get(secret, `/documents/${made.id}`)).json();
    expect(meta).toMatchObject({
      id: made.id,
      name: 'return.pdf',
      folderId: root.id,
      clientId: client.id,
      version: 2,
      contentType: 'application/pdf',
      checksumSha256: sha256(new TextEncoder().encode(`${pdf}%more\n`)),
    });

    // Cursor paging: two pages of two, then the last.
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = (await (
        await get(secret, `/documents?clientId=${client.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json()) as { data: Array<{ id: string }>; nextCursor: string | null };
      seen.push(...page.data.map((r) => r.id));
      cursor = page.nextCursor;
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
    const inFolder = (await (await get(secret, `/documents?folderId=${root.id}`)).json()) as {
      data: unknown[];
    };
    expect(inFolder.data).toHaveLength(4);

    const file = await get(secret, `/documents/${made.id}/content`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-length')).toBe(String(new TextEncoder().encode(`${pdf}%more\n`).length));
    expect(file.headers.get('content-disposition')).toContain('attachment');
    expect(file.headers.get('content-disposition')).toContain('return.pdf');
    expect(await file.text()).toBe(`${pdf}%more\n`);
    const first = await get(secret, `/documents/${made.id}/content?version=1`);
    expect(await first.text()).toBe(pdf);

    expect(await logOf(firm, 'documents.file.upload')).toHaveLength(4);
    expect(await logOf(firm, 'documents.file.version')).toHaveLength(1);
    expect(await logOf(firm, 'documents.file.download')).toHaveLength(2);
  });

  it('keeps the upload rules: the size limit, the type from the bytes, a name that is only a name', async () => {
    const { secret, root } = await setUp('Rules & Co');
    const big = await upload(secret, { folderId: root.id }, 'big.bin', randomFile(MAX + 10_000));
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toContain('application/problem+json');
    // A "PDF" that is not one is stored as what its bytes are.
    const fake = await upload(secret, { folderId: root.id }, 'fake.pdf', 'MZ\x90\x00 not a pdf');
    const fakeId = ((await fake.json()) as { id: string }).id;
    const meta = (await (await get(secret, `/documents/${fakeId}`)).json()) as { contentType: string };
    expect(meta.contentType).not.toBe('application/pdf');
    const noFile = await fetch(`${t.url}/api/v1/documents?folderId=${root.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noFile.status).toBe(400);
    expect((await upload(secret, {}, 'x.txt', 'x')).status).toBe(400);
  });

  it('replays an upload with the same Idempotency-Key and refuses the key with other bytes', async () => {
    const { firm, secret, root } = await setUp('Idem docs & Co');
    const headers = { 'idempotency-key': 'scan-42' };
    const one = await upload(secret, { folderId: root.id }, 'scan.txt', 'hello', headers);
    expect(one.status).toBe(201);
    const two = await upload(secret, { folderId: root.id }, 'scan.txt', 'hello', headers);
    expect(two.status).toBe(201);
    expect(two.headers.get('idempotency-replayed')).toBe('true');
    expect(await two.json()).toEqual(await one.json());
    expect(await logOf(firm, 'documents.file.version')).toHaveLength(0);
    const other = await upload(secret, { folderId: root.id }, 'scan.txt', 'other bytes', headers);
    expect(other.status).toBe(422);
  });

  it("answers another firm's ids with 404 and keeps a key to its role and assigned clients", async () => {
    const mine = await setUp('Mine & Co');
    const theirs = await setUp('Theirs & Co');
    const theirFile = (await (
      await upload(theirs.secret, { folderId: theirs.root.id }, 'secret.txt', 'theirs')
    ).json()) as { id: string };
    for (const path of [
      `/documents/${theirFile.id}`,
      `/documents/${theirFile.id}/content`,
      `/documents?folderId=${theirs.root.id}`,
      `/documents?clientId=${theirs.client.id}`,
      `/documents/${randomUUID()}`,
    ]) {
      const answer = await get(mine.secret, path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
    }
    const into = await upload(mine.secret, { folderId: theirs.root.id }, 'x.txt', 'x');
    expect(into.status).toBe(404);
    const all = (await (await get(mine.secret, '/documents')).json()) as { data: unknown[] };
    expect(all.data).toHaveLength(0);

    // A role without documents rights is refused; a role limited to assigned clients sees only those.
    const noDocs = await mine.api.apiKeys.create.mutate({
      name: 'Clients only',
      roleId: mine.firm.roles.staff.id,
    });
    expect((await get(noDocs.secret, '/documents')).status).toBe(403);
    expect((await upload(noDocs.secret, { folderId: mine.root.id }, 'x.txt', 'x')).status).toBe(403);
    const [assigned] = await t.db
      .insert(roles)
      .values({
        orgId: mine.firm.org.id,
        name: 'Assigned',
        permissions: ['clients.view', 'documents.view', 'documents.create'],
        assignedClientsOnly: true,
      })
      .returning();
    if (!assigned) throw new Error('role not made');
    const limited = await mine.api.apiKeys.create.mutate({ name: 'Assigned', roleId: assigned.id });
    const myFile = (await (
      await upload(mine.secret, { folderId: mine.root.id }, 'mine.txt', 'mine')
    ).json()) as { id: string };
    expect((await get(limited.secret, `/documents/${myFile.id}`)).status).toBe(404);
    expect(
      ((await (await get(limited.secret, '/documents')).json()) as { data: unknown[] }).data,
    ).toHaveLength(0);
    await putOnTeam(t, mine.firm.org.id, mine.client.id, mine.firm.owner.id);
    expect((await get(limited.secret, `/documents/${myFile.id}`)).status).toBe(200);
    expect(
      ((await (await get(limited.secret, '/documents')).json()) as { data: unknown[] }).data,
    ).toHaveLength(1);
  });
});

describe('the raw-body upload (PUT)', () => {
  it('stores the body as the file, named by ?name= or Content-Disposition, through the same rules', async () => {
    const { firm, secret, client, root } = await setUp('Raw & Co');
    const pdf = '%PDF-1.7\n1 0 obj<<>>endobj\n';
    const up = await put(secret, { folderId: root.id, name: 'return.pdf' }, pdf, {
      'content-type': 'application/pdf',
    });
    expect(up.status).toBe(201);
    const made = (await up.json()) as { id: string; version: number; created: boolean; name: string };
    expect(made).toMatchObject({ name: 'return.pdf', version: 1, created: true });
    const meta = await (await get(secret, `/documents/${made.id}`)).json();
    expect(meta).toMatchObject({
      folderId: root.id,
      clientId: client.id,
      contentType: 'application/pdf',
      size: new TextEncoder().encode(pdf).length,
      checksumSha256: sha256(new TextEncoder().encode(pdf)),
    });
    expect(await (await get(secret, `/documents/${made.id}/content`)).text()).toBe(pdf);

    // The name from Content-Disposition (RFC 8187 for a name beyond ASCII); the same name again is
    // the next version, as with the multipart upload; a declared type never overrides the bytes.
    const disposition = await put(secret, { folderId: root.id }, '<html>not a pdf</html>', {
      'content-type': 'application/pdf',
      'content-disposition': "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
    });
    expect(disposition.status).toBe(201);
    const resume = (await disposition.json()) as { id: string; name: string };
    expect(resume.name).toBe('résumé.pdf');
    expect(
      ((await (await get(secret, `/documents/${resume.id}`)).json()) as { contentType: string }).contentType,
    ).toBe('text/plain');
    // By the client: into its top folder, the same file's next version.
    const again = await put(secret, { clientId: client.id, name: 'return.pdf' }, `${pdf}%more\n`, {
      'content-type': 'application/pdf',
    });
    expect(await again.json()).toMatchObject({ id: made.id, version: 2, created: false });
    expect(await logOf(firm, 'documents.file.upload')).toHaveLength(2);
    expect(await logOf(firm, 'documents.file.version')).toHaveLength(1);

    // The same Idempotency-Key and bytes answer the first answer again.
    const headers = { 'content-type': 'text/plain', 'idempotency-key': 'raw-1' };
    const one = await put(secret, { folderId: root.id, name: 'note.txt' }, 'hello', headers);
    const two = await put(secret, { folderId: root.id, name: 'note.txt' }, 'hello', headers);
    expect(two.headers.get('idempotency-replayed')).toBe('true');
    expect(await two.json()).toEqual(await one.json());
  });

  it("refuses an oversized body (nothing stored), a type that is not a file's, no name, another firm's folder", async () => {
    const mine = await setUp('Raw refusals & Co');
    const theirs = await setUp('Raw theirs & Co');
    const before = await storedKeys(mine.firm.org.id);

    const big = await put(mine.secret, { folderId: mine.root.id, name: 'big.bin' }, randomFile(MAX + 10_000));
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toContain('application/problem+json');
    expect(await big.json()).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });

    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const refused = await put(mine.secret, { folderId: mine.root.id, name: 'x.txt' }, 'a=b', {
        'content-type': type,
      });
      expect(refused.status, type).toBe(415);
      expect(await refused.json()).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    const untyped = await fetch(`${t.url}/api/v1/documents?folderId=${mine.root.id}&name=x.txt`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${mine.secret}` },
      body: new Blob([new Uint8Array([1, 2, 3])]),
    });
    expect(untyped.status).toBe(415);
    expect((await put(mine.secret, { folderId: mine.root.id }, 'no name')).status).toBe(400);
    expect((await put(mine.secret, { folderId: mine.root.id, name: 'a\u0007b' }, 'bad name')).status).toBe(
      400,
    );
    expect((await put(mine.secret, { name: 'x.txt' }, 'no folder')).status).toBe(400);

    // Another firm's folder or client (or one that does not exist) is a 404, before a byte is stored.
    const elsewhere: Record<string, string>[] = [
      { folderId: theirs.root.id },
      { folderId: randomUUID() },
      { clientId: theirs.client.id },
      { clientId: randomUUID() },
    ];
    for (const where of elsewhere) {
      const crossed = await put(mine.secret, { ...where, name: 'x.txt' }, 'x');
      expect(crossed.status, JSON.stringify(where)).toBe(404);
      expect(await crossed.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(
      (await put(mine.secret, { folderId: mine.root.id, clientId: mine.client.id, name: 'x.txt' }, 'x'))
        .status,
    ).toBe(400);
    // A key whose role may not add documents is refused.
    const noDocs = await mine.api.apiKeys.create.mutate({
      name: 'Clients only',
      roleId: mine.firm.roles.staff.id,
    });
    expect((await put(noDocs.secret, { folderId: mine.root.id, name: 'x.txt' }, 'x')).status).toBe(403);

    expect(await storedKeys(mine.firm.org.id)).toEqual(before);
    expect(await storedKeys(theirs.firm.org.id)).toHaveLength(0);
    const listed = (await (await get(mine.secret, `/documents?folderId=${mine.root.id}`)).json()) as {
      data: unknown[];
    };
    expect(listed.data).toHaveLength(0);
  });
});
