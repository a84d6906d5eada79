import { and, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentFolders,
  documents,
  documentVersions,
  jobs,
  messageHeldFiles,
  messageMailIds,
  messagesHeld,
  systemLog,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeOf } from '../../test/outcome';
import { portalCookie, seedPortalWorld } from '../../test/portal-world';
import { sweepOrphanFiles } from '../documents';
import { INBOUND_WEBHOOK_PATH, sendThreadMail } from '.';

// Mail into conversations: a real SMTP conversation (nodemailer) with the product's own listener on
// a local port, the reply address from the mail the client was sent, quoted history trimmed, the
// attachment filed; a stranger, a forged token and another domain never get in as the client; a
// member's forward to the client's forwarding address is filed; the provider's webhook does the same.

const DOMAIN = 'in.example.test';
const SECRET = 'a-long-webhook-secret-for-tests';
let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let threadId: string;
let replyTo: string;

const smtp = () =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port: t.inboundSmtp.port ?? 0,
    secure: false,
    ignoreTLS: true,
  });

beforeAll(async () => {
  t = await createTestApp({
    INBOUND_MAIL_DOMAIN: DOMAIN,
    INBOUND_SMTP_PORT: '0',
    INBOUND_SMTP_HOST: '127.0.0.1',
    INBOUND_MAX_BYTES: String(200 * 1024),
    INBOUND_WEBHOOK_SECRET: SECRET,
  });
  w = await seedPortalWorld(t);
  const created = await w.own.api.messages.create.mutate({
    clientId: w.own.client.id,
    subject: 'Your ITR for FY 2025-26',
    body: 'Please send your Form 16.',
    clientUserIds: [w.portal.user.id],
  });
  threadId = created.id;
  await sendThreadMail(t.db, t.config, { orgId: w.firm.org.id, threadId, seq: 1 });
  const mail = (await t.outbox()).find((m) => m.to === w.portal.user.email);
  replyTo = mail?.notes.replyTo ?? '';
}, 120_000);
afterAll(() => t?.close());

describe('replies by mail', () => {
  it('mails the client with a signed reply address of this thread', () => {
    expect(t.inboundSmtp.port).toBeGreaterThan(0);
    expect(replyTo).toMatch(new RegExp(`^reply\\+${threadId.replace(/-/g, '')}-[0-9a-f]{24}@${DOMAIN}$`));
  });

  it('takes a real SMTP reply into the thread as the client, trimmed, with its attachment filed', async () => {
    await smtp().sendMail({
      from: `Priya Mehta <${w.portal.user.email}>`,
      to: replyTo,
      subject: 'Re: Your ITR for FY 2025-26',
      text: `Attached, thanks.\n\nPriya\n-- \nPriya Mehta, Mehta Traders\n\nOn Mon, 1 Jun 2026, Sharma & Associates <x@y> wrote:\n> Please send your Form 16.`,
      attachments: [{ filename: 'form16.pdf', content: Buffer.from('%PDF-1.4 form 16') }],
    });
    const page = await w.own.api.messages.messages.query({ threadId });
    const last = page.messages.at(-1);
    expect(last).toMatchObject({ body: 'Attached, thanks.\n\nPriya', source: 'email', fromClient: true });
    expect(last?.attachments.map((a) => a.name)).toEqual(['form16.pdf']);
    const [doc] = await t.db
      .select({ folder: documentFolders.name, visible: documents.visibleToPortal })
      .from(documents)
      .innerJoin(documentFolders, eq(documentFolders.id, documents.folderId))
      .where(eq(documents.id, last?.attachments[0]?.documentId ?? ''));
    expect(doc).toEqual({ folder: 'Messages', visible: true });
    // The client sees their own mailed reply in the portal.
    const portal = await w.portal.client.clientPortalMessages.messages.query({
      clientId: w.own.client.id,
      threadId,
    });
    expect(portal.messages.at(-1)?.body).toBe('Attached, thanks.\n\nPriya');
  });

  it('holds mail from a stranger and mail with a forged token; refuses other domains at RCPT', async () => {
    await smtp().sendMail({
      from: 'stranger@evil.test',
      to: replyTo,
      subject: 'Re: hi',
      text: 'Pay this invoice now',
    });
    const forged = replyTo.replace(/-[0-9a-f]{24}@/, '-000000000000000000000000@');
    await smtp().sendMail({ from: w.portal.user.email, to: forged, subject: 'Re: hi', text: 'Forged' });
    await expect(
      smtp().sendMail({
        from: w.portal.user.email,
        to: 'someone@elsewhere.test',
        subject: 'x',
        text: 'relay?',
      }),
    ).rejects.toThrow(/550|No such mailbox/);
    const held = await w.own.api.messages.held.query();
    expect(held.map((h) => [h.fromAddress, h.reason]).sort()).toEqual([
      [w.portal.user.email, 'bad_token'],
      ['stranger@evil.test', 'not_participant'],
    ]);
    const page = await w.own.api.messages.messages.query({ threadId });
    expect(page.messages.map((m) => m.body).join('\n')).not.toMatch(/Pay this invoice|Forged/);
    // Another firm sees none of it; discarding is logged.
    expect(await t.client(w.otherFirm.owner.token).messages.held.query()).toEqual([]);
    expect(
      await codeOf(() =>
        t.client(w.otherFirm.owner.token).messages.discardHeld.mutate({ heldId: held[0]?.id ?? '' }),
      ),
    ).toBe('NOT_FOUND');
    await w.own.api.messages.discardHeld.mutate({ heldId: held[0]?.id ?? '' });
    expect(await w.own.api.messages.held.query()).toHaveLength(1);
    const logged = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.action, 'message.held.discard')));
    expect(logged).toHaveLength(1);
  });

  it('refuses a message over the size limit', async () => {
    await expect(
      smtp().sendMail({
        from: w.portal.user.email,
        to: replyTo,
        subject: 'big',
        text: 'x',
        attachments: [{ filename: 'big.bin', content: Buffer.alloc(300 * 1024, 1) }],
      }),
    ).rejects.toThrow(/552|too large|size/i);
  });
});

