import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestItemFiles } from '../db/schema';
import { createTestApp, type TTestApp } from '../test/app';
import { portalClient } from '../test/portal';
import { seedPortalWorld } from '../test/portal-world';
import { seedClientRequests } from '../test/requests';
import { appRouter } from '../trpc/router';

// Every portal procedure × every kind of caller, with the answer each must get. The procedures are
// read from the router itself, so a new clientPortal* procedure without a row here fails.

type TWorld = Awaited<ReturnType<typeof seedPortalWorld>>;
type TSide = TWorld['own'];
type TRow =
  /** About one client: the input names it (and maybe records of it). */
  | {
      about: 'client';
      input: (client: TSide, records: TSide) => Record<string, unknown>;
      hasRecords: boolean;
    }
  /** About the session only (the person), no client in the input. */
  | { about: 'session' }
  /**
   * Sign-in: public, answering the same with or without any session (a staff token opens nothing
   * more). The sign-in rules themselves are in features/portal-auth/portal-auth.test.ts.
   */
  | { about: 'public'; input: unknown; expected: 'ok' | 'NOT_FOUND' | 'BAD_REQUEST' };

const UNKNOWN_KEY = 'A'.repeat(43);
const UNKNOWN_EMAIL = 'nobody-in-the-matrix@example.test';

const ROWS: Record<string, TRow> = {
  'clientPortalProfile.me': { about: 'session' },
  'clientPortalAuth.invite': { about: 'public', input: { key: UNKNOWN_KEY }, expected: 'NOT_FOUND' },
  'clientPortalAuth.acceptInvite': { about: 'public', input: { key: UNKNOWN_KEY }, expected: 'NOT_FOUND' },
  'clientPortalAuth.requestCode': { about: 'public', input: { email: UNKNOWN_EMAIL }, expected: 'ok' },
  'clientPortalAuth.verifyCode': {
    about: 'public',
    input: { email: UNKNOWN_EMAIL, code: '123456' },
    expected: 'BAD_REQUEST',
  },
  'clientPortalAuth.logout': { about: 'public', input: undefined, expected: 'ok' },
  'clientPortalCalendar.get': {
    about: 'client',
    hasRecords: false,
    input: (c) => ({ clientId: c.client.id }),
  },
  'clientPortalHome.get': { about: 'client', hasRecords: false, input: (c) => ({ clientId: c.client.id }) },
  'clientPortalDocuments.folder': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, folderId: r.shared.id }),
  },
  'clientPortalInvoices.list': {
    about: 'client',
    hasRecords: false,
    input: (c) => ({ clientId: c.client.id }),
  },
  'clientPortalInvoices.get': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, invoiceId: r.invoice.id }),
  },
  'clientPortalProjects.list': {
    about: 'client',
    hasRecords: false,
    input: (c) => ({ clientId: c.client.id }),
  },
  'clientPortalRequests.list': {
    about: 'client',
    hasRecords: false,
    input: (c) => ({ clientId: c.client.id }),
  },
  'clientPortalRequests.get': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, requestId: req(r).open.id }),
  },
  'clientPortalRequests.answer': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({
      clientId: c.client.id,
      requestId: req(r).open.id,
      itemId: req(r).open.textItem.id,
      value: 'From the matrix',
    }),
  },
  'clientPortalRequests.notApplicable': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({
      clientId: c.client.id,
      requestId: req(r).open.id,
      itemId: req(r).open.fileItem.id,
      reason: 'From the matrix',
    }),
  },
  'clientPortalRequests.removeFile': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({
      clientId: c.client.id,
      requestId: req(r).open.id,
      itemId: req(r).open.fileItem.id,
      fileId: req(r).openFile.id,
    }),
  },
  // Last of the rows run (they run by name): it closes the request to the client's changes.
  'clientPortalRequests.submit': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, requestId: req(r).open.id }),
  },
  'clientPortalMessages.list': {
    about: 'client',
    hasRecords: false,
    input: (c) => ({ clientId: c.client.id }),
  },
  'clientPortalMessages.unread': {
    about: 'client',
    hasRecords: false,
    input: (c) => ({ clientId: c.client.id }),
  },
  'clientPortalMessages.get': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, threadId: threadOf(r) }),
  },
  'clientPortalMessages.messages': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, threadId: threadOf(r) }),
  },
  'clientPortalMessages.markRead': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, threadId: threadOf(r) }),
  },
  'clientPortalMessages.post': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, threadId: threadOf(r), body: 'Sent today' }),
  },
  'clientPortalMessages.create': {
    about: 'client',
    hasRecords: false,
    input: (c) => ({ clientId: c.client.id, subject: 'A question', body: 'Is the return filed?' }),
  },
  'clientPortalSigning.list': {
    about: 'client',
    hasRecords: false,
    input: (c) => ({ clientId: c.client.id }),
  },
  'clientPortalSigning.get': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, proposalId: sig(r).toSign }),
  },
  'clientPortalSigning.decline': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, proposalId: sig(r).toDecline, reason: 'Not for us' }),
  },
  'clientPortalSigning.sign': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({
      clientId: c.client.id,
      proposalId: sig(r).toSign,
      packageIndex: 0,
      signature: { kind: 'typed', text: 'Priya Mehta' },
      consent: true,
    }),
  },
  'clientPortalTasks.list': { about: 'client', hasRecords: false, input: (c) => ({ clientId: c.client.id }) },
  'clientPortalTasks.get': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, taskId: r.task.id }),
  },
  'clientPortalTasks.complete': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, taskId: r.task.id }),
  },
  'clientPortalTasks.comment': {
    about: 'client',
    hasRecords: true,
    input: (c, r) => ({ clientId: c.client.id, taskId: r.task.id, body: 'From the matrix' }),
  },
};

