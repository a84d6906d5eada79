import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, notifications, systemLog, taskAttachments, tasks } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { randomFile, sha256, uploadFile } from '../../test/files';
import { portalCookie, portalUpload, seedPortalWorld } from '../../test/portal-world';
import { numberedName } from './documents';

const MAX = 100_000;
let t: TTestApp;
let dataDir: string;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-test-'));
  t = await createTestApp({ DATA_DIR: dataDir, UPLOAD_MAX_BYTES: String(MAX) });
  w = await seedPortalWorld(t);
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

const notificationsOf = (memberId: string, kind: string) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.memberId, memberId), eq(notifications.kind, kind)));

describe('home', () => {
  it('shows open client tasks, shared files, projects in progress and the firm, nothing internal', async () => {
    const { own, portal, firm } = w;
    await uploadFile(t, firm.owner.token, own.shared.id, 'engagement-letter.pdf', 'letter');
    await uploadFile(t, firm.owner.token, own.internal.id, 'internal-memo.txt', 'memo');
    await own.api.documents.setVisibility.mutate({
      documentId: (await uploadFile(t, firm.owner.token, own.shared.id, 'draft.txt', 'draft')).body.id,
      visibleToPortal: false,
    });
    const home = await portal.client.clientPortalHome.get.query({ clientId: own.client.id });
    expect(home.client.name).toBe('Mehta Traders');
    expect(home.openTasks.map((task) => task.title)).toEqual(['Send bank statements for Mehta Traders']);
    expect(home.openTasks[0]).toMatchObject({ status: 'SCHEDULED', dueDate: '2099-01-31', tags: ['bank'] });
    expect(home.recentDocuments.map((d) => d.name)).toEqual(['engagement-letter.pdf']);
    expect(home.projects.map((p) => [p.name, p.progress])).toEqual([
      ['Mehta Traders annual accounts', { done: 0, total: 1 }],
    ]);
    // The firm's name and the responsible member's name only: no email, phone or notes.
    expect(home.firm).toEqual({ name: 'Sharma & Associates', address: null, contactName: 'Sam Staff' });
    const text = JSON.stringify(home);
    for (const secret of ['INTERNAL', 'ledgers', 'internal-memo', 'draft.txt', firm.staff.email, 'Sibling']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('documents', () => {
  it('shows shared folders and files only, hides everything inside an un-shared folder, and answers NOT_FOUND for hidden ones', async () => {
    const { own, portal, firm, sibling } = w;
    const nested = await own.api.documents.createFolder.mutate({ parentId: own.shared.id, name: '2026' });
    expect(nested.visibleToPortal).toBe(true);
    await uploadFile(t, firm.owner.token, nested.id, 'form16.pdf', 'form');

    const top = await portal.client.clientPortalDocuments.folder.query({ clientId: own.client.id });
    expect(top.folder).toMatchObject({ id: own.root.id, isTop: true });
    expect(top.folders.map((f) => f.name)).toEqual(['Shared with you']);

    const inside = await portal.client.clientPortalDocuments.folder.query({
      clientId: own.client.id,
      folderId: nested.id,
    });
    expect(inside.path.map((p) => p.name)).toEqual(['Documents', 'Shared with you', '2026']);
    expect(inside.documents.rows.map((d) => d.name)).toEqual(['form16.pdf']);

    const notFound = { data: { code: 'NOT_FOUND' } };
    await expect(
      portal.client.clientPortalDocuments.folder.query({
        clientId: own.client.id,
        folderId: own.internal.id,
      }),
    ).rejects.toMatchObject(notFound);
    await expect(
      portal.client.clientPortalDocuments.folder.query({
        clientId: own.client.id,
        folderId: sibling.shared.id,
      }),
    ).rejects.toMatchObject(notFound);

    // Un-sharing the parent hides the shared folder below it and its files.
    await own.api.documents.setFolderVisibility.mutate({ folderId: own.shared.id, visibleToPortal: false });
    await expect(
      portal.client.clientPortalDocuments.folder.query({ clientId: own.client.id, folderId: nested.id }),
    ).rejects.toMatchObject(notFound);
    const home = await portal.client.clientPortalHome.get.query({ clientId: own.client.id });
    expect(home.recentDocuments.map((d) => d.name)).not.toContain('form16.pdf');
    await own.api.documents.setFolderVisibility.mutate({ folderId: own.shared.id, visibleToPortal: true });
  });

  it('uploads by HTTP with the portal cookie: shared, by the client user, audited, the client team notified; downloads it back', async () => {
    const { own, portal, firm } = w;
    const bytes = randomFile(20_000);
    const up = await portalUpload(
      t,
      portalCookie(portal.token),
      { clientId: own.client.id, folderId: own.shared.id },
      'pan-card.png',
      bytes,
    );
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ name: 'pan-card.png', version: 1, folderId: own.shared.id });

    const [doc] = await t.db.select().from(documents).where(eq(documents.id, up.body.id));
    expect(doc).toMatchObject({
      visibleToPortal: true,
      uploadedByClientUserId: portal.user.id,
      uploadedByMemberId: null,
      clientId: own.client.id,
    });
    const [log] = (await logOf(firm.org.id, 'documents.file.upload')).filter(
      (l) => l.recordId === up.body.id,
    );
    expect(log).toMatchObject({ actorKind: 'client_user', actorClientUserId: portal.user.id });
    // Sam is on the client's team; the owner is not.
    const told = await notificationsOf(firm.staff.id, 'document.uploaded');
    expect(told.map((n) => n.title)).toContain('Priya Mehta uploaded “pan-card.png” for Mehta Traders');
    expect(told.find((n) => n.title.includes('pan-card'))?.link).toBe(
      `/clients/${own.client.id}/documents/${own.shared.id}`,
    );
    expect(await notificationsOf(firm.owner.id, 'document.uploaded')).toEqual([]);
    // And by mail, queued with the upload and sent by the job queue.
    const mailed = (await t.outbox()).filter((m) => m.subject.includes('“pan-card.png”'));
    expect(mailed.map((m) => [m.to, m.notes.link])).toEqual([
      [firm.staff.email, `http://127.0.0.1/clients/${own.client.id}/documents/${own.shared.id}`],
    ]);

    const listed = await portal.client.clientPortalDocuments.folder.query({
      clientId: own.client.id,
      folderId: own.shared.id,
    });
    expect(listed.documents.rows.map((r) => [r.name, r.byYou])).toEqual(
      expect.arrayContaining([
        ['pan-card.png', true],
        ['engagement-letter.pdf', false],
      ]),
    );

    // The staff see it in the client's folder.
    const staffView = await own.api.documents.contents.query({ folderId: own.shared.id });
    expect(staffView.documents.rows.find((r) => r.name === 'pan-card.png')?.uploadedBy).toBe(
      'Priya Mehta (client)',
    );
    const versions = await own.api.documents.versions.query({ documentId: up.body.id });
    expect(versions.versions.map((v) => v.uploadedBy)).toEqual(['Priya Mehta (client)']);

    const res = await fetch(`${t.url}/api/clientportal/${own.client.id}/documents/${up.body.id}/download`, {
      headers: portalCookie(portal.token),
    });
    expect(res.status).toBe(200);
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(bytes));
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="pan-card.png"/);
  });

  it('uploads to the top when no folder is named, and never over an internal file of the same name', async () => {
    const { own, portal, firm } = w;
    await uploadFile(t, firm.owner.token, own.root.id, 'notes.txt', 'internal notes');
    const up = await portalUpload(
      t,
      portalCookie(portal.token),
      { clientId: own.client.id },
      'notes.txt',
      'mine',
    );
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ name: 'notes (1).txt', folderId: own.root.id });
    // A second upload of the client's own file is its next version.
    const again = await portalUpload(
      t,
      portalCookie(portal.token),
      { clientId: own.client.id },
      'notes (1).txt',
      'mine 2',
    );
    expect(again.body).toMatchObject({ id: up.body.id, version: 2 });
    expect(numberedName('archive.tar.gz', 2)).toBe('archive.tar (2).gz');
    expect(numberedName('README', 1)).toBe('README (1)');
  });

  it('refuses no cookie, a staff token, another client’s or an internal folder, and a file over the limit', async () => {
    const { own, portal, firm, sibling, far } = w;
    const count = async () =>
      (await t.db.select().from(documents).where(eq(documents.clientId, own.client.id))).length;
    const before = await count();
    const target = { clientId: own.client.id, folderId: own.shared.id };
    expect((await portalUpload(t, {}, target, 'a.txt', 'x')).status).toBe(401);
    expect(
      (await portalUpload(t, { authorization: `Bearer ${firm.owner.token}` }, target, 'a.txt', 'x')).status,
    ).toBe(401);
    const cookie = portalCookie(portal.token);
    expect(
      (await portalUpload(t, cookie, { clientId: own.client.id, folderId: own.internal.id }, 'a.txt', 'x'))
        .status,
    ).toBe(404);
    expect(
      (await portalUpload(t, cookie, { clientId: own.client.id, folderId: sibling.shared.id }, 'a.txt', 'x'))
        .status,
    ).toBe(404);
    expect(
      (
        await portalUpload(
          t,
          cookie,
          { clientId: sibling.client.id, folderId: sibling.shared.id },
          'a.txt',
          'x',
        )
      ).status,
    ).toBe(404);
    expect((await portalUpload(t, cookie, { clientId: far.client.id }, 'a.txt', 'x')).status).toBe(404);
    expect(
      (await portalUpload(t, cookie, { clientId: own.client.id, taskId: own.internalTask.id }, 'a.txt', 'x'))
        .status,
    ).toBe(404);
    const big = await portalUpload(t, cookie, target, 'big.bin', randomFile(MAX + 1));
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/larger than the limit/);
    expect(await count()).toBe(before);

    // Downloads: an internal file, another client's shared file and a staff token answer 404/401.
    const internalDoc = await uploadFile(t, firm.owner.token, own.internal.id, 'secret.txt', 's');
    const siblingDoc = await uploadFile(t, firm.owner.token, sibling.shared.id, 'theirs.txt', 's');
    const get = (clientId: string, id: string, headers: Record<string, string>) =>
      fetch(`${t.url}/api/clientportal/${clientId}/documents/${id}/download`, { headers }).then(
        (r) => r.status,
      );
    expect(await get(own.client.id, internalDoc.body.id, cookie)).toBe(404);
    expect(await get(own.client.id, siblingDoc.body.id, cookie)).toBe(404);
    expect(await get(sibling.client.id, siblingDoc.body.id, cookie)).toBe(404);
    expect(
      await get(own.client.id, internalDoc.body.id, { authorization: `Bearer ${firm.owner.token}` }),
    ).toBe(401);
  });
});

