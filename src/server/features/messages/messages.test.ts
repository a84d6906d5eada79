import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentDownloadPath } from '../../../domain/documents';
import { MESSAGE_UPLOAD_PATH, PORTAL_MESSAGE_UPLOAD_PATH } from '../../../domain/messages';
import {
  documentFolders,
  documents,
  documentVersions,
  jobs,
  members,
  notifications,
  roles,
  systemLog,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeAndMessageOf, codeOf } from '../../test/outcome';
import { seedPortalUser } from '../../test/portal';
import { portalCookie, seedPortalWorld } from '../../test/portal-world';
import { MESSAGE_MAIL_DELAY_MS, MESSAGES_MAIL, sendThreadMail } from '.';

// Client messages through the router and the upload routes, as the browser calls them: the firm
// writes to a client, notes to itself, files travel both ways, the inbox's views and unread marks
// follow, and the delayed mail reaches only who has not read. Nobody else reaches any of it.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let cousin: Awaited<ReturnType<typeof seedPortalUser>>;
let limited: { id: string; token: string };

async function upload(
  path: string,
  query: Record<string, string>,
  headers: Record<string, string>,
  name: string,
  bytes: string,
) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await fetch(`${t.url}${path}?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers,
    body: form,
  });
  return {
    status: res.status,
    body: (await res.json()) as { documentId: string; name: string; message?: string },
  };
}
const staffUpload = (token: string, threadId: string, name: string, bytes: string) =>
  upload(MESSAGE_UPLOAD_PATH, { threadId }, { authorization: `Bearer ${token}` }, name, bytes);
const portalUpload = (token: string, threadId: string, name: string, bytes: string) =>
  upload(
    PORTAL_MESSAGE_UPLOAD_PATH,
    { clientId: w.own.client.id, threadId },
    portalCookie(token),
    name,
    bytes,
  );

async function staffDownload(token: string, documentId: string) {
  const api = t.client(token);
  const { url } = await api.links.issue.mutate({ path: `/api/messages/attachments/${documentId}/download` });
  const res = await fetch(`${t.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, text: await res.text() };
}
async function portalDownload(token: string, documentId: string, clientId = w.own.client.id) {
  const res = await fetch(
    `${t.url}/api/clientportal/${clientId}/messages/attachments/${documentId}/download`,
    {
      headers: portalCookie(token),
    },
  );
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
  cousin = await seedPortalUser(t, {
    orgId: w.firm.org.id,
    clientIds: [w.own.client.id],
    name: 'Ravi Mehta',
  });
  // A member limited to assigned clients, on the sibling client's team only.
  const [role] = await t.db
    .insert(roles)
    .values({
      orgId: w.firm.org.id,
      name: 'Limited',
      permissions: ['clients.view', 'documents.view', 'documents.create'],
      assignedClientsOnly: true,
    })
    .returning();
  const sub = randomUUID();
  const [m] = await t.db
    .insert(members)
    .values({
      orgId: w.firm.org.id,
      sub,
      email: `limited-${sub}@example.test`,
      firstName: 'Lim',
      lastName: 'Ited',
      roleId: role?.id as string,
      isVerified: true,
    })
    .returning();
  limited = { id: m?.id as string, token: await t.tokenFor(sub) };
  await w.own.api.clients.team.add.mutate({ clientId: w.sibling.client.id, memberId: limited.id });
}, 120_000);
afterAll(() => t?.close());

