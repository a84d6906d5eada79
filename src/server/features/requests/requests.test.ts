import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRequestTemplateSave } from '../../../domain/requests/schemas';
import { documentFolders, documents, notifications, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { download } from '../../test/files';
import { codeAndMessageOf, codeOf } from '../../test/outcome';
import { seedPortalUser } from '../../test/portal';
import { portalCookie, seedPortalWorld } from '../../test/portal-world';
import { progressByRequest } from './access';

// Client requests through the router, as the browser calls them: a firm sends a template, the
// client answers item by item (with a file and a returned item), submits, the firm reviews and
// completes; nobody else reaches any of it.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let cousin: Awaited<ReturnType<typeof seedPortalUser>>;

const SECTIONS: TRequestTemplateSave['sections'] = [
  {
    title: 'Income',
    items: [
      { key: 'form16', kind: 'file', label: 'Form 16 from each employer', hint: 'PDF from TRACES' },
      { key: 'salary', kind: 'amount', label: 'Gross salary' },
      { key: 'regime', kind: 'choice', label: 'Tax regime', options: ['Old', 'New'] },
    ],
  },
  {
    title: 'Property',
    items: [
      { key: 'sold', kind: 'yes_no', label: 'Did you sell property this year?' },
      {
        key: 'deed',
        kind: 'file',
        label: 'Sale deed',
        condition: { key: 'sold', equals: 'yes' },
      },
      { key: 'notes', kind: 'long_text', label: 'Anything else?', required: false },
      { key: 'ack', kind: 'acknowledgement', label: 'I confirm the above is complete' },
    ],
  },
];

async function upload(
  requestId: string,
  itemId: string,
  name: string,
  bytes: string,
  token = w.portal.token,
) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const query = new URLSearchParams({ clientId: w.own.client.id, requestId, itemId });
  const res = await fetch(`${t.url}/api/clientportal/requests/upload?${query}`, {
    method: 'POST',
    headers: portalCookie(token),
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { id: string; name: string; message?: string } };
}

beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
  // Another portal user of the same client, to whom nothing is sent.
  cousin = await seedPortalUser(t, {
    orgId: w.firm.org.id,
    clientIds: [w.own.client.id],
    name: 'Ravi Mehta',
  });
}, 120_000);
afterAll(() => t?.close());