describe('the forwarding address and the webhook', () => {
  it('files a member’s forward in a new thread of the client, as an internal note, and continues it by subject', async () => {
    const { address } = await w.own.api.messages.forwardingAddress.query({ clientId: w.own.client.id });
    expect(address).toMatch(new RegExp(`^file\\+[0-9a-f]{32}-[0-9a-f]{24}@${DOMAIN}$`));
    await smtp().sendMail({
      from: w.firm.owner.email,
      to: address ?? '',
      subject: 'Fwd: GST notice',
      text: '---------- Forwarded message ---------\nFrom: Priya\nThe GST notice is attached.',
    });
    await smtp().sendMail({
      from: w.firm.owner.email,
      to: address ?? '',
      subject: 'Re: GST notice',
      text: 'Follow-up',
    });
    const list = await w.own.api.messages.list.query({ clientId: w.own.client.id, search: 'GST notice' });
    expect(list.rows.map((r) => r.subject)).toEqual(['GST notice']);
    const page = await w.own.api.messages.messages.query({ threadId: list.rows[0]?.id ?? '' });
    expect(page.messages.map((m) => [m.internal, m.source])).toEqual([
      [true, 'email'],
      [true, 'email'],
    ]);
    expect(page.messages[0]?.body).toContain('The GST notice is attached.');
    // Another client's address with this client's token is held, never filed.
    const { address: sibling } = await w.own.api.messages.forwardingAddress.query({
      clientId: w.sibling.client.id,
    });
    const mixed = (sibling ?? '').replace(
      /-[0-9a-f]{24}@/,
      `-${(address ?? '').split('-')[1]?.split('@')[0]}@`,
    );
    await smtp().sendMail({ from: w.firm.owner.email, to: mixed, subject: 'Mixed', text: 'wrong token' });
    expect(
      (await w.own.api.messages.held.query()).some((h) => h.subject === 'Mixed' && h.reason === 'bad_token'),
    ).toBe(true);
  });

  it('takes a provider’s webhook post of the raw message, with the secret only', async () => {
    const raw = [
      `From: ${w.portal.user.email}`,
      `To: ${replyTo}`,
      'Subject: Re: Your ITR',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Sent through the webhook.',
      '',
      'Sent from my iPhone',
      '',
    ].join('\r\n');
    const post = (secret: string) =>
      fetch(`${t.url}${INBOUND_WEBHOOK_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': secret },
        body: raw,
      });
    expect((await post('wrong-secret-wrong-secret')).status).toBe(401);
    const ok = await post(SECRET);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { outcomes: { outcome: string }[] }).outcomes).toEqual([
      { address: replyTo, outcome: 'posted' },
    ]);
    const page = await w.own.api.messages.messages.query({ threadId });
    expect(page.messages.at(-1)?.body).toBe('Sent through the webhook.');
  });

  it('keeps the portal upload route closed to a cookie of another client', async () => {
    const res = await fetch(
      `${t.url}/api/clientportal/messages/upload?clientId=${w.sibling.client.id}&threadId=${threadId}`,
      { method: 'POST', headers: portalCookie(w.portal.token), body: new FormData() },
    );
    expect([403, 404]).toContain(res.status);
    expect(await t.db.select().from(messagesHeld).where(eq(messagesHeld.orgId, w.otherFirm.org.id))).toEqual(
      [],
    );
  });
});

describe('releasing held mail', () => {
  it('posts a stranger’s held mail into the thread a member picks, as a note from the address, once', async () => {
    await smtp().sendMail({
      from: 'Accounts <accounts@bank.test>',
      to: replyTo,
      subject: 'Re: Your ITR for FY 2025-26',
      text: 'The interest certificate for Priya is attached.',
      attachments: [{ filename: 'interest.pdf', content: Buffer.from('%PDF-1.4 interest') }],
    });
    const held = (await w.own.api.messages.held.query()).find((h) => h.fromAddress === 'accounts@bank.test');
    expect(held?.reason).toBe('not_participant');
    // Its file is kept (stored, not yet a document of the client's).
    expect(held?.files).toEqual([{ name: 'interest.pdf', size: 17 }]);
    expect(held?.attachmentNames).toEqual([]);
    const heldId = held?.id ?? '';
    const [keptFile] = await t.db
      .select({ storageKey: messageHeldFiles.storageKey })
      .from(messageHeldFiles)
      .where(eq(messageHeldFiles.heldId, heldId));
    // Another firm, a thread of another firm, and no target at all are refused.
    const other = t.client(w.otherFirm.owner.token);
    expect(await codeOf(() => other.messages.releaseHeld.mutate({ heldId, threadId }))).toBe('NOT_FOUND');
    expect(await codeOf(() => w.own.api.messages.releaseHeld.mutate({ heldId }))).toBe('BAD_REQUEST');
    const released = await w.own.api.messages.releaseHeld.mutate({ heldId, threadId });
    expect(released.threadId).toBe(threadId);
    const page = await w.own.api.messages.messages.query({ threadId });
    expect(page.messages.at(-1)).toMatchObject({
      authorName: 'accounts@bank.test',
      internal: true,
      source: 'email',
      fromClient: false,
    });
    expect(page.messages.at(-1)?.body).toBe('The interest certificate for Priya is attached.');
    // The file is the message's, filed in the Messages folder as an inbound mail's, kept internal
    // with the note, its bytes the ones held (filed by the member who released it).
    const filed = page.messages.at(-1)?.attachments ?? [];
    expect(filed.map((a) => a.name)).toEqual(['interest.pdf']);
    const [doc] = await t.db
      .select({
        folder: documentFolders.name,
        visible: documents.visibleToPortal,
        by: documents.uploadedByMemberId,
        key: documentVersions.storageKey,
      })
      .from(documents)
      .innerJoin(documentFolders, eq(documentFolders.id, documents.folderId))
      .innerJoin(documentVersions, eq(documentVersions.id, documents.currentVersionId))
      .where(eq(documents.id, filed[0]?.documentId ?? ''));
    expect(doc).toEqual({
      folder: 'Messages',
      visible: false,
      by: w.firm.owner.id,
      key: keptFile?.storageKey,
    });
    expect(await t.db.select().from(messageHeldFiles).where(eq(messageHeldFiles.heldId, heldId))).toEqual([]);
    const bytes = await t.storage.get(doc?.key ?? '');
    expect(bytes && Buffer.concat(await bytes.toArray()).toString()).toBe('%PDF-1.4 interest');
    // The client never sees a note; the mail leaves the held list; a second release finds nothing.
    const portal = await w.portal.client.clientPortalMessages.messages.query({
      clientId: w.own.client.id,
      threadId,
    });
    expect(portal.messages.map((m) => m.body).join('\n')).not.toContain('interest certificate');
    expect((await w.own.api.messages.held.query()).some((h) => h.id === heldId)).toBe(false);
    expect(await codeOf(() => w.own.api.messages.releaseHeld.mutate({ heldId, threadId }))).toBe('NOT_FOUND');
    const logged = await t.db
      .select({ action: systemLog.action, summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.action, 'message.held.release')));
    expect(logged).toHaveLength(1);
    expect(logged[0]?.summary).toContain('accounts@bank.test');
    expect(logged[0]?.summary).toContain('filing “interest.pdf” in the Messages folder');
  });

  it('discards a held mail with its kept files, bytes and all', async () => {
    await smtp().sendMail({
      from: 'spam@evil.test',
      to: replyTo,
      subject: 'Re: Invoice',
      text: 'Open the attachment',
      attachments: [{ filename: 'invoice.zip', content: Buffer.from('PK not really') }],
    });
    const held = (await w.own.api.messages.held.query()).find((h) => h.fromAddress === 'spam@evil.test');
    expect(held?.files.map((f) => f.name)).toEqual(['invoice.zip']);
    const [kept] = await t.db
      .select({ storageKey: messageHeldFiles.storageKey })
      .from(messageHeldFiles)
      .where(eq(messageHeldFiles.heldId, held?.id ?? ''));
    // Named by the held mail: the orphan sweep leaves its bytes, however old.
    await sweepOrphanFiles(t.db, t.storage, new Date(Date.now() + 60_000), { minAgeMs: 0 });
    expect(await t.storage.get(kept?.storageKey ?? '')).not.toBeNull();
    await w.own.api.messages.discardHeld.mutate({ heldId: held?.id ?? '' });
    expect(
      await t.db
        .select()
        .from(messageHeldFiles)
        .where(eq(messageHeldFiles.heldId, held?.id ?? '')),
    ).toEqual([]);
    expect(await t.storage.get(kept?.storageKey ?? '')).toBeNull();
  });

  it('releases the client’s own mail with a bad token into a new thread, shown to them', async () => {
    const forged = replyTo.replace(/-[0-9a-f]{24}@/, '-111111111111111111111111@');
    await smtp().sendMail({
      from: w.portal.user.email,
      to: forged,
      subject: 'Bank statements',
      text: 'Here are my statements.',
      attachments: [{ filename: 'statement.pdf', content: Buffer.from('%PDF-1.4 statement') }],
    });
    const held = (await w.own.api.messages.held.query()).find((h) => h.subject === 'Bank statements');
    expect(held?.reason).toBe('bad_token');
    // A client of another firm is not a place to release to.
    expect(
      await codeOf(() =>
        w.own.api.messages.releaseHeld.mutate({ heldId: held?.id ?? '', clientId: w.far.client.id }),
      ),
    ).toBe('NOT_FOUND');
    const released = await w.own.api.messages.releaseHeld.mutate({
      heldId: held?.id ?? '',
      clientId: w.own.client.id,
      internal: false,
    });
    expect(released.threadId).not.toBe(threadId);
    const thread = await w.own.api.messages.get.query({ threadId: released.threadId });
    expect(thread.subject).toBe('Bank statements');
    expect(thread.people.clientUsers.map((p) => p.id)).toEqual([w.portal.user.id]);
    const portal = await w.portal.client.clientPortalMessages.messages.query({
      clientId: w.own.client.id,
      threadId: released.threadId,
    });
    expect(portal.messages.map((m) => [m.body, m.mine])).toEqual([['Here are my statements.', true]]);
    // Shown to the client, its file is theirs in the portal too (filed as uploaded by them).
    expect(portal.messages[0]?.attachments.map((a) => a.name)).toEqual(['statement.pdf']);
    const [doc] = await t.db
      .select({ visible: documents.visibleToPortal, by: documents.uploadedByClientUserId })
      .from(documents)
      .where(eq(documents.id, portal.messages[0]?.attachments[0]?.documentId ?? ''));
    expect(doc).toEqual({ visible: true, by: w.portal.user.id });
  });
});

describe('threading by Message-ID before the subject', () => {
  it('remembers the Message-ID of each mail the thread sends; an answer naming it continues that thread', async () => {
    const posted = await w.own.api.messages.post.mutate({ threadId, body: 'Your computation is ready.' });
    await sendThreadMail(t.db, t.config, { orgId: w.firm.org.id, threadId, seq: posted.seq });
    const sent = await t.db
      .select({ id: messageMailIds.messageIdHeader, seq: messageMailIds.seq })
      .from(messageMailIds)
      .where(
        and(
          eq(messageMailIds.orgId, w.firm.org.id),
          eq(messageMailIds.threadId, threadId),
          eq(messageMailIds.direction, 'out'),
        ),
      );
    const out = sent.find((r) => r.seq === posted.seq);
    expect(out?.id).toMatch(new RegExp(`^thread\\.[0-9a-f-]{36}@${DOMAIN.replace(/\./g, '\\.')}$`));
    // The queued mail to the client carries it (read before the queue sends it).
    const queued = await t.db.select({ payload: jobs.payload }).from(jobs);
    const mailed = queued
      .map((j) => (j.payload as { message?: { to?: string; messageId?: string } }).message)
      .filter((m) => m?.to === w.portal.user.email);
    expect(mailed.map((m) => m?.messageId)).toContain(`<${out?.id}>`);
    const { address } = await w.own.api.messages.forwardingAddress.query({ clientId: w.own.client.id });
    // The client answers that mail to the forwarding address, with a subject of their own.
    await smtp().sendMail({
      from: w.portal.user.email,
      to: address ?? '',
      subject: 'A different subject altogether',
      text: 'Also, my PAN changed.',
      inReplyTo: `<${out?.id}>`,
      references: [`<${out?.id}>`],
    });
    const page = await w.own.api.messages.messages.query({ threadId });
    expect(page.messages.at(-1)).toMatchObject({
      body: 'Also, my PAN changed.',
      fromClient: true,
      internal: false,
    });
    const list = await w.own.api.messages.list.query({ clientId: w.own.client.id, status: 'any' });
    expect(list.rows.some((r) => r.subject === 'A different subject altogether')).toBe(false);
  });

  it('a member’s BCC is filed with its Message-ID; a later mail referencing it joins that thread whatever its subject', async () => {
    const { address } = await w.own.api.messages.forwardingAddress.query({ clientId: w.own.client.id });
    await smtp().sendMail({
      from: w.firm.owner.email,
      to: 'priya@mehta.test',
      bcc: address ?? '',
      subject: 'Loan papers for the bank',
      text: 'Priya, the bank needs your last three returns.',
      messageId: '<loan-1@firm.example.test>',
    });
    await smtp().sendMail({
      from: w.firm.owner.email,
      to: 'priya@mehta.test',
      bcc: address ?? '',
      subject: 'Re: Returns',
      text: 'Sent them today.',
      messageId: '<loan-3@firm.example.test>',
      inReplyTo: '<priya-2@mehta.test>',
      references: ['<loan-1@firm.example.test>', '<priya-2@mehta.test>'],
    });
    // The same mail again (a provider's retry, a second copy): filed once.
    await smtp().sendMail({
      from: w.firm.owner.email,
      to: address ?? '',
      subject: 'Re: Returns',
      text: 'Sent them today.',
      messageId: '<loan-3@firm.example.test>',
      references: ['<loan-1@firm.example.test>'],
    });
    const list = await w.own.api.messages.list.query({ clientId: w.own.client.id, search: 'Loan papers' });
    expect(list.rows.map((r) => r.subject)).toEqual(['Loan papers for the bank']);
    const page = await w.own.api.messages.messages.query({ threadId: list.rows[0]?.id ?? '' });
    expect(page.messages.map((m) => m.body)).toEqual([
      'Priya, the bank needs your last three returns.',
      'Sent them today.',
    ]);
    // Another firm's thread is never found by a Message-ID: the ids are the firm's own.
    const kept = await t.db
      .select({ id: messageMailIds.messageIdHeader, direction: messageMailIds.direction })
      .from(messageMailIds)
      .where(eq(messageMailIds.orgId, w.otherFirm.org.id));
    expect(kept).toEqual([]);
  });
});