describe('a conversation between the firm and a client', () => {
  let threadId: string;
  const api = () => w.own.api; // the firm's owner
  const staffApi = () => t.client(w.firm.staff.token);
  const portal = () => w.portal.client.clientPortalMessages;
  const ref = () => ({ clientId: w.own.client.id, threadId });

  it('starts a thread with the client’s portal user and a member on it; the client sees it unread', async () => {
    const created = await api().messages.create.mutate({
      clientId: w.own.client.id,
      subject: 'Your ITR for FY 2025-26',
      body: 'Hello Priya, we are starting on your return. Please send Form 16.',
      clientUserIds: [w.portal.user.id],
      memberIds: [w.firm.staff.id],
    });
    threadId = created.id;
    const list = await portal().list.query({ clientId: w.own.client.id });
    expect(list.rows.map((r) => [r.subject, r.unread])).toEqual([['Your ITR for FY 2025-26', 1]]);
    expect(await portal().unread.query({ clientId: w.own.client.id })).toEqual({ messages: 1 });
    const detail = await api().messages.get.query({ threadId });
    expect(detail.people.clientUsers.map((p) => p.name)).toEqual(['Priya Mehta']);
    expect(detail.people.members.map((p) => p.id).sort()).toEqual([w.firm.owner.id, w.firm.staff.id].sort());
    // The member put on it has it unread, in Mine and Unread.
    const mine = await staffApi().messages.list.query({ view: 'unread' });
    expect(mine.rows.map((r) => [r.id, r.unread])).toEqual([[threadId, 1]]);
  });

  it('keeps an internal note and its @mention from the client; the mentioned member is told', async () => {
    const staffName = (await staffApi().profile.me.query()).fullName;
    const note = await api().messages.post.mutate({
      threadId,
      body: `@${staffName} fee is still unpaid, hold the filing`,
      internal: true,
      mentions: [w.firm.staff.id],
    });
    expect(note.mentions).toEqual([w.firm.staff.id]);
    const seen = await portal().messages.query(ref());
    expect(seen.messages.map((m) => m.body)).toEqual([
      'Hello Priya, we are starting on your return. Please send Form 16.',
    ]);
    expect(JSON.stringify(seen)).not.toContain('unpaid');
    expect(await portal().unread.query({ clientId: w.own.client.id })).toEqual({ messages: 1 });
    const told = await t.db
      .select({ kind: notifications.kind, title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.orgId, w.firm.org.id), eq(notifications.memberId, w.firm.staff.id)));
    expect(told.map((n) => n.kind)).toContain('message.mentioned');
    const staffView = await staffApi().messages.messages.query({ threadId });
    expect(staffView.messages.map((m) => m.internal)).toEqual([false, true]);
  });

  it('files the firm’s attachment in the client’s Messages folder; the client downloads it, never a note’s file', async () => {
    const up = await staffUpload(w.firm.owner.token, threadId, 'checklist.txt', 'Form 16, 26AS, AIS');
    expect(up.status).toBe(201);
    // Not sent yet: the client cannot fetch it.
    expect((await portalDownload(w.portal.token, up.body.documentId)).status).toBe(404);
    await api().messages.post.mutate({
      threadId,
      body: 'The checklist is attached.',
      attachmentIds: [up.body.documentId],
    });
    const [doc] = await t.db
      .select({ visibleToPortal: documents.visibleToPortal, folder: documentFolders.name })
      .from(documents)
      .innerJoin(documentFolders, eq(documentFolders.id, documents.folderId))
      .where(eq(documents.id, up.body.documentId));
    expect(doc).toEqual({ visibleToPortal: true, folder: 'Messages' });
    expect(await portalDownload(w.portal.token, up.body.documentId)).toEqual({
      status: 200,
      text: 'Form 16, 26AS, AIS',
    });
    expect(await staffDownload(w.firm.staff.token, up.body.documentId)).toEqual({
      status: 200,
      text: 'Form 16, 26AS, AIS',
    });

    const secret = await staffUpload(w.firm.owner.token, threadId, 'fee-note.txt', 'internal');
    await api().messages.post.mutate({
      threadId,
      body: 'Fee working',
      internal: true,
      attachmentIds: [secret.body.documentId],
    });
    expect((await portalDownload(w.portal.token, secret.body.documentId)).status).toBe(404);
    // A file already sent cannot be sent again.
    expect(
      await codeOf(() =>
        api().messages.post.mutate({ threadId, body: 'Again', attachmentIds: [up.body.documentId] }),
      ),
    ).toBe('BAD_REQUEST');
  });

  it('takes the client’s reply with a file from the portal; the member on it and the team see it unread', async () => {
    await portal().markRead.mutate(ref());
    expect(await portal().unread.query({ clientId: w.own.client.id })).toEqual({ messages: 0 });
    const up = await portalUpload(w.portal.token, threadId, 'form16.pdf', '%PDF-1.4 form 16');
    expect(up.status).toBe(201);
    await portal().post.mutate({
      ...ref(),
      body: 'Here is my Form 16.',
      attachmentIds: [up.body.documentId],
    });
    const page = await api().messages.messages.query({ threadId });
    const last = page.messages.at(-1);
    expect(last).toMatchObject({ body: 'Here is my Form 16.', fromClient: true, authorName: 'Priya Mehta' });
    expect(last?.attachments.map((a) => a.name)).toEqual(['form16.pdf']);
    const owner = await api().messages.list.query({ view: 'mine' });
    expect(owner.rows[0]).toMatchObject({ id: threadId, unread: 1, lastPreview: 'Here is my Form 16.' });
    await api().messages.markRead.mutate({ threadId });
    expect((await api().messages.list.query({ view: 'unread' })).rows).toEqual([]);
    // Reading is logged, once per move of the mark.
    await api().messages.markRead.mutate({ threadId });
    const reads = await t.db
      .select({ summary: systemLog.summary })
      .from(systemLog)
      .where(
        and(
          eq(systemLog.orgId, w.firm.org.id),
          eq(systemLog.action, 'message.thread.read'),
          eq(systemLog.actorMemberId, w.firm.owner.id),
        ),
      );
    expect(reads).toHaveLength(1);
  });

  it('saves a copy of a message’s file into another folder of the client’s documents, under the upload rules', async () => {
    const page = await api().messages.messages.query({ threadId });
    const file = page.messages.at(-1)?.attachments[0];
    expect(file?.name).toBe('form16.pdf');
    const documentId = file?.documentId ?? '';
    const saved = await api().messages.saveAttachment.mutate({ documentId, folderId: w.own.internal.id });
    expect(saved).toMatchObject({ name: 'form16.pdf', version: 1, folderId: w.own.internal.id });
    expect(saved.documentId).not.toBe(documentId);
    const versions = await t.db
      .select({
        id: documents.id,
        folderId: documents.folderId,
        visible: documents.visibleToPortal,
        key: documentVersions.storageKey,
        sum: documentVersions.checksumSha256,
      })
      .from(documents)
      .innerJoin(documentVersions, eq(documentVersions.id, documents.currentVersionId))
      .where(inArray(documents.id, [documentId, saved.documentId]));
    const copy = versions.find((v) => v.id === saved.documentId);
    const original = versions.find((v) => v.id === documentId);
    // Its own bytes (deleting one never takes the other's), the same content, the folder's sharing.
    expect(copy).toMatchObject({ folderId: w.own.internal.id, visible: false, sum: original?.sum });
    expect(copy?.key).not.toBe(original?.key);
    const link = await api().links.issue.mutate({ path: documentDownloadPath(saved.documentId) });
    const res = await fetch(`${t.url}${link.url}`, {
      headers: { authorization: `Bearer ${w.firm.owner.token}` },
    });
    expect(await res.text()).toBe('%PDF-1.4 form 16');
    // Saved again: a new version of that file, as an upload of the same name.
    expect(
      (await api().messages.saveAttachment.mutate({ documentId, folderId: w.own.internal.id })).version,
    ).toBe(2);
    const logged = await t.db
      .select({ summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.action, 'message.attachment.save')));
    expect(logged).toHaveLength(2);
    // Another client's folder, another firm, a member off the client's team, no right to add files.
    expect(
      await codeOf(() =>
        api().messages.saveAttachment.mutate({ documentId, folderId: w.sibling.internal.id }),
      ),
    ).toBe('BAD_REQUEST');
    expect(
      await codeOf(() =>
        t
          .client(w.otherFirm.owner.token)
          .messages.saveAttachment.mutate({ documentId, folderId: w.far.internal.id }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(() => api().messages.saveAttachment.mutate({ documentId, folderId: w.far.internal.id })),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(() =>
        t.client(limited.token).messages.saveAttachment.mutate({ documentId, folderId: w.own.internal.id }),
      ),
    ).toBe('NOT_FOUND');
  });

  it('renames the thread; the log says so', async () => {
    await api().messages.update.mutate({ threadId, subject: 'ITR FY 2025-26: papers' });
    expect((await api().messages.get.query({ threadId })).subject).toBe('ITR FY 2025-26: papers');
    await api().messages.update.mutate({ threadId, subject: 'Your ITR for FY 2025-26' });
    expect(await codeOf(() => api().messages.update.mutate({ threadId, subject: '  ' }))).toBe('BAD_REQUEST');
  });

  it('assigns, closes, and a client’s message reopens it; the views follow', async () => {
    expect((await api().messages.list.query({ view: 'unassigned' })).rows.map((r) => r.id)).toEqual([
      threadId,
    ]);
    await api().messages.update.mutate({ threadId, assigneeId: w.firm.staff.id });
    expect((await api().messages.list.query({ view: 'unassigned' })).rows).toEqual([]);
    const assigned = await t.db
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(and(eq(notifications.memberId, w.firm.staff.id), eq(notifications.kind, 'message.assigned')));
    expect(assigned).toHaveLength(1);
    await api().messages.update.mutate({ threadId, status: 'closed' });
    expect((await api().messages.list.query({ view: 'all' })).rows).toEqual([]);
    expect(
      (await api().messages.list.query({ view: 'all', status: 'closed' })).rows.map((r) => r.id),
    ).toEqual([threadId]);
    await portal().post.mutate({ ...ref(), body: 'One more question about HRA.' });
    expect((await api().messages.list.query({ view: 'all' })).rows.map((r) => r.status)).toEqual(['open']);
  });

  it('searches subjects and text, internal notes included for the firm', async () => {
    const bySubject = await api().messages.list.query({ search: 'itr for fy' });
    const byText = await api().messages.list.query({ search: 'HRA' });
    const byNote = await api().messages.list.query({ search: 'hold the filing' });
    const none = await api().messages.list.query({ search: '100%_' });
    expect([bySubject.total, byText.total, byNote.total, none.total]).toEqual([1, 1, 1, 0]);
    const forClient = await api().messages.list.query({ clientId: w.own.client.id, status: 'any' });
    expect(forClient.rows).toHaveLength(1);
  });

  it('mails a while later only what each person has not read, never a note to the client, and never twice', async () => {
    const [job] = await t.db
      .select({ runAt: jobs.runAt, createdAt: jobs.createdAt })
      .from(jobs)
      .where(eq(jobs.kind, MESSAGES_MAIL))
      .limit(1);
    expect((job?.runAt.getTime() ?? 0) - (job?.createdAt.getTime() ?? 0)).toBeGreaterThanOrEqual(
      MESSAGE_MAIL_DELAY_MS - 1000,
    );
    await api().messages.post.mutate({ threadId, body: 'HRA needs your rent receipts.' });
    const thread = await api().messages.get.query({ threadId });
    await sendThreadMail(t.db, t.config, { orgId: w.firm.org.id, threadId, seq: thread.lastSeq });
    const again = await sendThreadMail(t.db, t.config, {
      orgId: w.firm.org.id,
      threadId,
      seq: thread.lastSeq,
    });
    expect(again.mailed).toBe(0);
    const outbox = await t.outbox();
    const toClient = outbox.filter((m) => m.to === w.portal.user.email);
    expect(toClient).toHaveLength(1);
    expect(toClient[0]?.text).toContain('HRA needs your rent receipts.');
    expect(toClient[0]?.text).not.toContain('Fee working');
    expect(toClient[0]?.text).toContain(`/clientportal/${w.own.client.id}/messages?thread=${threadId}`);
    // The owner wrote it and read everything: no mail to them.
    expect(outbox.filter((m) => m.to === w.firm.owner.email && m.subject.includes('ITR'))).toEqual([]);
  });

  it('refuses bad text with a message, never a 500', async () => {
    expect(await codeAndMessageOf(() => api().messages.post.mutate({ threadId, body: '   ' }))).toMatch(
      /BAD_REQUEST: .*Write a message first/,
    );
    expect(await codeOf(() => api().messages.post.mutate({ threadId, body: 'a\u0000b' }))).toBe(
      'BAD_REQUEST',
    );
    expect(await codeOf(() => api().messages.post.mutate({ threadId, body: 'x'.repeat(10_001) }))).toBe(
      'BAD_REQUEST',
    );
    expect(
      await codeOf(() =>
        api().messages.create.mutate({
          clientId: w.own.client.id,
          subject: 'x',
          body: 'y',
          clientUserIds: [w.far.client.id],
        }),
      ),
    ).toBe('BAD_REQUEST');
  });

  describe('cross-org and limited reach', () => {
    it('another firm, a limited member off the team and a portal user not on the thread get NOT_FOUND', async () => {
      const far = t.client(w.otherFirm.owner.token);
      const lim = t.client(limited.token);
      for (const caller of [far, lim]) {
        expect(await codeOf(() => caller.messages.get.query({ threadId }))).toBe('NOT_FOUND');
        expect(await codeOf(() => caller.messages.messages.query({ threadId }))).toBe('NOT_FOUND');
        expect(await codeOf(() => caller.messages.post.mutate({ threadId, body: 'hi' }))).toBe('NOT_FOUND');
        expect(await codeOf(() => caller.messages.update.mutate({ threadId, status: 'closed' }))).toBe(
          'NOT_FOUND',
        );
        expect((await caller.messages.list.query({ view: 'all', status: 'any' })).rows).toEqual([]);
      }
      expect(await codeOf(() => far.messages.list.query({ clientId: w.own.client.id }))).toBe('NOT_FOUND');
      expect((await staffUpload(w.otherFirm.owner.token, threadId, 'x.txt', 'x')).status).toBe(404);
      expect((await staffUpload(limited.token, threadId, 'x.txt', 'x')).status).toBe(404);
      expect(await codeOf(() => cousin.client.clientPortalMessages.messages.query(ref()))).toBe('NOT_FOUND');
      expect(
        (await cousin.client.clientPortalMessages.list.query({ clientId: w.own.client.id })).rows,
      ).toEqual([]);
      expect((await portalUpload(cousin.token, threadId, 'x.txt', 'x')).status).toBe(404);
      // Another firm's thread id through this client: NOT_FOUND too.
      const farThread = await far.messages.create.mutate({
        clientId: w.far.client.id,
        subject: 'Far',
        body: 'Far away',
      });
      expect(await codeOf(() => portal().messages.query({ ...ref(), threadId: farThread.id }))).toBe(
        'NOT_FOUND',
      );
      expect(await codeOf(() => api().messages.get.query({ threadId: farThread.id }))).toBe('NOT_FOUND');
    });

    it('a limited member put on a thread of a client they are not on the team of sees that thread only', async () => {
      await api().messages.addPeople.mutate({ threadId, memberIds: [limited.id] });
      const lim = t.client(limited.token);
      expect((await lim.messages.get.query({ threadId })).id).toBe(threadId);
      const other = await api().messages.create.mutate({
        clientId: w.own.client.id,
        subject: 'Other',
        body: 'Not for Lim',
      });
      expect(await codeOf(() => lim.messages.get.query({ threadId: other.id }))).toBe('NOT_FOUND');
    });
  });
});
