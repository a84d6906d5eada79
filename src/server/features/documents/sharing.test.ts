import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFolders, documents, roles, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { uploadFile } from '../../test/files';
import { seedPortalUser } from '../../test/portal';

// Sharing with the client portal makes the way visible, and the staff screens say what the client
// actually sees: every case is checked against what a signed-in portal user lists.

let t: TTestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sharing-test-'));
  t = await createTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function world(name: string) {
  const firm = await t.seedFirm(name);
  const api = t.client(firm.owner.token);
  const client = await api.clients.create.mutate({ code: 'C1', name: 'Rakesh Mehta' });
  const root = await api.documents.open.mutate({ clientId: client.id });
  const portal = await seedPortalUser(t, { orgId: firm.org.id, clientIds: [client.id] });
  /** Every file name the portal user can reach, folder by folder from the top. */
  const portalFiles = async (): Promise<string[]> => {
    const names: string[] = [];
    const walk = async (folderId?: string) => {
      const here = await portal.client.clientPortalDocuments.folder.query({ clientId: client.id, folderId });
      names.push(...here.documents.rows.map((d) => d.name));
      for (const f of here.folders) await walk(f.id);
    };
    await walk();
    return names.sort();
  };
  const portalOpens = (folderId: string) =>
    portal.client.clientPortalDocuments.folder.query({ clientId: client.id, folderId }).then(
      () => true,
      () => false,
    );
  const log = (action: string) =>
    t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, action)))
      .orderBy(asc(systemLog.at));
  return { firm, api, client, root, portal, portalFiles, portalOpens, log };
}

describe('sharing a file makes the way to it visible', () => {
  it('an upload shared into a new internal folder reaches the client, the folder shared with it', async () => {
    const w = await world('Upload shared');
    const form16 = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'Form 16' });
    expect(form16.visibleToPortal).toBe(false);
    const up = await uploadFile(t, w.firm.owner.token, form16.id, 'Form-16.pdf', '%PDF-1.4', undefined, {
      share: 'true',
    });
    expect(up.status).toBe(201);
    expect(await w.portalFiles()).toEqual(['Form-16.pdf']);
    expect(up.body).toMatchObject({ portal: 'visible', alsoShared: [{ id: form16.id, name: 'Form 16' }] });
    const staff = await w.api.documents.contents.query({ folderId: form16.id });
    expect(staff.folder.portal).toEqual({ visible: true, hiddenBy: [] });
    expect(staff.documents.rows.map((r) => [r.name, r.portal])).toEqual([['Form-16.pdf', 'visible']]);
    const [opened] = await w.log('documents.folder.visibility');
    expect(opened).toMatchObject({
      recordId: form16.id,
      actorMemberId: w.firm.owner.id,
      summary: 'Shared the folder “Form 16” with the client portal, so the client sees “Form-16.pdf”',
    });
  });

  it('an upload without a choice follows its folder; share=false keeps a file internal in a shared folder', async () => {
    const w = await world('Upload choices');
    const kyc = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'KYC' });
    await w.api.documents.setFolderVisibility.mutate({ folderId: kyc.id, visibleToPortal: true });
    const plain = await uploadFile(t, w.firm.owner.token, kyc.id, 'pan.pdf', '%PDF-1.4');
    const internal = await uploadFile(t, w.firm.owner.token, kyc.id, 'memo.txt', 'memo', undefined, {
      share: 'false',
    });
    expect(plain.body.portal).toBe('visible');
    expect(internal.body.portal).toBe('internal');
    expect(await w.portalFiles()).toEqual(['pan.pdf']);
    // A new version never hides a file, whatever the choice.
    await uploadFile(t, w.firm.owner.token, kyc.id, 'pan.pdf', '%PDF-1.5', undefined, { share: 'false' });
    expect(await w.portalFiles()).toEqual(['pan.pdf']);
    // ...and a shared new version of an internal file shares it.
    const shared = await uploadFile(t, w.firm.owner.token, kyc.id, 'memo.txt', 'memo 2', undefined, {
      share: 'true',
    });
    expect(shared.body).toMatchObject({ version: 2, portal: 'visible', alsoShared: [] });
    expect(await w.portalFiles()).toEqual(['memo.txt', 'pan.pdf']);
    expect((await w.log('documents.file.visibility')).map((l) => l.summary)).toEqual([
      'Shared the file “memo.txt” with the client portal',
    ]);
  });

  it('sharing a file deep in internal folders shares each folder above it, each logged, in one go', async () => {
    const w = await world('Toggle shared');
    const returns = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'Returns' });
    const year = await w.api.documents.createFolder.mutate({ parentId: returns.id, name: '2025-26' });
    const up = await uploadFile(t, w.firm.owner.token, year.id, 'itr-v.pdf', '%PDF-1.4');
    const before = await w.api.documents.contents.query({ folderId: year.id });
    expect(before.folder.portal).toEqual({
      visible: false,
      hiddenBy: [
        { id: returns.id, name: 'Returns' },
        { id: year.id, name: '2025-26' },
      ],
    });
    expect(before.documents.rows[0]?.portal).toBe('internal');

    const result = await w.api.documents.setVisibility.mutate({
      documentId: up.body.id,
      visibleToPortal: true,
    });
    expect(result.alsoShared.map((f) => f.name)).toEqual(['Returns', '2025-26']);
    expect(await w.portalFiles()).toEqual(['itr-v.pdf']);
    expect((await w.api.documents.contents.query({ folderId: year.id })).documents.rows[0]?.portal).toBe(
      'visible',
    );
    expect((await w.log('documents.folder.visibility')).map((l) => l.summary)).toEqual([
      'Shared the folder “Returns” with the client portal, so the client sees “itr-v.pdf”',
      'Shared the folder “2025-26” with the client portal, so the client sees “itr-v.pdf”',
    ]);
    expect(await w.log('documents.file.visibility')).toHaveLength(1);
  });

  it('sharing a folder inside an internal one shares the folders above it', async () => {
    const w = await world('Folder shared');
    const returns = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'Returns' });
    const year = await w.api.documents.createFolder.mutate({ parentId: returns.id, name: '2025-26' });
    const result = await w.api.documents.setFolderVisibility.mutate({
      folderId: year.id,
      visibleToPortal: true,
    });
    expect(result.alsoShared).toEqual([{ id: returns.id, name: 'Returns' }]);
    expect(await w.portalOpens(year.id)).toBe(true);
  });

  it('a file already marked shared but hidden by its folder is reached by sharing it again', async () => {
    const w = await world('Share again');
    const kyc = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'KYC' });
    await w.api.documents.setFolderVisibility.mutate({ folderId: kyc.id, visibleToPortal: true });
    const up = await uploadFile(t, w.firm.owner.token, kyc.id, 'pan.pdf', '%PDF-1.4');
    await w.api.documents.setFolderVisibility.mutate({ folderId: kyc.id, visibleToPortal: false });
    expect(await w.portalFiles()).toEqual([]);
    const again = await w.api.documents.setVisibility.mutate({
      documentId: up.body.id,
      visibleToPortal: true,
    });
    expect(again.alsoShared.map((f) => f.name)).toEqual(['KYC']);
    expect(await w.portalFiles()).toEqual(['pan.pdf']);
  });
});