type TProcedureDef = { _def: { type: 'query' | 'mutation' | 'subscription' } };
const procedures = appRouter._def.procedures as unknown as Record<string, TProcedureDef>;
const PORTAL_PROCEDURES = Object.keys(procedures)
  .filter((path) => path.startsWith('clientPortal'))
  .sort();

type TCaller =
  | 'own client'
  | 'own client, another client’s record'
  | 'other client of the firm'
  | 'client of another firm'
  | 'staff session'
  | 'no session';
const CALLERS: TCaller[] = [
  'own client',
  'own client, another client’s record',
  'other client of the firm',
  'client of another firm',
  'staff session',
  'no session',
];

const EXPECTED: Record<TCaller, 'ok' | 'NOT_FOUND' | 'UNAUTHORIZED'> = {
  'own client': 'ok',
  'own client, another client’s record': 'NOT_FOUND',
  'other client of the firm': 'NOT_FOUND',
  'client of another firm': 'NOT_FOUND',
  'staff session': 'UNAUTHORIZED',
  'no session': 'UNAUTHORIZED',
};

let t: TTestApp;
let w: TWorld;
// Client requests (issue 36) of each client of the world, sent to the portal user on its own client,
// with a file on the open one's file item.
const requestsByClient = new Map<
  string,
  Awaited<ReturnType<typeof seedClientRequests>> & { openFile: { id: string } }
>();
const threadByClient = new Map<string, string>();
// Two proposals of each client with the portal user's email as the signer: one to sign, one to decline.
const signingByClient = new Map<string, { toSign: string; toDecline: string }>();
const sig = (side: TSide) => {
  const found = signingByClient.get(side.client.id);
  if (!found) throw new Error('no proposals seeded for this client');
  return found;
};
const threadOf = (side: TSide) => threadByClient.get(side.client.id) ?? '';
const req = (side: TSide) => {
  const found = requestsByClient.get(side.client.id);
  if (!found) throw new Error('no requests seeded for this client');
  return found;
};
beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
  for (const [side, firm, recipients] of [
    [w.own, w.firm, [w.portal.user.id]],
    [w.sibling, w.firm, []],
    [w.far, w.otherFirm, []],
  ] as const) {
    const orgId = firm.org.id;
    const seeded = await seedClientRequests(t, {
      orgId,
      clientId: side.client.id,
      recipientIds: [...recipients],
      marker: 'Matrix',
    });
    // A file held with the open request's file item (not filed: nobody accepted it).
    const [file] = await t.db
      .insert(requestItemFiles)
      .values({
        orgId,
        itemId: seeded.open.fileItem.id,
        name: 'statement.pdf',
        size: 4,
        contentType: 'application/pdf',
        checksumSha256: '0'.repeat(64),
        storageKey: `matrix/${side.client.id}`,
      })
      .returning({ id: requestItemFiles.id });
    if (!file) throw new Error('file not seeded');
    requestsByClient.set(side.client.id, { ...seeded, openFile: file });
    // A conversation (issue 38) with the portal user on it where the client is theirs.
    const thread = await side.api.messages.create.mutate({
      clientId: side.client.id,
      subject: 'Matrix conversation',
      body: 'Please send the statements.',
      clientUserIds: [...recipients],
    });
    threadByClient.set(side.client.id, thread.id);
    const service = await side.api.services.create.mutate({
      name: 'Matrix bookkeeping',
      code: `MB${Math.random().toString().slice(2, 7)}`,
      frequency: 'monthly',
      dueDateRule: { dayOfMonth: 10, monthsAfterPeriod: 1 },
    });
    const proposal = async (title: string) => {
      const { id } = await side.api.proposals.create.mutate({
        clientId: side.client.id,
        title,
        letterHtml: '<p>Dear {{contact_name}}</p>',
        packages: [{ name: 'One', services: [{ serviceId: service.id, billingMode: 'fixed', fee: '100' }] }],
        expiresOn: '2099-12-31',
        signers: [{ name: 'Priya Mehta', email: w.portal.user.email }],
      });
      await side.api.proposals.send.mutate({ proposalId: id });
      return id;
    };
    signingByClient.set(side.client.id, {
      toSign: await proposal('Matrix proposal to sign'),
      toDecline: await proposal('Matrix proposal to decline'),
    });
  }
});
afterAll(() => t?.close());