describe('a request from a template, answered, reviewed, completed', () => {
  let templateId: string;
  let requestId: string;
  const api = () => w.own.api;
  const portal = () => w.portal.client.clientPortalRequests;
  const ref = () => ({ clientId: w.own.client.id, requestId });
  const itemId = async (key: string) =>
    (await portal().get.query(ref())).items.find((i) => i.key === key)?.id as string;

  it('keeps a template, and a copy of it', async () => {
    const saved = await api().requests.templates.save.mutate({ name: 'ITR documents', sections: SECTIONS });
    templateId = saved.id;
    const copy = await api().requests.templates.copy.mutate({ templateId });
    const list = await api().requests.templates.list.query();
    expect(list.map((x) => [x.name, x.itemCount])).toEqual([
      ['ITR documents', 7],
      ['ITR documents (copy)', 7],
    ]);
    expect(copy.sections).toEqual(saved.sections);
  });

  it('refuses a template whose condition names a later item, with a message', async () => {
    const [income, property] = SECTIONS;
    const bad = [{ ...property, items: [...(property?.items ?? []).slice(1, 2)] }, income] as typeof SECTIONS;
    expect(
      await codeAndMessageOf(() => api().requests.templates.save.mutate({ name: 'Bad', sections: bad })),
    ).toMatch(/BAD_REQUEST: .*An item can only depend on an earlier yes\/no or choice item/);
  });

  it('sends it to the chosen portal user, mailed through the queue; the template changing later changes nothing', async () => {
    const template = await api().requests.templates.get.query({ templateId });
    const sent = await api().requests.create.mutate({
      clientId: w.own.client.id,
      templateId,
      title: 'ITR FY 2025-26',
      dueDate: '2099-07-31',
      recipientIds: [w.portal.user.id],
      message: 'Please send these by July.',
      sections: template.sections,
    });
    requestId = sent.id;
    expect(sent).toMatchObject({ status: 'sent', mailed: [w.portal.user.email] });
    await api().requests.templates.save.mutate({
      templateId,
      name: 'ITR documents',
      sections: [{ title: 'Only', items: [{ key: 'x', kind: 'short_text', label: 'Changed' }] }],
    });
    // This run's mail only: the outbox directory outlives test runs; the addresses do not.
    const mail = (await t.outbox()).filter(
      (m) => m.subject.includes('ITR FY 2025-26') && m.to.includes(w.portal.user.email),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]?.notes.link).toBe(
      `http://127.0.0.1/clientportal/${w.own.client.id}/requests/${requestId}`,
    );
    expect(mail[0]?.text).toContain('Please send these by July.');
    const detail = await api().requests.get.query({ requestId });
    expect(detail.items.map((i) => i.key)).toEqual([
      'form16',
      'salary',
      'regime',
      'sold',
      'deed',
      'notes',
      'ack',
    ]);
    expect(detail).toMatchObject({
      status: 'sent',
      templateName: 'ITR documents',
      progress: { done: 0, total: 6 },
    });
  });

  it('shows only to the people it was sent to', async () => {
    const mine = await portal().list.query({ clientId: w.own.client.id });
    expect(mine.rows.map((r) => [r.id, r.displayStatus, r.progress])).toEqual([
      [requestId, 'sent', { done: 0, total: 6 }],
    ]);
    const theirs = await cousin.client.clientPortalRequests.list.query({ clientId: w.own.client.id });
    expect(theirs.rows).toEqual([]);
    expect(await codeOf(() => cousin.client.clientPortalRequests.get.query(ref()))).toBe('NOT_FOUND');
    expect(
      await codeOf(() =>
        w.portal.client.clientPortalRequests.get.query({ clientId: w.sibling.client.id, requestId }),
      ),
    ).toBe('NOT_FOUND');
  });

  it('saves answers as typed, shows the deed once a sale is said, refuses a wrong kind of answer', async () => {
    await portal().answer.mutate({ ...ref(), itemId: await itemId('salary'), value: 1_250_000_00 });
    await portal().answer.mutate({ ...ref(), itemId: await itemId('regime'), value: 'New' });
    await portal().answer.mutate({ ...ref(), itemId: await itemId('sold'), value: 'yes' });
    expect(
      await codeAndMessageOf(() => portal().answer.mutate({ ...ref(), itemId: w.own.task.id, value: 'x' })),
    ).toBe('NOT_FOUND: Item not found');
    expect(
      await codeAndMessageOf(async () =>
        portal().answer.mutate({ ...ref(), itemId: await itemId('regime'), value: 'Both' }),
      ),
    ).toBe('BAD_REQUEST: Choose one of the answers');
    const now = await portal().get.query(ref());
    expect(now).toMatchObject({ status: 'in_progress', progress: { done: 3, total: 7 } });
    expect(await codeAndMessageOf(() => portal().submit.mutate(ref()))).toBe(
      'BAD_REQUEST: 3 required items are still to answer',
    );
    // Text that reads as JSON stays the text typed (jsonb strings were once parsed a second time).
    const notes = await itemId('notes');
    for (const text of ['123', 'null', 'true', '{"a":1}']) {
      await portal().answer.mutate({ ...ref(), itemId: notes, value: text });
      const item = (await portal().get.query(ref())).items.find((i) => i.id === notes);
      expect(item?.value).toBe(text);
    }
    await portal().answer.mutate({ ...ref(), itemId: notes, value: null });
  });

  it('takes files through the streaming upload, one item at a time; not a file item, not another firm', async () => {
    const form16 = await itemId('form16');
    const first = await upload(requestId, form16, 'form16-acme.pdf', '%PDF-1.4 acme');
    expect(first.status).toBe(201);
    const second = await upload(requestId, form16, 'form16-acme.pdf', '%PDF-1.4 beta');
    // Held with the item under the client's own names: nothing is in the client's documents yet.
    expect(second.body.name).toBe('form16-acme.pdf');
    expect((await api().requests.get.query({ requestId })).folderId).toBeNull();
    expect(await t.db.select().from(documents).where(eq(documents.orgId, w.firm.org.id))).toEqual([]);
    expect((await upload(requestId, await itemId('salary'), 'x.pdf', 'x')).status).toBe(400);
    expect((await upload(requestId, form16, 'x.pdf', 'x', cousin.token)).status).toBe(404);
    const deed = await itemId('deed');
    expect((await upload(requestId, deed, 'deed.pdf', '%PDF-1.4 deed')).status).toBe(201);
    await portal().removeFile.mutate({ ...ref(), itemId: form16, fileId: second.body.id });
    const now = await portal().get.query(ref());
    expect(now.items.find((i) => i.key === 'form16')?.files.map((f) => f.name)).toEqual(['form16-acme.pdf']);
    // The lists' progress counts each item's files as the request itself does (its subquery once
    // compared each file with itself and saw none).
    const listed = await progressByRequest(t.db, w.firm.org.id, [requestId]);
    expect(listed.get(requestId)).toEqual(now.progress);
    expect(now.progress.done).toBeGreaterThanOrEqual(5);
  });

  it('submits once what is required is answered (not applicable counts), and tells the firm', async () => {
    await portal().notApplicable.mutate({
      ...ref(),
      itemId: await itemId('deed'),
      reason: 'Sold through my brother',
    });
    await portal().notApplicable.mutate({ ...ref(), itemId: await itemId('deed'), reason: null });
    await portal().answer.mutate({ ...ref(), itemId: await itemId('ack'), value: true });
    expect(await portal().submit.mutate(ref())).toEqual({ id: requestId, status: 'submitted' });
    expect(
      await codeAndMessageOf(async () =>
        portal().answer.mutate({ ...ref(), itemId: await itemId('notes'), value: 'late' }),
      ),
    ).toBe('BAD_REQUEST: You submitted this request: the firm is looking at it');
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.memberId, w.firm.owner.id), eq(notifications.kind, 'request.submitted')));
    expect(told.map((n) => n.link)).toEqual([`/requests/${requestId}`]);
  });

  it('returns an item with the reason mailed to the client; fixed and resubmitted, it is accepted', async () => {
    const detail = await api().requests.get.query({ requestId });
    const id = (key: string) => detail.items.find((i) => i.key === key)?.id as string;
    expect(
      await codeAndMessageOf(() =>
        api().requests.review.mutate({ requestId, itemId: id('salary'), decision: 'returned', reason: '' }),
      ),
    ).toMatch(/^BAD_REQUEST: .*Tell the client what to fix/);
    expect(
      await codeAndMessageOf(() =>
        api().requests.review.mutate({ requestId, itemId: id('notes'), decision: 'accepted' }),
      ),
    ).toBe('BAD_REQUEST: The client has not answered this item yet');
    await api().requests.review.mutate({
      requestId,
      itemId: id('salary'),
      decision: 'returned',
      reason: 'Form 16 says 12,75,000',
    });
    const mail = (await t.outbox()).filter(
      (m) => m.subject === 'Please fix: ITR FY 2025-26' && m.to.includes(w.portal.user.email),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain('Gross salary: Form 16 says 12,75,000');
    const returned = await portal().get.query(ref());
    expect(returned.status).toBe('returned');
    expect(returned.items.find((i) => i.key === 'salary')).toMatchObject({
      review: 'returned',
      returnReason: 'Form 16 says 12,75,000',
    });
    expect(await codeOf(() => portal().submit.mutate(ref()))).toBe('BAD_REQUEST');
    await portal().answer.mutate({ ...ref(), itemId: id('salary'), value: 1_275_000_00 });
    await portal().submit.mutate(ref());
    for (const key of ['form16', 'salary', 'regime', 'sold', 'deed', 'ack'])
      await api().requests.review.mutate({ requestId, itemId: id(key), decision: 'accepted' });
    expect(
      await codeAndMessageOf(async () =>
        portal().answer.mutate({ ...ref(), itemId: id('salary'), value: 1 }),
      ),
    ).toBe('BAD_REQUEST: You submitted this request: the firm is looking at it');
    await api().requests.complete.mutate({ requestId });
    const done = await api().requests.get.query({ requestId });
    expect(done.status).toBe('complete');
    expect(done.items.filter((i) => i.review === 'accepted').map((i) => i.key)).toEqual([
      'form16',
      'salary',
      'regime',
      'sold',
      'deed',
      'ack',
    ]);
  });

  it('files the accepted files in the client’s documents, in a folder named for the request', async () => {
    const detail = await api().requests.get.query({ requestId });
    const [folder] = await t.db
      .select()
      .from(documentFolders)
      .where(
        and(eq(documentFolders.orgId, w.firm.org.id), eq(documentFolders.id, detail.folderId as string)),
      );
    expect(folder).toMatchObject({
      name: 'ITR FY 2025-26',
      clientId: w.own.client.id,
      parentId: w.own.root.id,
    });
    expect(folder?.visibleToPortal).toBe(true);
    const contents = await api().documents.contents.query({ folderId: folder?.id as string });
    expect(contents.documents.rows.map((d) => [d.name, d.portal]).sort()).toEqual([
      ['deed.pdf', 'visible'],
      ['form16-acme.pdf', 'visible'],
    ]);
    // The firm's default shares them with the client, who sees them in the portal's documents.
    const shared = await w.portal.client.clientPortalDocuments.folder.query({
      clientId: w.own.client.id,
      folderId: folder?.id as string,
    });
    expect(JSON.stringify(shared)).toContain('form16-acme.pdf');
    // Every file is in one place on the review page, held or filed, with its document once filed.
    const files = detail.items.flatMap((i) => i.files);
    expect(files.map((f) => [f.name, f.documentId !== null])).toEqual([
      ['form16-acme.pdf', true],
      ['deed.pdf', true],
    ]);
  });

  it('logs every change in the firm’s system log', async () => {
    const actions = (
      await t.db
        .select({ action: systemLog.action })
        .from(systemLog)
        .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.recordId, requestId)))
    ).map((r) => r.action);
    for (const action of [
      'request.send',
      'request.item.answer',
      'request.item.upload',
      'request.item.remove_file',
      'request.item.not_applicable',
      'request.submit',
      'request.item.return',
      'request.item.accept',
      'request.complete',
    ])
      expect(actions).toContain(action);
  });
});