describe('the staff screens say what the client sees', () => {
  it('a folder made internal: its shared files and folders show as hidden, in the folder, the search and the move picker', async () => {
    const w = await world('Hidden by folder');
    const kyc = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'KYC' });
    await w.api.documents.setFolderVisibility.mutate({ folderId: kyc.id, visibleToPortal: true });
    const bank = await w.api.documents.createFolder.mutate({ parentId: kyc.id, name: 'Bank' });
    await uploadFile(t, w.firm.owner.token, kyc.id, 'pan.pdf', '%PDF-1.4');
    const memo = await uploadFile(t, w.firm.owner.token, kyc.id, 'memo.txt', 'memo');
    await w.api.documents.setVisibility.mutate({ documentId: memo.body.id, visibleToPortal: false });
    expect(await w.portalFiles()).toEqual(['pan.pdf']);

    await w.api.documents.setFolderVisibility.mutate({ folderId: kyc.id, visibleToPortal: false });
    expect(await w.portalFiles()).toEqual([]);
    expect(await w.portalOpens(bank.id)).toBe(false);

    const inKyc = await w.api.documents.contents.query({ folderId: kyc.id });
    expect(inKyc.folder.portal).toEqual({ visible: false, hiddenBy: [{ id: kyc.id, name: 'KYC' }] });
    expect(inKyc.folders.map((f) => [f.name, f.visibleToPortal, f.portal])).toEqual([
      ['Bank', true, 'hidden'],
    ]);
    expect(inKyc.documents.rows.map((d) => [d.name, d.visibleToPortal, d.portal])).toEqual([
      ['memo.txt', false, 'internal'],
      ['pan.pdf', true, 'hidden'],
    ]);
    const top = await w.api.documents.contents.query({ folderId: w.root.id });
    expect(top.folder.portal).toEqual({ visible: true, hiddenBy: [] });
    expect(top.folders.map((f) => [f.name, f.portal])).toEqual([['KYC', 'internal']]);

    const found = await w.api.documents.search.query({ clientId: w.client.id, search: 'pan' });
    expect(found.map((f) => [f.name, f.portal, f.hiddenBy])).toEqual([
      ['pan.pdf', 'hidden', [{ id: kyc.id, name: 'KYC' }]],
    ]);
    const tree = await w.api.documents.folders.query({ clientId: w.client.id });
    expect(tree.map((f) => [f.name, f.portal.visible]).sort()).toEqual([
      ['Bank', false],
      ['Documents', true],
      ['KYC', false],
    ]);
  });

  it('moving a shared file into an internal folder hides it, and says so in the log', async () => {
    const w = await world('Move hides');
    const shared = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'Shared' });
    await w.api.documents.setFolderVisibility.mutate({ folderId: shared.id, visibleToPortal: true });
    const papers = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'Working papers' });
    const up = await uploadFile(t, w.firm.owner.token, shared.id, 'pan.pdf', '%PDF-1.4');
    expect(await w.portalFiles()).toEqual(['pan.pdf']);

    await w.api.documents.move.mutate({ documentId: up.body.id, targetId: papers.id });
    expect(await w.portalFiles()).toEqual([]);
    const there = await w.api.documents.contents.query({ folderId: papers.id });
    expect(there.documents.rows.map((d) => [d.name, d.portal])).toEqual([['pan.pdf', 'hidden']]);
    const [moved] = await w.log('documents.file.move');
    expect(moved?.summary).toBe(
      'Moved the file “pan.pdf” from “Shared” to “Working papers” (the client no longer sees it: “Working papers” is internal)',
    );
    // Moving it back brings it back, and says so too.
    await w.api.documents.move.mutate({ documentId: up.body.id, targetId: shared.id });
    expect(await w.portalFiles()).toEqual(['pan.pdf']);
    expect((await w.log('documents.file.move'))[1]?.summary).toMatch(/\(the client now sees it\)$/);
  });

  it('what the staff screen calls visible is exactly what the portal shows, folder by folder', async () => {
    const w = await world('Agreement');
    // The marks are set in the database, as any past mix of them may be: sharing through the API
    // would open the way and leave no folder hidden by another.
    const make = async (parentId: string, name: string, shared: boolean) => {
      const f = await w.api.documents.createFolder.mutate({ parentId, name });
      await t.db.update(documentFolders).set({ visibleToPortal: shared }).where(eq(documentFolders.id, f.id));
      return f;
    };
    const a = await make(w.root.id, 'A', true);
    const b = await make(w.root.id, 'B', false);
    const a1 = await make(a.id, 'A1', true);
    const a2 = await make(a.id, 'A2', false);
    const a2x = await make(a2.id, 'A2x', true);
    const b1 = await make(b.id, 'B1', true);
    const gone = await make(b1.id, 'Gone', true);
    await w.api.documents.deleteFolder.mutate({ folderId: gone.id });
    const files = new Map<string, string>();
    for (const f of [w.root, a, b, a1, a2, a2x, b1]) {
      const up = await uploadFile(t, w.firm.owner.token, f.id, `${f.name}.txt`, f.name, undefined, {
        share: 'false',
      });
      await t.db.update(documents).set({ visibleToPortal: true }).where(eq(documents.id, up.body.id));
      files.set(f.id, `${f.name}.txt`);
    }
    const seen = await w.portalFiles();
    for (const f of [w.root, a, b, a1, a2, a2x, b1]) {
      const staff = await w.api.documents.contents.query({ folderId: f.id });
      const opens = f.id === w.root.id ? true : await w.portalOpens(f.id);
      expect(staff.folder.portal.visible, f.name).toBe(opens);
      expect(staff.documents.rows[0]?.portal === 'visible', f.name).toBe(
        seen.includes(files.get(f.id) ?? ''),
      );
    }
    expect(seen).toEqual(['A.txt', 'A1.txt', 'Documents.txt']);
  });
});