type TProcedureClient = Record<
  string,
  Record<string, { query(i: unknown): Promise<unknown>; mutate(i: unknown): Promise<unknown> }>
>;

function call(client: unknown, path: string, input: unknown) {
  const [namespace, name] = path.split('.') as [string, string];
  const procedure = (client as TProcedureClient)[namespace]?.[name];
  if (!procedure) throw new Error(`no client for ${path}`);
  return procedures[path]?._def.type === 'query' ? procedure.query(input) : procedure.mutate(input);
}

/** The client and input a caller uses, or null when the cell does not apply to the row. */
function cell(row: TRow, caller: TCaller): { client: unknown; input: unknown } | null {
  const portal = w.portal.client;
  if (row.about === 'public') {
    // Never with the matrix's own portal session: logout would end it for the other rows.
    if (caller === 'staff session') return { client: t.client(w.firm.owner.token), input: row.input };
    if (caller === 'no session') return { client: portalClient(t), input: row.input };
    return null;
  }
  if (row.about === 'session') {
    if (caller === 'own client') return { client: portal, input: undefined };
    if (caller === 'staff session') return { client: t.client(w.firm.owner.token), input: undefined };
    if (caller === 'no session') return { client: portalClient(t), input: undefined };
    return null;
  }
  switch (caller) {
    case 'own client':
      return { client: portal, input: row.input(w.own, w.own) };
    case 'own client, another client’s record':
      return row.hasRecords ? { client: portal, input: row.input(w.own, w.sibling) } : null;
    case 'other client of the firm':
      return { client: portal, input: row.input(w.sibling, w.sibling) };
    case 'client of another firm':
      return { client: portal, input: row.input(w.far, w.far) };
    case 'staff session':
      // The firm's owner, asking about the firm's own client: still not a portal session.
      return { client: t.client(w.firm.owner.token), input: row.input(w.own, w.own) };
    case 'no session':
      return { client: portalClient(t), input: row.input(w.own, w.own) };
  }
}

describe('portal procedure matrix', () => {
  it('finds the portal procedures and has a row for every one of them', () => {
    expect(PORTAL_PROCEDURES.length).toBeGreaterThanOrEqual(Object.keys(ROWS).length);
    expect(PORTAL_PROCEDURES.filter((path) => !ROWS[path])).toEqual([]);
    expect(Object.keys(ROWS).filter((path) => !PORTAL_PROCEDURES.includes(path))).toEqual([]);
  });

  describe.each(PORTAL_PROCEDURES)('%s', (path) => {
    it.each(CALLERS)('%s', async (caller) => {
      const row = ROWS[path];
      if (!row) throw new Error(`${path} has no row in the portal matrix: add one`);
      const target = cell(row, caller);
      if (!target) return;
      const answer = call(target.client, path, target.input);
      const expected = row.about === 'public' ? row.expected : EXPECTED[caller];
      if (expected === 'ok') await expect(answer).resolves.toBeDefined();
      else await expect(answer).rejects.toMatchObject({ data: { code: expected } });
    });
  });
});