describe('the staff list, drafts and cancelling', () => {
  it('lists by status, client and overdue, with progress', async () => {
    const api = w.own.api;
    const sections: TRequestTemplateSave['sections'] = [
      { title: '', items: [{ key: 'pan', kind: 'short_text', label: 'PAN' }] },
    ];
    const late = await api.requests.create.mutate({
      clientId: w.own.client.id,
      title: 'Bank statements',
      dueDate: '2020-01-31',
      recipientIds: [w.portal.user.id],
      sections,
    });
    const draft = await api.requests.create.mutate({
      clientId: w.own.client.id,
      title: 'Not yet',
      dueDate: '2099-01-31',
      recipientIds: [w.portal.user.id],
      sections,
      send: false,
    });
    const overdue = await api.requests.list.query({ overdue: true });
    expect(overdue.rows.map((r) => [r.title, r.displayStatus, r.progress])).toEqual([
      ['Bank statements', 'overdue', { done: 0, total: 1 }],
    ]);
    const drafts = await api.requests.list.query({ status: 'draft', clientId: w.own.client.id });
    expect(drafts.rows.map((r) => r.id)).toEqual([draft.id]);
    // A draft is not the client's to see until it is sent.
    expect(
      await codeOf(() =>
        w.portal.client.clientPortalRequests.get.query({ clientId: w.own.client.id, requestId: draft.id }),
      ),
    ).toBe('NOT_FOUND');
    await api.requests.send.mutate({ requestId: draft.id });
    expect(await codeOf(() => api.requests.send.mutate({ requestId: draft.id }))).toBe('BAD_REQUEST');
    await api.requests.cancel.mutate({ requestId: late.id, reason: 'Got them by mail' });
    expect(
      await codeAndMessageOf(() =>
        w.portal.client.clientPortalRequests.answer.mutate({
          clientId: w.own.client.id,
          requestId: late.id,
          itemId: late.id,
          value: 'x',
        }),
      ),
    ).toBe('NOT_FOUND: Item not found');
    const open = await api.requests.list.query({ status: 'open', pageSize: 1 });
    expect(open.total).toBe(1);
    expect(open.rows.map((r) => r.title)).toEqual(['Not yet']);
  });

  it('refuses recipients who are not the client’s portal users, and bad input', async () => {
    const api = w.own.api;
    const base = {
      clientId: w.own.client.id,
      title: 'X',
      dueDate: '2099-01-31',
      sections: [{ title: '', items: [{ key: 'a', kind: 'short_text' as const, label: 'A' }] }],
    };
    expect(
      await codeAndMessageOf(() => api.requests.create.mutate({ ...base, recipientIds: [w.firm.owner.id] })),
    ).toBe('BAD_REQUEST: Send it to people who use the portal for this client (invite them first)');
    expect(await codeOf(() => api.requests.create.mutate({ ...base, recipientIds: [] }))).toBe('BAD_REQUEST');
    expect(
      await codeOf(() =>
        api.requests.create.mutate({ ...base, dueDate: '31/01/2099', recipientIds: [w.portal.user.id] }),
      ),
    ).toBe('BAD_REQUEST');
  });
});

