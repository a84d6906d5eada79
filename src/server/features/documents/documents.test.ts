import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTeam, documents, documentVersions, orgs, systemLog } from '../../db/schema';
import { createStorage, type TStorage } from '../../files/storage';
import { createTestApp, type TTestApp } from '../../test/app';
import { download, filesUnder, randomFile, sha256, uploadFile } from '../../test/files';
import { membersForSeededRoles } from '../../test/role-members';
import { purgeTrash } from './trash';

const MAX = 200_000;
let t: TTestApp;
let dataDir: string;
let filesDir: string;
let storage: TStorage;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'documents-test-'));
  filesDir = path.join(dataDir, 'files');
  t = await createTestApp({ DATA_DIR: dataDir, UPLOAD_MAX_BYTES: String(MAX) });
  storage = await createStorage(t.config);
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const logOf = (orgId: string, action: string) =>
  t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), eq(systemLog.action, action)));

async function firmWithClient(name: string) {
  const firm = await t.seedFirm(name);
  const api = t.client(firm.owner.token);
  const client = await api.clients.create.mutate({ code: 'C1', name: 'Rakesh Mehta' });
  const root = await api.documents.open.mutate({ clientId: client.id });
  return { firm, api, client, root, token: firm.owner.token };
}

describe('upload and download', () => {
  it('streams a file in and out with its checksum, sniffed type and safe headers', async () => {
    const { firm, api, root, token } = await firmWithClient('Round trip');
    const bytes = randomFile(150_000);
    const up = await uploadFile(t, token, root.id, 'statement.bin', bytes);
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ name: 'statement.bin', version: 1, created: true });

    const { res, bytes: back } = await download(t, token, `/api/documents/${up.body.id}/download`);
    expect(res.status).toBe(200);
    expect(sha256(back)).toBe(sha256(bytes));
    expect(res.headers.get('x-checksum-sha256')).toBe(sha256(bytes));
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="statement.bin"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');

    const [version] = await t.db
      .select()
      .from(documentVersions)
      .where(eq(documentVersions.documentId, up.body.id));
    expect(version?.checksumSha256).toBe(sha256(bytes));
    expect(version?.size).toBe(150_000);
    expect(version?.storageKey).toMatch(new RegExp(`^${firm.org.id}/[0-9a-f-]{36}$`));
    expect(await filesUnder(filesDir)).toContain(version?.storageKey);

    const listed = await api.documents.contents.query({ folderId: root.id });
    expect(listed.documents.rows.map((r) => r.name)).toEqual(['statement.bin']);
    expect(await logOf(firm.org.id, 'documents.file.upload')).toHaveLength(1);
    expect(await logOf(firm.org.id, 'documents.file.download')).toHaveLength(1);
  });

  it('detects the type from the content, and previews only PDFs and images', async () => {
    const { root, token } = await firmWithClient('Sniff');
    const pdf = await uploadFile(t, token, root.id, 'return.pdf', '%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\n');
    const fake = await uploadFile(
      t,
      token,
      root.id,
      'fake.pdf',
      '<html><script>alert(1)</script></html>',
      'application/pdf',
    );
    const rows = await t.db.select().from(documents).where(eq(documents.folderId, root.id));
    const typeOf = (id: string) => rows.find((r) => r.id === id)?.contentType;
    expect(typeOf(pdf.body.id)).toBe('application/pdf');
    expect(typeOf(fake.body.id)).toBe('text/plain');

    const preview = await download(t, token, `/api/documents/${pdf.body.id}/preview`);
    expect(preview.res.status).toBe(200);
    expect(preview.res.headers.get('content-type')).toBe('application/pdf');
    expect(preview.res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(preview.res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const refused = await download(t, token, `/api/documents/${fake.body.id}/preview`);
    expect(refused.res.status).toBe(400);
  });

  it('keeps a name like ../../etc/passwd as a name only', async () => {
    const { api, root, token } = await firmWithClient('Traversal');
    const before = await filesUnder(filesDir);
    const up = await uploadFile(t, token, root.id, '../../etc/passwd', 'root:x:0:0');
    expect(up.status).toBe(201);
    expect(up.body.name).toBe('../../etc/passwd');
    const after = await filesUnder(filesDir);
    const added = after.filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
    const { res } = await download(t, token, `/api/documents/${up.body.id}/download`);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename=".._.._etc_passwd"; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`,
    );
    const listed = await api.documents.contents.query({ folderId: root.id });
    expect(listed.documents.rows[0]?.name).toBe('../../etc/passwd');
  });

  it('refuses a file over the limit while streaming and leaves nothing behind', async () => {
    const { firm, root, token } = await firmWithClient('Limit');
    const before = await filesUnder(filesDir);
    const up = await uploadFile(t, token, root.id, 'big.bin', randomFile(MAX + 50_000));
    expect(up.status).toBe(413);
    expect(up.body.message).toBe('The file is larger than the limit of 195 KB');
    expect(await filesUnder(filesDir)).toEqual(before);
    expect(await t.db.select().from(documents).where(eq(documents.orgId, firm.org.id))).toHaveLength(0);
    // Exactly at the limit is fine.
    expect((await uploadFile(t, token, root.id, 'edge.bin', randomFile(MAX))).status).toBe(201);
  });

  it('leaves nothing behind when the browser cancels an upload half-way', async () => {
    const { firm, root, token } = await firmWithClient('Cancel');
    const before = await filesUnder(filesDir);
    const boundary = 'cancelled-upload';
    const req = http.request(`${t.url}/api/documents/upload?folderId=${root.id}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    req.on('error', () => {});
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n\r\n`);
    req.write(randomFile(100_000));
    // Let the server start storing it, then cut the connection as an aborted XHR does.
    await expect.poll(async () => (await filesUnder(filesDir)).length).toBeGreaterThan(before.length);
    req.destroy();
    await expect.poll(async () => filesUnder(filesDir)).toEqual(before);
    expect(await t.db.select().from(documents).where(eq(documents.orgId, firm.org.id))).toHaveLength(0);
  });

  it('makes a new version when the same name is uploaded into the same folder', async () => {
    const { api, root, token } = await firmWithClient('Versions');
    const v1 = randomFile(1000);
    const v2 = randomFile(2000);
    const first = await uploadFile(t, token, root.id, 'ledger.xlsx', v1);
    const second = await uploadFile(t, token, root.id, 'Ledger.xlsx', v2);
    expect(second.body).toMatchObject({ id: first.body.id, version: 2, created: false });
    const listed = await api.documents.contents.query({ folderId: root.id });
    expect(listed.documents.rows).toHaveLength(1);
    expect(listed.documents.rows[0]).toMatchObject({ version: 2, size: 2000 });
    const { versions } = await api.documents.versions.query({ documentId: first.body.id });
    expect(versions.map((v) => [v.version, v.size, v.checksumSha256])).toEqual([
      [2, 2000, sha256(v2)],
      [1, 1000, sha256(v1)],
    ]);
    const old = await download(t, token, `/api/documents/${first.body.id}/download?version=1`);
    expect(sha256(old.bytes)).toBe(sha256(v1));
    const current = await download(t, token, `/api/documents/${first.body.id}/download`);
    expect(sha256(current.bytes)).toBe(sha256(v2));
  });

  it('downloads a folder as a zip with its sub-folders', async () => {
    const { api, root, token } = await firmWithClient('Zip');
    const kyc = await api.documents.createFolder.mutate({ parentId: root.id, name: 'KYC' });
    const inner = await api.documents.createFolder.mutate({ parentId: kyc.id, name: 'Bank' });
    const a = randomFile(5000);
    await uploadFile(t, token, kyc.id, 'pan.pdf', a);
    await uploadFile(t, token, inner.id, '../escape.txt', 'hello');
    const { res, bytes } = await download(t, token, `/api/documents/folders/${kyc.id}/zip`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = await JSZip.loadAsync(bytes);
    const names = Object.keys(zip.files)
      .filter((n) => !zip.files[n]?.dir)
      .sort();
    expect(names).toEqual(['Bank/.._escape.txt', 'pan.pdf']);
    const pan = zip.file('pan.pdf');
    expect(pan && sha256(await pan.async('uint8array'))).toBe(sha256(a));
  });
});

describe('folders', () => {
  it('creates the firm default folders once, however often the tree is opened', async () => {
    const firm = await t.seedFirm('Defaults');
    await t.db
      .update(orgs)
      .set({ settings: { defaultClientFolders: ['KYC', 'Returns/2026-27', 'returns/2025-26'] } })
      .where(eq(orgs.id, firm.org.id));
    const api = t.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'D1', name: 'Defaults Client' });
    const [a, b] = await Promise.all([
      api.documents.open.mutate({ clientId: client.id }),
      api.documents.open.mutate({ clientId: client.id }),
    ]);
    expect(a.id).toBe(b.id);
    const again = await api.documents.open.mutate({ clientId: client.id });
    expect(again.id).toBe(a.id);
    const tree = await api.documents.folders.query({ clientId: client.id });
    const nameOf = (id: string | null) => tree.find((f) => f.id === id)?.name ?? null;
    expect(tree.map((f) => `${nameOf(f.parentId)}>${f.name}`).sort()).toEqual([
      'Documents>KYC',
      'Documents>Returns',
      'Returns>2025-26',
      'Returns>2026-27',
      'null>Documents',
    ]);
    // The vault gets no client folders.
    const vault = await api.documents.open.mutate({ clientId: null });
    expect(await api.documents.folders.query({ clientId: null })).toEqual([
      { id: vault.id, parentId: null, name: 'Vault', portal: { visible: false, hiddenBy: [] } },
    ]);
  });

  it('keeps the default folders setting, validated, for the settings screen', async () => {
    const firm = await t.seedFirm('Setting');
    const api = t.client(firm.owner.token);
    expect(await api.documents.defaultFolders.query()).toEqual({ folders: [] });
    await expect(
      api.documents.setDefaultFolders.mutate({ folders: ['KYC', 'Returns/..'] }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    expect(await api.documents.setDefaultFolders.mutate({ folders: [' KYC ', 'Returns / 2026-27'] })).toEqual(
      {
        folders: ['KYC', 'Returns/2026-27'],
        changed: true,
      },
    );
    const [org] = await t.db.select().from(orgs).where(eq(orgs.id, firm.org.id));
    expect(org?.settings).toMatchObject({ defaultClientFolders: ['KYC', 'Returns/2026-27'] });
    expect(await logOf(firm.org.id, 'documents.defaultFolders.update')).toHaveLength(1);
    await expect(
      t.client(firm.staff.token).documents.setDefaultFolders.mutate({ folders: [] }),
    ).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    const client = await api.clients.create.mutate({ code: 'S1', name: 'Setting Client' });
    await api.documents.open.mutate({ clientId: client.id });
    const names = (await api.documents.folders.query({ clientId: client.id })).map((f) => f.name).sort();
    expect(names).toEqual(['2026-27', 'Documents', 'KYC', 'Returns']);
  });

  it('renames, moves and refuses impossible moves, with clear messages', async () => {
    const { api, root, token } = await firmWithClient('Folder ops');
    const a = await api.documents.createFolder.mutate({ parentId: root.id, name: 'A' });
    const b = await api.documents.createFolder.mutate({ parentId: a.id, name: 'B' });
    await expect(api.documents.createFolder.mutate({ parentId: root.id, name: 'a' })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'A folder named “a” already exists here',
    });
    await expect(api.documents.moveFolder.mutate({ folderId: a.id, targetId: b.id })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'A folder cannot move into itself',
    });
    await expect(api.documents.createFolder.mutate({ parentId: root.id, name: 'x/y' })).rejects.toMatchObject(
      {
        data: { code: 'BAD_REQUEST' },
      },
    );
    await api.documents.moveFolder.mutate({ folderId: b.id, targetId: root.id });
    await api.documents.renameFolder.mutate({ folderId: b.id, name: 'Bank' });
    const up = await uploadFile(t, token, a.id, 'file.txt', 'text');
    await api.documents.move.mutate({ documentId: up.body.id, targetId: b.id });
    const inB = await api.documents.contents.query({ folderId: b.id });
    expect(inB.folder.name).toBe('Bank');
    expect(inB.path.map((p) => p.name)).toEqual(['Documents', 'Bank']);
    expect(inB.documents.rows.map((r) => r.name)).toEqual(['file.txt']);
    await api.documents.rename.mutate({ documentId: up.body.id, name: 'renamed.txt' });
    const found = await api.documents.search.query({ clientId: inB.folder.clientId, search: 'NAMED' });
    expect(found.map((f) => [f.name, f.folderName])).toEqual([['renamed.txt', 'Bank']]);
    await expect(api.documents.renameFolder.mutate({ folderId: root.id, name: 'Top' })).rejects.toMatchObject(
      {
        data: { code: 'BAD_REQUEST' },
      },
    );
  });

  it('sorts and pages a folder by name, date and size', async () => {
    const { api, root, token } = await firmWithClient('Sort');
    await uploadFile(t, token, root.id, 'b.bin', randomFile(300));
    await uploadFile(t, token, root.id, 'a.bin', randomFile(100));
    await uploadFile(t, token, root.id, 'c.bin', randomFile(200));
    const names = async (sort: 'name' | 'date' | 'size', direction: 'asc' | 'desc', page = 1) =>
      (
        await api.documents.contents.query({ folderId: root.id, sort, direction, page, pageSize: 2 })
      ).documents.rows.map((r) => r.name);
    expect(await names('name', 'asc')).toEqual(['a.bin', 'b.bin']);
    expect(await names('name', 'asc', 2)).toEqual(['c.bin']);
    expect(await names('size', 'desc')).toEqual(['b.bin', 'c.bin']);
    expect(await names('date', 'desc')).toEqual(['c.bin', 'a.bin']);
    const page = await api.documents.contents.query({ folderId: root.id, pageSize: 2 });
    expect(page.documents.total).toBe(3);
  });

  it('shares client folders and files with the portal on request; the vault stays internal', async () => {
    const { api, root, token } = await firmWithClient('Visibility');
    const kyc = await api.documents.createFolder.mutate({ parentId: root.id, name: 'KYC' });
    expect(kyc.visibleToPortal).toBe(false);
    await api.documents.setFolderVisibility.mutate({ folderId: kyc.id, visibleToPortal: true });
    const inner = await api.documents.createFolder.mutate({ parentId: kyc.id, name: 'Shared inside' });
    expect(inner.visibleToPortal).toBe(true);
    const up = await uploadFile(t, token, kyc.id, 'pan.pdf', '%PDF-1.4');
    const listed = await api.documents.contents.query({ folderId: kyc.id });
    expect(listed.documents.rows[0]?.visibleToPortal).toBe(true);
    await api.documents.setVisibility.mutate({ documentId: up.body.id, visibleToPortal: false });
    const vault = await api.documents.open.mutate({ clientId: null });
    const internal = await api.documents.createFolder.mutate({ parentId: vault.id, name: 'Firm' });
    await expect(
      api.documents.setFolderVisibility.mutate({ folderId: internal.id, visibleToPortal: true }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });
});

describe('trash', () => {
  it('deletes to the trash, restores, and purges after 30 days with the stored bytes', async () => {
    const { firm, api, root, token } = await firmWithClient('Trash');
    const folder = await api.documents.createFolder.mutate({ parentId: root.id, name: 'Old' });
    const inFolder = await uploadFile(t, token, folder.id, 'inside.bin', randomFile(100));
    const loose = await uploadFile(t, token, root.id, 'loose.bin', randomFile(100));

    await api.documents.delete.mutate({ documentId: loose.body.id });
    expect((await api.documents.contents.query({ folderId: root.id })).documents.rows).toHaveLength(0);
    await api.documents.deleteFolder.mutate({ folderId: folder.id });
    // What lies in a deleted folder is out of reach with it.
    expect((await download(t, token, `/api/documents/${inFolder.body.id}/download`)).res.status).toBe(404);
    const trash = await api.documents.trash.query({ clientId: root.clientId });
    expect(trash.map((r) => [r.kind, r.name])).toEqual([
      ['folder', 'Old'],
      ['document', 'loose.bin'],
    ]);
    const [first] = trash;
    expect(first && first.purgeAt.getTime() - first.deletedAt.getTime()).toBe(30 * 24 * 3600 * 1000);

    await api.documents.restore.mutate({ kind: 'document', id: loose.body.id });
    await api.documents.restore.mutate({ kind: 'folder', id: folder.id });
    expect((await download(t, token, `/api/documents/${inFolder.body.id}/download`)).res.status).toBe(200);
    expect(await api.documents.trash.query({ clientId: root.clientId })).toEqual([]);

    // Delete again and let 31 days pass: rows and bytes go.
    const keys = (
      await t.db.select().from(documentVersions).where(eq(documentVersions.orgId, firm.org.id))
    ).map((v) => v.storageKey);
    await api.documents.deleteFolder.mutate({ folderId: folder.id });
    await api.documents.delete.mutate({ documentId: loose.body.id });
    expect(await purgeTrash(t.db, storage, new Date())).toMatchObject({ files: 0, folders: 0 });
    const purged = await purgeTrash(t.db, storage, new Date(Date.now() + 31 * 24 * 3600 * 1000));
    expect(purged).toMatchObject({ files: 2, folders: 1, objects: 2 });
    const left = await filesUnder(filesDir);
    for (const key of keys) expect(left).not.toContain(key);
    expect(await t.db.select().from(documents).where(eq(documents.orgId, firm.org.id))).toHaveLength(0);
    expect(await logOf(firm.org.id, 'documents.trash.purge')).toHaveLength(1);
  });
});

describe('cross-org', () => {
  it('answers NOT_FOUND / 404 for another firm’s folders and files', async () => {
    const a = await firmWithClient('Firm A');
    const b = await firmWithClient('Firm B');
    const up = await uploadFile(t, a.token, a.root.id, 'secret.pdf', '%PDF-1.4 secret');
    const other = b.api;
    const notFound = { data: { code: 'NOT_FOUND' } };
    await expect(other.documents.contents.query({ folderId: a.root.id })).rejects.toMatchObject(notFound);
    await expect(other.documents.open.mutate({ clientId: a.client.id })).rejects.toMatchObject(notFound);
    await expect(other.documents.versions.query({ documentId: up.body.id })).rejects.toMatchObject(notFound);
    await expect(other.documents.rename.mutate({ documentId: up.body.id, name: 'x' })).rejects.toMatchObject(
      notFound,
    );
    await expect(other.documents.delete.mutate({ documentId: up.body.id })).rejects.toMatchObject(notFound);
    await expect(
      other.documents.move.mutate({ documentId: up.body.id, targetId: b.root.id }),
    ).rejects.toMatchObject(notFound);
    await expect(
      other.documents.createFolder.mutate({ parentId: a.root.id, name: 'Mine' }),
    ).rejects.toMatchObject(notFound);
    await expect(other.documents.restore.mutate({ kind: 'document', id: up.body.id })).rejects.toMatchObject(
      notFound,
    );
    for (const route of [
      `/api/documents/${up.body.id}/download`,
      `/api/documents/${up.body.id}/preview`,
      `/api/documents/folders/${a.root.id}/zip`,
    ]) {
      const { res } = await download(t, b.token, route);
      expect(res.status, route).toBe(404);
    }
    expect((await uploadFile(t, b.token, a.root.id, 'in.txt', 'x')).status).toBe(404);
    // Firm A's file is untouched.
    const mine = await a.api.documents.contents.query({ folderId: a.root.id });
    expect(mine.documents.rows.map((r) => r.name)).toEqual(['secret.pdf']);
  });
});

describe('permissions', () => {
  it('needs the documents rights, and an assigned-clients-only role sees only its clients', async () => {
    const { firm, api, client, root, token } = await firmWithClient('Rights');
    const up = await uploadFile(t, token, root.id, 'a.txt', 'a');
    // The seeded firm's plain staff role has no documents right at all.
    const none = t.client(firm.staff.token);
    await expect(none.documents.contents.query({ folderId: root.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    expect((await download(t, firm.staff.token, `/api/documents/${up.body.id}/download`)).res.status).toBe(
      403,
    );
    expect((await uploadFile(t, firm.staff.token, root.id, 'b.txt', 'b')).status).toBe(403);

    const cast = await membersForSeededRoles(t, firm);
    const staff = cast.find((m) => m.role === 'Staff');
    if (!staff) throw new Error('no staff');
    const staffApi = t.client(staff.token);
    await expect(staffApi.documents.contents.query({ folderId: root.id })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect((await download(t, staff.token, `/api/documents/${up.body.id}/download`)).res.status).toBe(404);
    // The firm vault is not tied to a client.
    const vault = await staffApi.documents.open.mutate({ clientId: null });
    expect(vault.name).toBe('Vault');
    // Staff may not delete (the seeded Staff role has view, create and edit).
    await t.db.insert(clientTeam).values({ orgId: firm.org.id, clientId: client.id, memberId: staff.id });
    expect((await staffApi.documents.contents.query({ folderId: root.id })).documents.total).toBe(1);
    await expect(staffApi.documents.delete.mutate({ documentId: up.body.id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    expect(api).toBeDefined();
  });
});
