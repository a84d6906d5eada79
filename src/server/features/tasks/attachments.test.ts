import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientTeam,
  documentFolders,
  documents,
  members,
  roles,
  systemLog,
  taskAssignees,
  taskAttachments,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { download, sha256 } from '../../test/files';
import { seedPortalUser } from '../../test/portal';

let t: TTestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'task-attachments-test-'));
  t = await createTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'OK',
    (e: { data?: { code?: string } }) => e.data?.code ?? String(e),
  );
const logOf = (orgId: string, action: string) =>
  t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), eq(systemLog.action, action)));

/** Uploads as the task drawer does: one multipart request per file, to the task. */
async function uploadToTask(token: string, taskId: string, name: string, bytes: string | Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart]), name);
  const res = await fetch(`${t.url}/api/documents/upload?taskId=${taskId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { id: string; name: string; message?: string } };
}

async function firm(name: string) {
  const f = await t.seedFirm(name);
  const api = t.client(f.owner.token);
  const client = await api.clients.create.mutate({ code: 'C1', name: 'Rakesh Mehta' });
  const task = await api.tasks.create.mutate({ title: 'March GST return', clientId: client.id });
  return { ...f, api, client, task, token: f.owner.token };
}

/** A member of the firm with exactly these rights. */
async function memberWith(f: Awaited<ReturnType<typeof firm>>, permissions: string[], limited = false) {
  const [role] = await t.db
    .insert(roles)
    .values({
      orgId: f.org.id,
      name: `Role ${randomUUID()}`,
      permissions: permissions as never,
      assignedClientsOnly: limited,
    })
    .returning();
  const sub = randomUUID();
  const [member] = await t.db
    .insert(members)
    .values({
      orgId: f.org.id,
      sub,
      email: `${sub}@example.test`,
      firstName: 'Limited',
      lastName: 'Member',
      roleId: role?.id ?? '',
      isVerified: true,
    })
    .returning();
  const token = await t.tokenFor(sub);
  return { id: member?.id ?? '', token, api: t.client(token) };
}

describe('task attachments', () => {
  it('uploads files into the client’s Attachments folder, lists them and downloads them', async () => {
    const f = await firm('Attach upload');
    const a = await uploadToTask(f.token, f.task.id, 'invoice.pdf', '%PDF-1.4\n1 0 obj<<>>endobj\n');
    const b = await uploadToTask(f.token, f.task.id, 'ledger.csv', 'date,amount\n2026-03-01,100\n');
    expect([a.status, b.status]).toEqual([201, 201]);

    const [folder] = await t.db
      .select()
      .from(documentFolders)
      .where(and(eq(documentFolders.orgId, f.org.id), eq(documentFolders.name, 'Attachments')));
    expect(folder?.clientId).toBe(f.client.id);
    const docs = await t.db.select().from(documents).where(eq(documents.orgId, f.org.id));
    expect(docs.map((d) => d.folderId)).toEqual([folder?.id, folder?.id]);

    const list = await f.api.tasks.attachments.list.query({ taskId: f.task.id });
    expect(list.map((r) => r.name).sort()).toEqual(['invoice.pdf', 'ledger.csv']);
    expect(list[0]).toMatchObject({ folderName: 'Attachments', attachedBy: 'Olivia Owner' });
    expect(list.find((r) => r.name === 'ledger.csv')?.size).toBe(27);

    const { res, bytes } = await download(t, f.token, `/api/documents/${b.body.id}/download`);
    expect(res.status).toBe(200);
    expect(sha256(bytes)).toBe(sha256(new TextEncoder().encode('date,amount\n2026-03-01,100\n')));

    // A new version of an attached file stays one attachment.
    expect((await uploadToTask(f.token, f.task.id, 'ledger.csv', 'v2')).status).toBe(201);
    expect(await f.api.tasks.attachments.list.query({ taskId: f.task.id })).toHaveLength(2);
    expect(await logOf(f.org.id, 'task.attachment.add')).toHaveLength(2);
    expect(await logOf(f.org.id, 'documents.file.upload')).toHaveLength(2);
  });

  it('tells for a client’s to-do whether the client sees each attachment, as the portal shows it', async () => {
    const f = await firm('Attach portal');
    const todo = await f.api.tasks.create.mutate({
      title: 'Sign the return',
      clientId: f.client.id,
      forClient: true,
    });
    const portal = await seedPortalUser(t, { orgId: f.org.id, clientIds: [f.client.id] });
    const portalAttachments = async () =>
      (
        await portal.client.clientPortalTasks.get.query({ clientId: f.client.id, taskId: todo.id })
      ).attachments.map((a) => a.name);
    const up = await uploadToTask(f.token, todo.id, 'return.pdf', '%PDF-1.4');
    const list = async () =>
      (await f.api.tasks.attachments.list.query({ taskId: todo.id })).map((a) => [a.name, a.portal]);
    // Uploaded into the internal Attachments folder: the list says so, and the portal agrees.
    expect(await list()).toEqual([['return.pdf', 'internal']]);
    expect(await portalAttachments()).toEqual([]);
    await f.api.documents.setVisibility.mutate({ documentId: up.body.id, visibleToPortal: true });
    expect(await list()).toEqual([['return.pdf', 'visible']]);
    expect(await portalAttachments()).toEqual(['return.pdf']);
    // A firm's own task says nothing about the portal.
    expect((await f.api.tasks.attachments.list.query({ taskId: f.task.id })).map((a) => a.portal)).toEqual(
      [],
    );
    await uploadToTask(f.token, f.task.id, 'notes.txt', 'notes');
    expect((await f.api.tasks.attachments.list.query({ taskId: f.task.id })).map((a) => a.portal)).toEqual([
      null,
    ]);
  });

  it('puts an internal task’s files in the firm vault', async () => {
    const f = await firm('Attach vault');
    const internal = await f.api.tasks.create.mutate({ title: 'Renew office lease' });
    const up = await uploadToTask(f.token, internal.id, 'lease.txt', 'lease');
    expect(up.status).toBe(201);
    const [doc] = await t.db.select().from(documents).where(eq(documents.id, up.body.id));
    expect(doc?.clientId).toBeNull();
    const [vaultRoot] = await f.api.documents.folders.query({ clientId: null });
    expect(vaultRoot).toBeDefined();
    expect((await f.api.tasks.attachments.list.query({ taskId: internal.id })).map((r) => r.name)).toEqual([
      'lease.txt',
    ]);
  });

  it('attaches an existing file of the same client, detaches it and leaves the file in place', async () => {
    const f = await firm('Attach existing');
    const root = await f.api.documents.open.mutate({ clientId: f.client.id });
    const form = new FormData();
    form.append('file', new Blob(['pan']), 'pan.txt');
    const up = (await (
      await fetch(`${t.url}/api/documents/upload?folderId=${root.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.token}` },
        body: form,
      })
    ).json()) as { id: string };

    const candidates = await f.api.tasks.attachments.candidates.query({ taskId: f.task.id, search: 'pa' });
    expect(candidates.map((c) => c.name)).toEqual(['pan.txt']);
    await f.api.tasks.attachments.attach.mutate({ taskId: f.task.id, documentId: up.id });
    // Twice is once.
    expect(await f.api.tasks.attachments.attach.mutate({ taskId: f.task.id, documentId: up.id })).toEqual({
      documentId: up.id,
      attached: false,
    });
    expect(await f.api.tasks.attachments.candidates.query({ taskId: f.task.id, search: '' })).toEqual([]);
    expect((await f.api.tasks.attachments.list.query({ taskId: f.task.id })).map((r) => r.name)).toEqual([
      'pan.txt',
    ]);

    await f.api.tasks.attachments.detach.mutate({ taskId: f.task.id, documentId: up.id });
    expect(await f.api.tasks.attachments.list.query({ taskId: f.task.id })).toEqual([]);
    const [still] = await t.db.select().from(documents).where(eq(documents.id, up.id));
    expect(still?.deletedAt).toBeNull();
    expect(await code(f.api.tasks.attachments.detach.mutate({ taskId: f.task.id, documentId: up.id }))).toBe(
      'NOT_FOUND',
    );
    expect(await logOf(f.org.id, 'task.attachment.add')).toHaveLength(1);
    expect(await logOf(f.org.id, 'task.attachment.remove')).toHaveLength(1);

    // Another client's file, or a vault file, does not go on this client's task.
    const other = await f.api.clients.create.mutate({ code: 'C2', name: 'Other Client' });
    const otherRoot = await f.api.documents.open.mutate({ clientId: other.id });
    const form2 = new FormData();
    form2.append('file', new Blob(['x']), 'other.txt');
    const otherDoc = (await (
      await fetch(`${t.url}/api/documents/upload?folderId=${otherRoot.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.token}` },
        body: form2,
      })
    ).json()) as { id: string };
    expect(
      await code(f.api.tasks.attachments.attach.mutate({ taskId: f.task.id, documentId: otherDoc.id })),
    ).toBe('BAD_REQUEST');
  });

  it('hides a trashed file and shows it again when restored', async () => {
    const f = await firm('Attach trash');
    const up = await uploadToTask(f.token, f.task.id, 'scan.txt', 'scan');
    await f.api.documents.delete.mutate({ documentId: up.body.id });
    expect(await f.api.tasks.attachments.list.query({ taskId: f.task.id })).toEqual([]);
    await f.api.documents.restore.mutate({ kind: 'document', id: up.body.id });
    expect((await f.api.tasks.attachments.list.query({ taskId: f.task.id })).map((r) => r.name)).toEqual([
      'scan.txt',
    ]);
  });

  it('answers NOT_FOUND for another firm’s task or file, and checks rights', async () => {
    const a = await firm('Attach firm A');
    const b = await firm('Attach firm B');
    const up = await uploadToTask(a.token, a.task.id, 'a.txt', 'a');
    expect(await code(b.api.tasks.attachments.list.query({ taskId: a.task.id }))).toBe('NOT_FOUND');
    expect(
      await code(b.api.tasks.attachments.attach.mutate({ taskId: b.task.id, documentId: up.body.id })),
    ).toBe('NOT_FOUND');
    expect(
      await code(b.api.tasks.attachments.detach.mutate({ taskId: a.task.id, documentId: up.body.id })),
    ).toBe('NOT_FOUND');
    expect((await uploadToTask(b.token, a.task.id, 'x.txt', 'x')).status).toBe(404);
    expect(await t.db.select().from(taskAttachments).where(eq(taskAttachments.orgId, b.org.id))).toEqual([]);

    // Viewing is not editing: list yes, attach, detach and upload no.
    const viewer = await memberWith(a, ['tasks.view', 'documents.view', 'documents.create']);
    expect(await viewer.api.tasks.attachments.list.query({ taskId: a.task.id })).toHaveLength(1);
    expect(
      await code(viewer.api.tasks.attachments.detach.mutate({ taskId: a.task.id, documentId: up.body.id })),
    ).toBe('FORBIDDEN');
    expect((await uploadToTask(viewer.token, a.task.id, 'v.txt', 'v')).status).toBe(403);

    // An "assigned clients only" member off the client's team does not see the task at all.
    const limited = await memberWith(
      a,
      ['tasks.view', 'tasks.edit', 'documents.view', 'documents.create', 'clients.view'],
      true,
    );
    expect(await code(limited.api.tasks.attachments.list.query({ taskId: a.task.id }))).toBe('NOT_FOUND');
    expect((await uploadToTask(limited.token, a.task.id, 'l.txt', 'l')).status).toBe(404);
    await t.db.insert(clientTeam).values({ orgId: a.org.id, clientId: a.client.id, memberId: limited.id });
    expect((await uploadToTask(limited.token, a.task.id, 'l.txt', 'l')).status).toBe(201);
    expect(await limited.api.tasks.attachments.list.query({ taskId: a.task.id })).toHaveLength(2);
  });

  it('lets a limited member put on a task of a client they are not assigned to do the task’s attachments, and no more', async () => {
    // The decision (attachments.ts, taskDocumentScope): being put on a task is a grant for that task.
    const a = await firm('Attach grant');
    const other = await uploadToTask(a.token, a.task.id, 'owner.txt', 'owner');
    expect(other.status).toBe(201);
    const limited = await memberWith(
      a,
      ['tasks.view', 'tasks.edit', 'documents.view', 'documents.create', 'clients.view'],
      true,
    );
    await t.db.insert(taskAssignees).values({ orgId: a.org.id, taskId: a.task.id, memberId: limited.id });
    expect((await limited.api.tasks.get.query({ taskId: a.task.id })).id).toBe(a.task.id);
    expect(await limited.api.tasks.attachments.list.query({ taskId: a.task.id })).toHaveLength(1);
    const mine = await uploadToTask(limited.token, a.task.id, 'mine.txt', 'mine');
    expect(mine.status, mine.body.message).toBe(201);
    expect(await limited.api.tasks.attachments.list.query({ taskId: a.task.id })).toHaveLength(2);
    // Candidates: only the member's own files of that client (here after detaching theirs).
    expect(await limited.api.tasks.attachments.candidates.query({ taskId: a.task.id })).toEqual([]);
    await limited.api.tasks.attachments.detach.mutate({ taskId: a.task.id, documentId: mine.body.id });
    await a.api.tasks.attachments.detach.mutate({ taskId: a.task.id, documentId: other.body.id });
    const candidates = await limited.api.tasks.attachments.candidates.query({ taskId: a.task.id });
    expect(candidates.map((c) => c.documentId)).toEqual([mine.body.id]);
    await limited.api.tasks.attachments.attach.mutate({ taskId: a.task.id, documentId: mine.body.id });
    // The rest of the client's documents stay out of reach.
    expect(
      await code(
        limited.api.tasks.attachments.attach.mutate({ taskId: a.task.id, documentId: other.body.id }),
      ),
    ).toBe('NOT_FOUND');
    expect(await code(limited.api.documents.versions.query({ documentId: other.body.id }))).toBe('NOT_FOUND');
    // Off the task, the grant is gone everywhere.
    await t.db.delete(taskAssignees).where(eq(taskAssignees.memberId, limited.id));
    expect(await code(limited.api.tasks.get.query({ taskId: a.task.id }))).toBe('NOT_FOUND');
    expect(await code(limited.api.tasks.attachments.candidates.query({ taskId: a.task.id }))).toBe(
      'NOT_FOUND',
    );
    expect((await uploadToTask(limited.token, a.task.id, 'late.txt', 'late')).status).toBe(404);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const f = await firm('Attach input');
    const bad = await t
      .client(f.token)
      .tasks.attachments.attach.mutate({ taskId: f.task.id, documentId: 'nope' })
      .then(
        () => 'OK',
        (e: Error) => e.message,
      );
    expect(bad).toContain('Choose a file from the list');
    const res = await fetch(`${t.url}/api/documents/upload?taskId=nope`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.token}` },
    });
    expect(res.status).toBe(400);
    expect(await t.db.select().from(taskAttachments).where(eq(taskAttachments.orgId, f.org.id))).toEqual([]);
  });
});