describe('cross-org', () => {
  it('answers NOT_FOUND for another firm’s request, template and client', async () => {
    const far = w.far.api;
    const sections: TRequestTemplateSave['sections'] = [
      { title: '', items: [{ key: 'a', kind: 'short_text', label: 'A' }] },
    ];
    const farUser = await seedPortalUser(t, { orgId: w.otherFirm.org.id, clientIds: [w.far.client.id] });
    const theirs = await far.requests.create.mutate({
      clientId: w.far.client.id,
      title: 'Theirs',
      dueDate: '2099-01-31',
      recipientIds: [farUser.user.id],
      sections,
    });
    const template = await far.requests.templates.save.mutate({ name: 'Theirs', sections });
    const api = w.own.api;
    for (const call of [
      () => api.requests.get.query({ requestId: theirs.id }),
      () => api.requests.complete.mutate({ requestId: theirs.id }),
      () => api.requests.cancel.mutate({ requestId: theirs.id }),
      () => api.requests.templates.get.query({ templateId: template.id }),
      () => api.requests.templates.copy.mutate({ templateId: template.id }),
      () => api.requests.recipientOptions.query({ clientId: w.far.client.id }),
      () =>
        api.requests.create.mutate({
          clientId: w.far.client.id,
          title: 'X',
          dueDate: '2099-01-31',
          recipientIds: [farUser.user.id],
          sections,
        }),
    ])
      expect(await codeOf(call)).toBe('NOT_FOUND');
    expect((await api.requests.list.query({ clientId: w.far.client.id })).rows).toEqual([]);
    expect((await far.requests.get.query({ requestId: theirs.id })).status).toBe('sent');
  });

  it('keeps the request from a member limited to other clients', async () => {
    const staff = t.client(w.firm.staff.token);
    // The firm's staff role here has no requests rights at all.
    expect(await codeOf(() => staff.requests.list.query({}))).toBe('FORBIDDEN');
  });
});