describe('projects', () => {
  it('lists the client’s projects with status and progress, never the description or people', async () => {
    const { own, portal } = w;
    const list = await portal.client.clientPortalProjects.list.query({ clientId: own.client.id });
    expect(list.total).toBe(1);
    expect(list.rows[0]).toMatchObject({
      name: 'Mehta Traders annual accounts',
      status: 'SCHEDULED',
      dueDate: '2099-03-31',
    });
    expect(Object.keys(list.rows[0] ?? {}).sort()).toEqual(
      [
        'completedDate',
        'dueDate',
        'id',
        'name',
        'periodEnd',
        'periodStart',
        'progress',
        'startDate',
        'status',
      ].sort(),
    );
  });
});

describe('tasks', () => {
  it('lists only forClient tasks, by view and tag, and hides internal ones', async () => {
    const { own, portal } = w;
    const extra = await own.api.tasks.create.mutate({
      title: 'Sign the engagement letter',
      clientId: own.client.id,
      forClient: true,
      tags: ['kyc'],
    });
    const open = await portal.client.clientPortalTasks.list.query({ clientId: own.client.id });
    expect(open.rows.map((r) => r.title).sort()).toEqual([
      'Send bank statements for Mehta Traders',
      'Sign the engagement letter',
    ]);
    expect(open.tags).toEqual(['bank', 'kyc']);
    const kyc = await portal.client.clientPortalTasks.list.query({ clientId: own.client.id, tag: 'kyc' });
    expect(kyc.rows.map((r) => r.id)).toEqual([extra.id]);
    await expect(
      portal.client.clientPortalTasks.get.query({ clientId: own.client.id, taskId: own.internalTask.id }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    const detail = await portal.client.clientPortalTasks.get.query({
      clientId: own.client.id,
      taskId: own.task.id,
    });
    expect(detail).toMatchObject({
      projectName: 'Mehta Traders annual accounts',
      description: 'All accounts, April to March',
    });
    expect(Object.keys(detail)).not.toContain('checklist');
  });

  it('comments: the client’s and the staff’s on the same task, the assignees notified, audited', async () => {
    const { own, portal, firm } = w;
    await own.api.tasks.comments.add.mutate({
      taskId: own.task.id,
      body: 'Please include the savings account',
      mentions: [],
    });
    await portal.client.clientPortalTasks.comment.mutate({
      clientId: own.client.id,
      taskId: own.task.id,
      body: 'Uploading them today',
    });
    const detail = await portal.client.clientPortalTasks.get.query({
      clientId: own.client.id,
      taskId: own.task.id,
    });
    expect(detail.comments.map((c) => [c.authorName, c.body, c.mine])).toEqual([
      ['Olivia Owner', 'Please include the savings account', false],
      ['Priya Mehta', 'Uploading them today', true],
    ]);
    const staffComments = await own.api.tasks.comments.list.query({ taskId: own.task.id });
    expect(staffComments.map((c) => c.authorName)).toEqual(['Olivia Owner', 'Priya Mehta (client)']);
    const told = await notificationsOf(firm.owner.id, 'task.client_update');
    expect(told.map((n) => n.title)).toContain(
      'Priya Mehta (Mehta Traders) commented on “Send bank statements for Mehta Traders”',
    );
    const [log] = await logOf(firm.org.id, 'task.comment.add').then((rows) =>
      rows.filter((r) => r.actorKind === 'client_user'),
    );
    expect(log).toMatchObject({ actorClientUserId: portal.user.id, recordId: own.task.id });
    await expect(
      portal.client.clientPortalTasks.comment.mutate({
        clientId: own.client.id,
        taskId: own.task.id,
        body: '   ',
      }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });

  it('attaches an uploaded file to the task: in the client’s documents, shared, linked, listed with a download', async () => {
    const { own, portal, firm } = w;
    const up = await portalUpload(
      t,
      portalCookie(portal.token),
      { clientId: own.client.id, taskId: own.task.id },
      'hdfc-statement.pdf',
      '%PDF-1.4 statement',
    );
    expect(up.status).toBe(201);
    expect(up.body.folderId).toBe(own.root.id);
    const links = await t.db.select().from(taskAttachments).where(eq(taskAttachments.taskId, own.task.id));
    expect(links).toEqual([
      expect.objectContaining({ documentId: up.body.id, attachedByClientUserId: portal.user.id }),
    ]);
    const detail = await portal.client.clientPortalTasks.get.query({
      clientId: own.client.id,
      taskId: own.task.id,
    });
    expect(detail.attachments.map((a) => a.name)).toEqual(['hdfc-statement.pdf']);
    const staffFiles = await own.api.documents.contents.query({ folderId: own.root.id });
    expect(staffFiles.documents.rows.find((r) => r.id === up.body.id)?.visibleToPortal).toBe(true);
    const told = await notificationsOf(firm.staff.id, 'document.uploaded');
    expect(told.find((n) => n.title.includes('hdfc-statement'))?.body).toBe(
      'Attached to the task “Send bank statements for Mehta Traders”.',
    );
  });

  it('marks a task done: COMPLETED with a completion date, audited, assignees notified, once', async () => {
    const { own, portal, firm } = w;
    const done = await portal.client.clientPortalTasks.complete.mutate({
      clientId: own.client.id,
      taskId: own.task.id,
    });
    expect(done.status).toBe('COMPLETED');
    const [row] = await t.db.select().from(tasks).where(eq(tasks.id, own.task.id));
    expect(row?.status).toBe('COMPLETED');
    expect(row?.completedDate).toBeInstanceOf(Date);
    const again = await portal.client.clientPortalTasks.complete.mutate({
      clientId: own.client.id,
      taskId: own.task.id,
    });
    expect(again.completedDate).toEqual(row?.completedDate);
    const logs = (await logOf(firm.org.id, 'task.status')).filter((l) => l.actorKind === 'client_user');
    expect(logs).toHaveLength(1);
    expect(logs[0]?.summary).toBe(
      'Priya Mehta (client portal) marked the task “Send bank statements for Mehta Traders” done',
    );
    const told = await notificationsOf(firm.owner.id, 'task.client_update');
    expect(told.filter((n) => n.title.endsWith('done'))).toHaveLength(1);
    const mailed = (await t.outbox()).filter((m) => m.to === firm.owner.email && m.subject.endsWith('done'));
    expect(mailed.map((m) => m.subject)).toEqual([
      'Priya Mehta (Mehta Traders) marked “Send bank statements for Mehta Traders” done',
    ]);
    const open = await portal.client.clientPortalTasks.list.query({ clientId: own.client.id });
    expect(open.rows.map((r) => r.id)).not.toContain(own.task.id);
    const completed = await portal.client.clientPortalTasks.list.query({
      clientId: own.client.id,
      view: 'completed',
    });
    expect(completed.rows.map((r) => r.id)).toEqual([own.task.id]);
    // The staff see it completed.
    const staffTask = await own.api.tasks.get.query({ taskId: own.task.id });
    expect(staffTask.status).toBe('COMPLETED');
    // An internal task cannot be completed from the portal.
    await expect(
      portal.client.clientPortalTasks.complete.mutate({
        clientId: own.client.id,
        taskId: own.internalTask.id,
      }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    const [internal] = await t.db.select().from(tasks).where(eq(tasks.id, own.internalTask.id));
    expect(internal?.status).toBe('SCHEDULED');
  });
});