describe('who may share, and where', () => {
  it('choosing on upload needs the edit right; the vault never shares', async () => {
    const w = await world('Rights');
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'documents.view', 'documents.create'] })
      .where(and(eq(roles.orgId, w.firm.org.id), eq(roles.name, 'Staff')));
    const folder = await w.api.documents.createFolder.mutate({ parentId: w.root.id, name: 'In' });
    const refused = await uploadFile(t, w.firm.staff.token, folder.id, 'a.txt', 'a', undefined, {
      share: 'true',
    });
    expect(refused.status).toBe(403);
    expect((await uploadFile(t, w.firm.staff.token, folder.id, 'a.txt', 'a')).status).toBe(201);
    expect(await w.portalFiles()).toEqual([]);
    expect((await w.api.documents.contents.query({ folderId: folder.id })).folder.visibleToPortal).toBe(
      false,
    );

    const vault = await w.api.documents.open.mutate({ clientId: null });
    const inVault = await uploadFile(t, w.firm.owner.token, vault.id, 'firm.txt', 'x', undefined, {
      share: 'true',
    });
    expect(inVault.status).toBe(400);
    expect(inVault.body.message).toBe(
      'The firm vault is internal: its files are never shown in the client portal',
    );
    const bad = await uploadFile(t, w.firm.owner.token, folder.id, 'b.txt', 'b', undefined, { share: 'yes' });
    expect(bad.status).toBe(400);
  });
});