describe('filing on acceptance, by the firm’s setting', () => {
  const api = () => w.own.api;
  const portal = () => w.portal.client.clientPortalRequests;

  async function sendFileRequest(title: string) {
    const sent = await api().requests.create.mutate({
      clientId: w.own.client.id,
      title,
      dueDate: '2099-07-31',
      recipientIds: [w.portal.user.id],
      sections: [
        {
          title: '',
          items: [
            { key: 'bank', kind: 'file', label: 'Bank statements' },
            { key: 'rent', kind: 'file', label: 'Rent receipts' },
          ],
        },
      ],
    });
    const detail = await api().requests.get.query({ requestId: sent.id });
    const id = (key: string) => detail.items.find((i) => i.key === key)?.id as string;
    return { requestId: sent.id, bank: id('bank'), rent: id('rent') };
  }
  const docsIn = (folderId: string) =>
    t.db
      .select({ name: documents.name, shared: documents.visibleToPortal })
      .from(documents)
      .where(and(eq(documents.orgId, w.firm.org.id), eq(documents.folderId, folderId)));

  it('keeps a returned item’s files with it, files them only on acceptance, internal when the firm says so', async () => {
    expect(await api().documents.requestFiling.query()).toEqual({ shareWithClient: true });
    await api().documents.setRequestFiling.mutate({ shareWithClient: false });
    const r = await sendFileRequest('Statements / FY 2025-26');
    expect((await upload(r.requestId, r.bank, 'hdfc.pdf', '%PDF-1.4 hdfc')).status).toBe(201);
    expect((await upload(r.requestId, r.bank, 'icici.pdf', '%PDF-1.4 icici')).status).toBe(201);
    expect((await upload(r.requestId, r.rent, 'rent.pdf', '%PDF-1.4 rent')).status).toBe(201);
    await portal().submit.mutate({ clientId: w.own.client.id, requestId: r.requestId });
    await api().requests.review.mutate({
      requestId: r.requestId,
      itemId: r.rent,
      decision: 'returned',
      reason: 'These are for last year',
    });
    // Returned: its file stays with the item, and nothing is filed yet.
    expect((await api().requests.get.query({ requestId: r.requestId })).folderId).toBeNull();
    const accepted = await api().requests.review.mutate({
      requestId: r.requestId,
      itemId: r.bank,
      decision: 'accepted',
    });
    expect(accepted.filed).toMatchObject({
      folderName: 'Statements - FY 2025-26',
      files: ['hdfc.pdf', 'icici.pdf'],
      shared: false,
    });
    const detail = await api().requests.get.query({ requestId: r.requestId });
    const folderId = detail.folderId as string;
    expect((await docsIn(folderId)).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'hdfc.pdf', shared: false },
      { name: 'icici.pdf', shared: false },
    ]);
    const [folder] = await t.db.select().from(documentFolders).where(eq(documentFolders.id, folderId));
    expect(folder).toMatchObject({ parentId: w.own.root.id, visibleToPortal: false });
    const rentFiles = detail.items.find((i) => i.key === 'rent')?.files ?? [];
    expect(rentFiles.map((f) => [f.name, f.documentId])).toEqual([['rent.pdf', null]]);
    // The client fixes it; accepting it files the new file beside the others, the returned one too.
    await upload(r.requestId, r.rent, 'hdfc.pdf', '%PDF-1.4 rent 2026');
    await api().requests.review.mutate({ requestId: r.requestId, itemId: r.rent, decision: 'accepted' });
    expect((await docsIn(folderId)).map((d) => d.name).sort()).toEqual([
      'hdfc (2).pdf',
      'hdfc.pdf',
      'icici.pdf',
      'rent.pdf',
    ]);
    // Accepting again files nothing twice.
    const again = await api().requests.review.mutate({
      requestId: r.requestId,
      itemId: r.bank,
      decision: 'accepted',
    });
    expect(again.filed).toBeNull();
    expect(await docsIn(folderId)).toHaveLength(4);
    const log = await t.db
      .select({ action: systemLog.action, summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.action, 'request.item.file')));
    expect(log.map((l) => l.summary)).toContain(
      "Filed “hdfc.pdf”, “icici.pdf” of “Bank statements” into the client's folder “Statements - FY 2025-26”, internal",
    );
    await api().documents.setRequestFiling.mutate({ shareWithClient: true });
  });

  it('serves a held or filed file to staff who see the request, logged; NOT_FOUND to another firm', async () => {
    const r = await sendFileRequest('Served files');
    const up = await upload(r.requestId, r.bank, 'served.pdf', '%PDF-1.4 served');
    const path = `/api/requests/files/${up.body.id}/download`;
    const got = await download(t, w.firm.owner.token, path);
    expect(got.res.status).toBe(200);
    expect(new TextDecoder().decode(got.bytes)).toBe('%PDF-1.4 served');
    expect((await download(t, w.otherFirm.owner.token, path)).res.status).toBe(404);
    const preview = await download(t, w.firm.owner.token, `/api/requests/files/${up.body.id}/preview`);
    expect(preview.res.headers.get('content-disposition')).toMatch(/^inline/);
    const [logged] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, w.firm.org.id), eq(systemLog.action, 'request.file.download')));
    expect(logged?.summary).toBe('Downloaded “served.pdf” of the request “Served files”');
  });
});

describe('drafts edited before they are sent', () => {
  const api = () => w.own.api;
  const one = (key: string, label: string) => ({ key, kind: 'short_text' as const, label });

  it('edits a draft’s items, due date, recipients and message, then sends it; a sent one is not editable', async () => {
    const draft = await api().requests.create.mutate({
      clientId: w.own.client.id,
      title: 'Draft to edit',
      dueDate: '2099-01-31',
      recipientIds: [w.portal.user.id],
      sections: [{ title: 'A', items: [one('pan', 'PAN'), one('aadhaar', 'Aadhaar')] }],
      send: false,
    });
    const edit = {
      requestId: draft.id,
      title: 'Draft, edited',
      dueDate: '2099-02-28',
      recipientIds: [cousin.user.id],
      message: 'Only these two, please.',
      sections: [{ title: 'B', items: [one('aadhaar', 'Aadhaar number'), one('gstin', 'GSTIN')] }],
    };
    expect(await api().requests.updateDraft.mutate(edit)).toMatchObject({ status: 'draft', mailed: [] });
    const saved = await api().requests.get.query({ requestId: draft.id });
    expect(saved).toMatchObject({
      title: 'Draft, edited',
      dueDate: '2099-02-28',
      message: 'Only these two, please.',
    });
    expect(saved.items.map((i) => [i.section, i.key, i.label])).toEqual([
      ['B', 'aadhaar', 'Aadhaar number'],
      ['B', 'gstin', 'GSTIN'],
    ]);
    expect(saved.recipients.map((p) => p.id)).toEqual([cousin.user.id]);
    const [logged] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.recordId, draft.id), eq(systemLog.action, 'request.update')));
    expect(logged?.changes).toMatchObject({
      dueDate: { from: '2099-01-31', to: '2099-02-28' },
      items: { from: 'pan, aadhaar', to: 'aadhaar, gstin' },
    });
    const sent = await api().requests.updateDraft.mutate({ ...edit, send: true });
    expect(sent).toMatchObject({ status: 'sent', mailed: [cousin.user.email] });
    // Sent only to the new recipient: the first one no longer sees it.
    expect(
      await codeOf(() =>
        w.portal.client.clientPortalRequests.get.query({ clientId: w.own.client.id, requestId: draft.id }),
      ),
    ).toBe('NOT_FOUND');
    expect(await codeAndMessageOf(() => api().requests.updateDraft.mutate(edit))).toBe(
      'BAD_REQUEST: Only a draft can be edited: this request has been sent',
    );
    expect(
      await codeOf(() => api().requests.updateDraft.mutate({ ...edit, requestId: draft.id, sections: [] })),
    ).toBe('BAD_REQUEST');
  });

  it('answers NOT_FOUND for another firm’s draft, and refuses another client’s portal user', async () => {
    const farUser = await seedPortalUser(t, { orgId: w.otherFirm.org.id, clientIds: [w.far.client.id] });
    const base = {
      title: 'Theirs',
      dueDate: '2099-01-31',
      sections: [{ title: '', items: [one('a', 'A')] }],
    };
    const theirs = await w.far.api.requests.create.mutate({
      ...base,
      clientId: w.far.client.id,
      recipientIds: [farUser.user.id],
      send: false,
    });
    expect(
      await codeOf(() =>
        api().requests.updateDraft.mutate({
          ...base,
          requestId: theirs.id,
          recipientIds: [w.portal.user.id],
        }),
      ),
    ).toBe('NOT_FOUND');
    const mine = await api().requests.create.mutate({
      ...base,
      clientId: w.own.client.id,
      recipientIds: [w.portal.user.id],
      send: false,
    });
    expect(
      await codeAndMessageOf(() =>
        api().requests.updateDraft.mutate({ ...base, requestId: mine.id, recipientIds: [farUser.user.id] }),
      ),
    ).toBe('BAD_REQUEST: Send it to people who use the portal for this client (invite them first)');
    expect((await w.far.api.requests.get.query({ requestId: theirs.id })).title).toBe('Theirs');
  });
});

describe('conditional items at submit', () => {
  it('requires a conditional item only when its condition holds, on the server', async () => {
    const api = w.own.api;
    const portal = w.portal.client.clientPortalRequests;
    const sent = await api.requests.create.mutate({
      clientId: w.own.client.id,
      title: 'Property sale',
      dueDate: '2099-07-31',
      recipientIds: [w.portal.user.id],
      sections: [
        {
          title: '',
          items: [
            { key: 'sold', kind: 'yes_no', label: 'Did you sell property this year?' },
            { key: 'deed', kind: 'file', label: 'Sale deed', condition: { key: 'sold', equals: 'yes' } },
            { key: 'price', kind: 'amount', label: 'Sale price', condition: { key: 'sold', equals: 'yes' } },
          ],
        },
      ],
    });
    const ref = { clientId: w.own.client.id, requestId: sent.id };
    const ids = Object.fromEntries((await portal.get.query(ref)).items.map((i) => [i.key, i.id]));
    await portal.answer.mutate({ ...ref, itemId: ids.sold as string, value: 'yes' });
    expect((await portal.get.query(ref)).progress).toEqual({ done: 1, total: 3 });
    expect(await codeAndMessageOf(() => portal.submit.mutate(ref))).toBe(
      'BAD_REQUEST: 2 required items are still to answer',
    );
    await portal.answer.mutate({ ...ref, itemId: ids.price as string, value: 45_00_000_00 });
    expect(await codeAndMessageOf(() => portal.submit.mutate(ref))).toBe(
      'BAD_REQUEST: 1 required item is still to answer',
    );
    // "No" hides the branch: the deed and the price are no longer asked, and it can be submitted.
    await portal.answer.mutate({ ...ref, itemId: ids.sold as string, value: 'no' });
    expect((await portal.get.query(ref)).progress).toEqual({ done: 1, total: 1 });
    expect(await portal.submit.mutate(ref)).toEqual({ id: sent.id, status: 'submitted' });
  });
});
