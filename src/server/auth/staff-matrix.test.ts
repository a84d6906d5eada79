import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CATALOGUE_VERSION } from '../../domain/statutory/catalogue';
import { createTestApp, type TTestApp } from '../test/app';
import { portalClient } from '../test/portal';
import {
  bearer,
  idsIn,
  LEAVE_YEAR,
  PNG,
  proposalContent,
  seedTenancyFirm,
  snapshotFirm,
  type TClientBundle,
  type TTenancyFirm,
} from '../test/tenancy';
import { appRouter } from '../trpc/router';

// Every staff procedure and every plain HTTP route × every kind of caller, with the answer each must
// get. Procedures are read from the router and routes from Fastify's route table, so a new one
// without a row here fails; a row for something that is gone fails too. The portal's procedures have
// their own matrix (src/server/auth/portal-matrix.test.ts).
//
// Cases of a row:
//   own       the firm's owner, the firm's own records → ok (or the domain answer the row names)
//   crossing  the owner of firm A with firm B's ids → NOT_FOUND, and B's rows unchanged. A row whose
//             input names no record of another firm ("none") instead checks that the own-firm call
//             changed nothing of B's and answered none of B's ids or names; a "filter" row (a list
//             filtered by an id) may answer NOT_FOUND or an answer with nothing of B's in it.
//             Rows with `mixed` also try A's records combined with one of B's (B's member on A's
//             client, A's document into B's folder, …): NOT_FOUND, nothing of either firm changed.
//   assigned  a member with every right but "assigned clients only", on a client they are not on the
//             team of → NOT_FOUND (rows about a client); "filter": nothing of that client answered
//   portal    a client-portal session cookie, no Bearer token → UNAUTHORIZED
//   none      no session at all → UNAUTHORIZED

// Fastify's route table, as it is built: every route buildApp registers, wherever it registers it.
const ROUTE_TABLE = vi.hoisted(() => [] as { method: string; url: string }[]);
vi.mock('fastify', async (importOriginal) => {
  const mod = await importOriginal<typeof import('fastify')>();
  const original = mod.default;
  const wrapped = ((options: Parameters<typeof original>[0]) => {
    const app = original(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) ROUTE_TABLE.push({ method, url: route.url });
    });
    return app;
  }) as typeof original;
  return { ...mod, default: wrapped, fastify: wrapped };
});

type TF = TTenancyFirm;
type TC = TClientBundle;
type TCode =
  | 'ok'
  | 'NOT_FOUND'
  | 'UNAUTHORIZED'
  | 'BAD_REQUEST'
  | 'CONFLICT'
  | 'FORBIDDEN'
  | 'PRECONDITION_FAILED';

type TMixed = (a: TF, b: TF) => unknown;
type TStaffRow = {
  kind?: 'staff';
  input: (f: TF, c: TC) => unknown;
  /** The own-firm answer when it is not ok: a domain rule the row's input meets on purpose. */
  own?: TCode;
  cross: 'ids' | 'none' | 'filter';
  /**
   * A's records with one of B's somewhere in the input: each must be refused (NOT_FOUND; a picker's
   * field answers BAD_REQUEST, the same as for an id that does not exist) with nothing of either firm
   * changed, or answer as `answer` says with nothing of B's changed.
   */
  mixed?: (TMixed | { input: TMixed; answer: 'ok' | 'CONFLICT' })[];
  /** About a client: NOT_FOUND for the limited member on an unassigned one; "filter": not shown. */
  client?: true | 'filter';
};
/** A staff sign-in with or without a firm (onboarding, accepting an invitation). */
type TIdentifiedRow = { kind: 'identified'; input: (f: TF) => unknown; own: TCode };
/** No session needed: the answer without one (the same with a portal cookie). */
type TPublicRow = { kind: 'public'; input: unknown; expected: TCode };
type TRow = TStaffRow | TIdentifiedRow | TPublicRow;

const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600_000);
const UNKNOWN_KEY = 'A'.repeat(43);
const code = () => `N${randomUUID().slice(0, 8)}`;
const email = () => `new-${randomUUID()}@example.test`;
const serviceCode = (f: TF) => `${f.marker.slice(0, 3)}-GST`;
const region = { country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR', fiscalYearStartMonth: 4 };
const signerLink = { proposalId: randomUUID(), signerId: randomUUID(), token: UNKNOWN_KEY };
/** A proposal's fields over the firm's service (or, mixed, another firm's). */
const proposalFields = (f: Pick<TF, 'marker' | 'service'>) => {
  const { name: _name, ...content } = proposalContent(f);
  return {
    ...content,
    title: `${f.marker} matrix proposal`,
    expiresOn: '2099-12-31',
    signers: [{ name: 'Matrix Signer', email: `signer-${randomUUID()}@example.test` }],
  };
};

const ROWS: Record<string, TRow> = {
  'account.get': { input: () => undefined, cross: 'none' },
  'account.mfa.status': { input: () => undefined, cross: 'none' },
  // The owner has no authenticator yet: the domain's refusal.
  'account.mfa.regenerateRecoveryCodes': { input: () => undefined, own: 'BAD_REQUEST', cross: 'none' },
  'account.updateProfile': {
    input: (f) => ({ firstName: f.marker, lastName: 'Owner', phone: '', picture: '' }),
    cross: 'none',
  },
  'auth.logout': { kind: 'public', input: undefined, expected: 'ok' },

  'billing.invoices.clientBilling': {
    input: (_, c) => ({ clientId: c.client.id }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.clientMailings': {
    input: (_, c) => ({ clientId: c.client.id, page: 1, pageSize: 10 }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.clientOptions': { input: () => ({}), cross: 'none', client: 'filter' },
  'billing.invoices.create': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'billing.invoices.creditNote': {
    input: (_, c) => ({ invoiceId: c.billing.creditable.id, reason: 'Matrix', full: true }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.deleteDraft': {
    input: (_, c) => ({ invoiceId: c.billing.doomedDraft.id }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.get': {
    input: (_, c) => ({ invoiceId: c.billing.invoice.id }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.issue': {
    input: (_, c) => ({ invoiceId: c.billing.toIssue.id }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.issueAndSend': {
    input: (_, c) => ({ invoiceId: c.billing.toIssueAndSend.id }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.list': { input: () => ({}), cross: 'none', client: 'filter' },
  'billing.invoices.send': {
    input: (_, c) => ({ invoiceId: c.billing.invoice.id, to: ['matrix@example.test'] }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.serviceOptions': { input: () => undefined, cross: 'none' },
  'billing.invoices.setClientBilling': {
    input: (_, c) => ({ clientId: c.client.id, emails: ['billing@example.test'], remindersPaused: true }),
    cross: 'ids',
    client: true,
  },
  'billing.invoices.update': {
    input: (_, c) => ({ invoiceId: c.billing.draft.id, lines: [c.billing.line], notes: 'Matrix', terms: '' }),
    cross: 'ids',
    client: true,
    // Another firm's line on one's own draft is not found.
    mixed: [
      (a, b) => ({
        invoiceId: a.assigned.billing.draft.id,
        lines: [{ ...a.assigned.billing.line, id: b.assigned.billing.draftLineId }],
        notes: '',
        terms: '',
      }),
    ],
  },
  'billing.invoices.void': {
    input: (_, c) => ({ invoiceId: c.billing.voidable.id, reason: 'Matrix' }),
    cross: 'ids',
    client: true,
  },
  'billing.settings.get': { input: () => undefined, cross: 'none' },
  'billing.settings.update': {
    input: () => ({
      taxRegime: 'none',
      gstState: null,
      defaultTaxRateBp: 0,
      roundTotals: false,
      invoicePrefix: 'INV',
      creditNotePrefix: 'CN',
      seqDigits: 4,
      dueDays: 30,
      terms: 'Matrix terms',
      bankDetails: '',
      upiVpa: null,
      upiPayee: null,
      recurringMode: 'draft',
      remindersEnabled: false,
      remindBeforeDays: null,
      remindOnDue: true,
      remindEveryDays: null,
    }),
    cross: 'none',
  },

  'billing.payments.applyCredit': {
    input: (_, c) => ({ clientId: c.client.id, allocations: [{ invoiceId: c.invoice.id, amount: 100 }] }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        clientId: a.assigned.client.id,
        allocations: [{ invoiceId: b.assigned.invoice.id, amount: 1 }],
      }),
    ],
  },
  'billing.payments.clientAccount': {
    input: (_, c) => ({ clientId: c.client.id }),
    cross: 'ids',
    client: true,
  },
  'billing.payments.clientOptions': { input: (f) => ({ search: f.marker }), cross: 'none', client: 'filter' },
  'billing.payments.get': { input: (_, c) => ({ paymentId: c.payment.id }), cross: 'ids', client: true },
  'billing.payments.list': {
    input: (_, c) => ({ clientId: c.client.id }),
    cross: 'filter',
    client: 'filter',
  },
  'billing.payments.record': {
    input: (_, c) => ({
      clientId: c.client.id,
      receivedOn: '2026-05-01',
      method: 'upi',
      amount: 500,
      allocations: [{ invoiceId: c.invoice.id, amount: 500 }],
    }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        clientId: a.assigned.client.id,
        receivedOn: '2026-05-01',
        method: 'upi',
        amount: 500,
        allocations: [{ invoiceId: b.assigned.invoice.id, amount: 500 }],
      }),
    ],
  },
  'billing.payments.refund': {
    input: (_, c) => ({ clientId: c.client.id, paidOn: '2026-05-02', method: 'cash', amount: 100 }),
    cross: 'ids',
    client: true,
  },
  'billing.payments.reverse': {
    input: (_, c) => ({ paymentId: c.doomedPayment.id, reason: 'Cheque bounced' }),
    cross: 'ids',
    client: true,
  },
  'billing.payments.reverseAllocation': {
    input: (_, c) => ({ allocationId: c.allocation.id }),
    cross: 'ids',
    client: true,
  },
  'billing.payments.update': {
    input: (_, c) => ({
      paymentId: c.payment.id,
      reference: 'UTR 99',
      notes: '',
      tdsSection: '194J',
      tdsCertificateReceived: true,
    }),
    cross: 'ids',
    client: true,
  },
  'billing.receivables.aging': { input: () => ({}), cross: 'none', client: 'filter' },
  'billing.statements.get': {
    input: (_, c) => ({ clientId: c.client.id, from: '2026-04-01', to: '2027-03-31' }),
    cross: 'ids',
    client: true,
  },

  'broadcastTemplates.create': {
    input: (f) => ({ name: `${f.marker} new`, subject: 'Hi', bodyHtml: '<p>Hi</p>' }),
    cross: 'none',
  },
  'broadcastTemplates.delete': { input: (f) => ({ id: f.broadcasts.doomedTemplate.id }), cross: 'ids' },
  'broadcastTemplates.get': { input: (f) => ({ id: f.broadcasts.template.id }), cross: 'ids' },
  'broadcastTemplates.list': { input: () => ({}), cross: 'none' },
  'broadcastTemplates.preview': {
    input: (_, c) => ({ subject: 'Hi {{client_name}}', bodyHtml: '<p>Hi</p>', clientId: c.client.id }),
    cross: 'ids',
    client: true,
  },
  'broadcastTemplates.update': {
    input: (f) => ({
      id: f.broadcasts.template.id,
      name: `${f.marker} edited`,
      subject: 'Hi',
      bodyHtml: '<p>Hi</p>',
    }),
    cross: 'ids',
  },
  'billing.wip.addToDraft': {
    input: (_, c) => ({ invoiceId: c.wipDraft, timeEntryIds: [c.billableTime2.id] }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ invoiceId: a.assigned.wipDraft, timeEntryIds: [b.assigned.billableTime2.id] })],
  },
  'billing.wip.client': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'billing.wip.createInvoice': {
    input: (_, c) => ({ clientId: c.client.id, timeEntryIds: [c.billableTime.id] }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({ clientId: a.assigned.client.id, timeEntryIds: [b.assigned.billableTime2.id] }),
      (a, b) => ({ clientId: a.assigned.client.id, disbursementIds: [b.assigned.wipDisbursement.id] }),
      (a, b) => ({
        clientId: a.assigned.client.id,
        fees: [{ engagementId: b.assigned.engagement.id, periodStart: '2026-03-01' }],
      }),
    ],
  },
  'billing.wip.disbursements.create': {
    input: (f, c) => ({
      clientId: c.client.id,
      spentOn: '2026-03-06',
      kind: 'courier',
      description: `${f.marker} new courier`,
      amount: 100,
    }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        clientId: a.assigned.client.id,
        spentOn: '2026-03-06',
        kind: 'courier',
        description: 'x',
        amount: 100,
        projectId: b.assigned.project.id,
      }),
      (a, b) => ({
        clientId: a.assigned.client.id,
        spentOn: '2026-03-06',
        kind: 'courier',
        description: 'x',
        amount: 100,
        receiptDocumentId: b.assigned.document.id,
      }),
    ],
  },
  'billing.wip.disbursements.delete': {
    input: (_, c) => ({ disbursementId: c.doomedDisbursement.id }),
    cross: 'ids',
    client: true,
  },
  'billing.wip.disbursements.receiptFolder': {
    input: (_, c) => ({ clientId: c.client.id }),
    cross: 'ids',
    client: true,
  },
  'billing.wip.disbursements.update': {
    input: (f, c) => ({
      disbursementId: c.wipDisbursement.id,
      spentOn: '2026-03-06',
      kind: 'courier',
      description: `${f.marker} courier by air`,
      amount: 200,
    }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        disbursementId: a.assigned.wipDisbursement.id,
        spentOn: '2026-03-06',
        kind: 'courier',
        description: 'x',
        amount: 200,
        projectId: b.assigned.project.id,
      }),
    ],
  },
  'billing.wip.list': { input: () => ({}), cross: 'none', client: 'filter' },

  'broadcasts.audience': { input: () => ({ audience: {} }), cross: 'none', client: 'filter' },
  'broadcasts.cancel': { input: (f) => ({ id: f.broadcasts.doomed.id }), cross: 'ids' },
  'broadcasts.create': {
    input: () => ({ subject: 'Hi', bodyHtml: '<p>Hi</p>', audience: {} }),
    cross: 'none',
  },
  'broadcasts.deliveries': { input: (f) => ({ id: f.broadcasts.sending.id }), cross: 'ids' },
  'broadcasts.forClient': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'broadcasts.get': { input: (f) => ({ id: f.broadcasts.sending.id }), cross: 'ids' },
  'broadcasts.list': { input: () => ({}), cross: 'none' },
  'broadcasts.pause': { input: (f) => ({ id: f.broadcasts.sending.id }), cross: 'ids' },
  'broadcasts.preview': {
    input: (_, c) => ({ subject: 'Hi', bodyHtml: '<p>Hi</p>', clientId: c.client.id }),
    cross: 'ids',
    client: true,
  },
  'broadcasts.resume': { input: (f) => ({ id: f.broadcasts.paused.id }), cross: 'ids' },
  // Nothing has failed yet: the domain's answer.
  'broadcasts.retryFailed': {
    input: (f) => ({ id: f.broadcasts.sending.id }),
    own: 'CONFLICT',
    cross: 'ids',
  },
  'broadcasts.settings': { input: () => undefined, cross: 'none' },
  'broadcasts.testSend': {
    input: (_, c) => ({ subject: 'Hi', bodyHtml: '<p>Hi</p>', clientId: c.client.id }),
    cross: 'ids',
    client: true,
  },
  'broadcasts.updateSettings': { input: () => ({ ratePerSecond: 5, dailyCap: 500 }), cross: 'none' },
  'clientGroups.addClients': {
    input: (f, c) => ({ groupId: f.group.id, clientIds: [c.client.id] }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ groupId: a.group.id, clientIds: [b.assigned.client.id] })],
  },
  'clientGroups.candidates': { input: (f) => ({ groupId: f.group.id }), cross: 'ids', client: 'filter' },
  'clientGroups.create': { input: (f) => ({ name: `${f.marker} new group` }), cross: 'none' },
  'clientGroups.delete': { input: (f) => ({ groupId: f.doomedGroup.id }), cross: 'ids' },
  'clientGroups.get': { input: (f) => ({ groupId: f.group.id }), cross: 'ids', client: 'filter' },
  'clientGroups.list': { input: () => ({}), cross: 'none' },
  'clientGroups.removeClients': {
    input: (f, c) => ({ groupId: f.group.id, clientIds: [c.client.id] }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ groupId: a.group.id, clientIds: [b.assigned.client.id] })],
  },
  'clientGroups.update': { input: (f) => ({ groupId: f.group.id, name: `${f.marker} group` }), cross: 'ids' },

  'clientUsers.disable': {
    input: (_, c) => ({ clientId: c.client.id, clientUserId: c.clientUser.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ clientId: a.assigned.client.id, clientUserId: b.assigned.clientUser.id })],
  },
  'clientUsers.enable': {
    input: (_, c) => ({ clientId: c.client.id, clientUserId: c.clientUser.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ clientId: a.assigned.client.id, clientUserId: b.assigned.clientUser.id })],
  },
  'clientUsers.invite': {
    input: (f, c) => ({ clientId: c.client.id, email: email(), name: `${f.marker} invitee`, phone: '' }),
    cross: 'ids',
    client: true,
  },
  'clientUsers.list': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'clientUsers.remove': {
    input: (_, c) => ({ clientId: c.client.id, clientUserId: c.doomedClientUser.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ clientId: a.assigned.client.id, clientUserId: b.assigned.doomedClientUser.id })],
  },
  'clientUsers.resendInvite': {
    input: (_, c) => ({ clientId: c.client.id, clientUserId: c.clientUser.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ clientId: a.assigned.client.id, clientUserId: b.assigned.clientUser.id })],
  },

  'clients.archive': { input: (_, c) => ({ clientId: c.archivable.id }), cross: 'ids', client: true },
  // A bulk action acts on the chosen rows the caller may see, and answers how many (deliberate, and
  // pinned by clients.test.ts and tasks.test.ts): another firm's or a hidden client's ids are left out.
  'clients.bulk': {
    input: (_, c) => ({ ids: [c.client.id], action: { kind: 'addTag', tag: 'matrix' } }),
    cross: 'filter',
    client: 'filter',
    mixed: [
      (a, b) => ({ ids: [a.assigned.client.id], action: { kind: 'assignMember', memberId: b.owner.id } }),
      (a, b) => ({ ids: [a.assigned.client.id], action: { kind: 'setGroup', groupId: b.group.id } }),
    ],
  },
  'clients.create': {
    input: (f) => ({ code: code(), name: `${f.marker} new client` }),
    cross: 'none',
    // Another firm's member on the new client's team: refused, and no client made.
    mixed: [(a, b) => ({ code: code(), name: `${a.marker} new client`, teamMemberIds: [b.owner.id] })],
  },
  'clients.get': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'clients.import.discard': { input: (f) => ({ importId: f.doomedImportId }), cross: 'ids' },
  'clients.import.get': { input: (f) => ({ importId: f.importId }), cross: 'ids' },
  'clients.import.rows': { input: (f) => ({ importId: f.importId }), cross: 'ids' },
  'clients.import.step': { input: (f) => ({ importId: f.importId }), cross: 'ids' },
  'clients.import.unfinished': { input: () => undefined, cross: 'none' },
  'clients.list': { input: (f) => ({ groupId: f.group.id }), cross: 'filter', client: 'filter' },
  // The proposal reads the firm's own codes only: one firm never sees another's numbering.
  'clients.nextCode': { input: () => undefined, cross: 'none' },
  'clients.options': { input: () => undefined, cross: 'none', client: 'filter' },
  'clients.restore': { input: (_, c) => ({ clientId: c.archivable.id }), cross: 'ids', client: true },
  'clients.team.add': {
    input: (f, c) => ({ clientId: c.client.id, memberId: f.manager.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ clientId: a.assigned.client.id, memberId: b.manager.id })],
  },
  'clients.team.list': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'clients.team.remove': {
    input: (f, c) => ({ clientId: c.client.id, memberId: f.admin.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ clientId: a.assigned.client.id, memberId: b.admin.id })],
  },
  'clients.team.updateResponsibility': {
    input: (f, c) => ({ clientId: c.client.id, memberId: f.staff.id, responsibility: 'Reviewer' }),
    cross: 'ids',
    client: true,
  },
  'clients.update': {
    input: (f, c) => ({ clientId: c.client.id, data: { code: c.client.code, name: `${f.marker} renamed` } }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        clientId: a.assigned.client.id,
        data: { code: a.assigned.client.code, name: `${a.marker} regrouped`, groupId: b.group.id },
      }),
    ],
  },

  'dashboard.summary': { input: () => undefined, cross: 'none', client: 'filter' },
  'dashboard.dueWhileAway': { input: () => undefined, cross: 'none' },
  'dashboard.dismissSetup': { input: () => undefined, cross: 'none' },
  'dashboard.setup': { input: () => undefined, cross: 'none' },

  'documents.contents': { input: (_, c) => ({ folderId: c.folder.id }), cross: 'ids', client: true },
  'documents.createFolder': {
    input: (f, c) => ({ parentId: c.root.id, name: `${f.marker} new folder` }),
    cross: 'ids',
    client: true,
  },
  'documents.defaultFolders': { input: () => undefined, cross: 'none' },
  'documents.requestFiling': { input: () => undefined, cross: 'none' },
  'documents.delete': { input: (_, c) => ({ documentId: c.doomedDocument.id }), cross: 'ids', client: true },
  'documents.deleteFolder': {
    input: (_, c) => ({ folderId: c.doomedFolder.id }),
    cross: 'ids',
    client: true,
  },
  'documents.folders': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'documents.limits': { input: () => undefined, cross: 'none' },
  'documents.move': {
    input: (_, c) => ({ documentId: c.document.id, targetId: c.root.id }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({ documentId: a.assigned.document.id, targetId: b.assigned.folder.id }),
      (a, b) => ({ documentId: b.assigned.document.id, targetId: a.assigned.folder.id }),
    ],
  },
  'documents.moveFolder': {
    input: (_, c) => ({ folderId: c.movable.id, targetId: c.folder.id }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({ folderId: a.assigned.movable.id, targetId: b.assigned.folder.id }),
      (a, b) => ({ folderId: b.assigned.movable.id, targetId: a.assigned.folder.id }),
    ],
  },
  'leave.availability': {
    input: (f) => ({ day: `${LEAVE_YEAR}-03-04`, memberIds: [f.staff.id, f.owner.id] }),
    cross: 'filter',
  },
  'leave.holidays.list': { input: () => ({ year: LEAVE_YEAR }), cross: 'none' },
  'leave.holidays.create': {
    input: (f) => ({ date: `${LEAVE_YEAR}-12-25`, name: `${f.marker} new holiday` }),
    cross: 'none',
  },
  'leave.holidays.update': {
    input: (f) => ({ holidayId: f.leave.holiday.id, date: `${LEAVE_YEAR}-01-27`, name: `${f.marker} moved` }),
    cross: 'ids',
  },
  'leave.holidays.delete': { input: (f) => ({ holidayId: f.leave.doomedHoliday.id }), cross: 'ids' },
  'leave.holidays.import': {
    input: (f) => ({ csv: `date,name\n${LEAVE_YEAR}-10-02,${f.marker} imported\n` }),
    cross: 'none',
  },
  'leave.holidays.copyToNextYear': { input: () => ({ fromYear: LEAVE_YEAR }), cross: 'none' },
  'leave.types.list': { input: () => ({}), cross: 'none' },
  'leave.types.create': { input: (f) => ({ name: `${f.marker} new leave`, allowance: 3 }), cross: 'none' },
  'leave.types.update': {
    input: (f) => ({ leaveTypeId: f.leave.type.id, name: `${f.marker} annual`, allowance: 21 }),
    cross: 'ids',
  },
  'leave.types.archive': { input: (f) => ({ leaveTypeId: f.leave.doomedType.id }), cross: 'ids' },
  'leave.setup.get': { input: () => undefined, cross: 'none' },
  'leave.setup.update': {
    input: () => ({
      workingDays: [1, 2, 3, 4, 5, 6],
      minutesPerDay: 420,
      offices: [],
      secondLevelAfterDays: null,
      awayWarnPercent: 40,
    }),
    cross: 'none',
  },
  'leave.setup.members': { input: () => undefined, cross: 'none' },
  'leave.setup.updateMember': {
    input: (f) => ({
      memberId: f.staff.id,
      managerId: f.admin.id,
      office: null,
      workingDays: null,
      minutesPerDay: null,
    }),
    cross: 'ids',
    mixed: [
      (a, b) => ({
        memberId: a.staff.id,
        managerId: b.admin.id,
        office: null,
        workingDays: null,
        minutesPerDay: null,
      }),
    ],
  },
  'leave.setup.balances': { input: () => ({ year: LEAVE_YEAR }), cross: 'none' },
  'leave.setup.allocate': {
    input: (f) => ({ memberId: f.staff.id, leaveTypeId: f.leave.type.id, year: LEAVE_YEAR, amount: 2 }),
    cross: 'ids',
    mixed: [(a, b) => ({ memberId: a.staff.id, leaveTypeId: b.leave.type.id, year: LEAVE_YEAR, amount: 2 })],
  },
  'leave.setup.runs': { input: () => undefined, cross: 'none' },
  'leave.requests.mine': { input: () => ({ year: LEAVE_YEAR }), cross: 'none' },
  'leave.requests.preview': {
    input: (f) => ({
      leaveTypeId: f.leave.type.id,
      startDate: `${LEAVE_YEAR}-05-04`,
      endDate: `${LEAVE_YEAR}-05-05`,
    }),
    cross: 'ids',
  },
  'leave.requests.submit': {
    input: (f) => ({
      leaveTypeId: f.leave.type.id,
      startDate: `${LEAVE_YEAR}-05-04`,
      endDate: `${LEAVE_YEAR}-05-05`,
    }),
    cross: 'ids',
    mixed: [
      (a, b) => ({
        leaveTypeId: a.leave.type.id,
        startDate: `${LEAVE_YEAR}-05-11`,
        endDate: `${LEAVE_YEAR}-05-11`,
        attachmentId: b.leave.spareAttachment.id,
      }),
    ],
  },
  'leave.requests.cancel': { input: (f) => ({ requestId: f.leave.ownRequest.id }), cross: 'ids' },
  'leave.requests.team': { input: () => ({ status: 'pending' }), cross: 'none' },
  'leave.requests.decide': {
    input: (f) => ({ requestId: f.leave.request.id, approve: false, comment: 'Busy week' }),
    cross: 'ids',
  },
  'leave.requests.calendar': {
    input: () => ({ from: `${LEAVE_YEAR}-03-01`, to: `${LEAVE_YEAR}-03-31` }),
    cross: 'none',
  },
  'documents.open': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'documents.rename': {
    input: (f, c) => ({ documentId: c.document.id, name: `${f.marker} renamed.png` }),
    cross: 'ids',
    client: true,
  },
  'documents.renameFolder': {
    input: (f, c) => ({ folderId: c.folder.id, name: `${f.marker} renamed folder` }),
    cross: 'ids',
    client: true,
  },
  'documents.restore': {
    input: (_, c) => ({ kind: 'document', id: c.trashedDocument.id }),
    cross: 'ids',
    client: true,
  },
  'documents.search': {
    input: (f, c) => ({ clientId: c.client.id, search: f.marker }),
    cross: 'ids',
    client: true,
  },
  'documents.setDefaultFolders': { input: (f) => ({ folders: [`${f.marker} KYC`] }), cross: 'none' },
  'documents.setRequestFiling': { input: () => ({ shareWithClient: true }), cross: 'none' },
  'documents.setFolderVisibility': {
    input: (_, c) => ({ folderId: c.folder.id, visibleToPortal: false }),
    cross: 'ids',
    client: true,
  },
  'documents.setVisibility': {
    input: (_, c) => ({ documentId: c.document.id, visibleToPortal: false }),
    cross: 'ids',
    client: true,
  },
  'documents.trash': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'documents.versions': { input: (_, c) => ({ documentId: c.document.id }), cross: 'ids', client: true },
  'documents.list': { input: (_, c) => ({ clientId: c.client.id }), cross: 'filter', client: 'filter' },
  'documents.get': { input: (_, c) => ({ documentId: c.document.id }), cross: 'ids', client: true },

  'engagements.create': {
    input: (f, c) => ({ clientId: c.client.id, serviceId: f.service.id, startDate: '2025-06-01' }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({ clientId: a.assigned.client.id, serviceId: b.service.id, startDate: '2025-06-01' }),
      (a, b) => ({
        clientId: a.assigned.client.id,
        serviceId: a.service.id,
        startDate: '2025-06-01',
        assigneeIds: [b.owner.id],
      }),
    ],
  },
  'engagements.delete': {
    input: (_, c) => ({ engagementId: c.doomedEngagement.id }),
    cross: 'ids',
    client: true,
  },
  'engagements.end': {
    input: (_, c) => ({ engagementId: c.engagement.id, endDate: '2099-03-31' }),
    cross: 'ids',
    client: true,
  },
  'engagements.get': { input: (_, c) => ({ engagementId: c.engagement.id }), cross: 'ids', client: true },
  'engagements.listForClient': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'engagements.update': {
    input: (_, c) => ({ engagementId: c.engagement.id, startDate: '2025-04-01', endDate: '2099-03-31' }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        engagementId: a.assigned.engagement.id,
        startDate: '2025-04-01',
        assigneeIds: [b.owner.id],
      }),
    ],
  },

  'invites.accept': { kind: 'identified', input: () => ({ key: UNKNOWN_KEY }), own: 'NOT_FOUND' },
  'invites.preview': { kind: 'public', input: { key: UNKNOWN_KEY }, expected: 'NOT_FOUND' },

  'notifications.list': { input: () => ({}), cross: 'none' },
  'notifications.markAllRead': { input: () => undefined, cross: 'none' },
  'notifications.markRead': { input: (f) => ({ ids: [f.notification.id] }), cross: 'ids' },
  'notifications.preferences.get': { input: () => undefined, cross: 'none' },
  'notifications.preferences.set': {
    input: () => ({ kind: 'task.assigned', inApp: true, email: false }),
    cross: 'none',
  },
  'notifications.unreadCount': { input: () => undefined, cross: 'none' },

  'onboarding.createFirm': {
    kind: 'identified',
    input: (f) => ({ firmName: `${f.marker} again`, firstName: 'Olivia', lastName: 'Owner', ...region }),
    own: 'CONFLICT',
  },
  'onboarding.status': { kind: 'identified', input: () => undefined, own: 'ok' },
  'profile.me': { input: () => undefined, cross: 'none' },

  'automations.addReadyMade': { input: () => ({ key: 'invoice-filed' }), cross: 'none' },
  'automations.create': {
    input: (f) => ({
      name: `${f.marker} new rule`,
      trigger: { kind: 'request.submitted' },
      actions: [{ kind: 'moveStage', stageName: 'Preparation' }],
    }),
    cross: 'none',
  },
  'automations.delete': { input: (f) => ({ ruleId: f.automations.doomedRule.id }), cross: 'ids' },
  'automations.get': { input: (f) => ({ ruleId: f.automations.rule.id }), cross: 'ids' },
  'automations.list': { input: () => undefined, cross: 'none' },
  'automations.forTemplate': { input: (f) => ({ templateId: f.template.id }), cross: 'ids' },
  'automations.preview': {
    input: (f) => ({
      name: `${f.marker} preview`,
      trigger: { kind: 'project.created' },
      actions: [{ kind: 'moveStage', stageName: 'Preparation' }],
    }),
    cross: 'none',
  },
  'automations.runs': { input: (f) => ({ ruleId: f.automations.rule.id }), cross: 'ids' },
  'automations.setEnabled': {
    input: (f) => ({ ruleId: f.automations.rule.id, enabled: true }),
    cross: 'ids',
  },
  'automations.update': {
    input: (f) => ({
      ruleId: f.automations.rule.id,
      name: `${f.marker} rule renamed`,
      trigger: { kind: 'task.completed' },
      actions: [{ kind: 'notifyMembers', owner: true, memberIds: [], message: 'Done' }],
    }),
    cross: 'ids',
  },
  'stages.board': { input: (f) => ({ templateId: f.template.id }), cross: 'ids' },
  'stages.list': { input: (f) => ({ templateId: f.template.id }), cross: 'ids' },
  'stages.move': {
    input: (_, c) => ({ projectId: c.project.id, stageId: null }),
    cross: 'ids',
    client: true,
  },
  'stages.set': {
    input: (f) => ({ templateId: f.template.id, stages: [{ name: `${f.marker} stage` }] }),
    cross: 'ids',
  },
  'projectTemplates.archive': { input: (f) => ({ templateId: f.archivableTemplate.id }), cross: 'ids' },
  'projectTemplates.blueprints.add': {
    input: (f) => ({ templateId: f.template.id, title: `${f.marker} new blueprint`, dueOffsetDays: 5 }),
    cross: 'ids',
    mixed: [
      (a, b) => ({
        templateId: a.template.id,
        title: 'Someone else’s',
        dueOffsetDays: 5,
        assigneeKind: 'member',
        assigneeMemberId: b.owner.id,
      }),
      (a, b) => ({
        templateId: a.template.id,
        title: 'Someone else’s role',
        dueOffsetDays: 5,
        assigneeKind: 'role',
        assigneeRoleId: b.role.id,
      }),
    ],
  },
  'projectTemplates.blueprints.move': {
    input: (f) => ({ blueprintId: f.blueprint.id, direction: 'down' }),
    cross: 'ids',
  },
  'projectTemplates.blueprints.remove': {
    input: (f) => ({ blueprintId: f.doomedBlueprint.id }),
    cross: 'ids',
  },
  'projectTemplates.blueprints.update': {
    input: (f) => ({ blueprintId: f.blueprint.id, title: `${f.marker} blueprint`, dueOffsetDays: 12 }),
    cross: 'ids',
    mixed: [
      (a, b) => ({
        blueprintId: a.blueprint.id,
        title: 'Someone else’s',
        dueOffsetDays: 12,
        assigneeKind: 'member',
        assigneeMemberId: b.owner.id,
      }),
    ],
  },
  'projectTemplates.create': { input: (f) => ({ name: `${f.marker} new template` }), cross: 'none' },
  'projectTemplates.delete': { input: (f) => ({ templateId: f.doomedTemplate.id }), cross: 'ids' },
  'projectTemplates.get': { input: (f) => ({ templateId: f.template.id }), cross: 'ids' },
  'projectTemplates.list': { input: () => ({}), cross: 'none' },
  'projectTemplates.options': { input: () => undefined, cross: 'none' },
  'projectTemplates.restore': { input: (f) => ({ templateId: f.archivableTemplate.id }), cross: 'ids' },
  'projectTemplates.update': {
    input: (f) => ({ templateId: f.template.id, name: `${f.marker} template` }),
    cross: 'ids',
  },

  'projects.addMember': {
    input: (f, c) => ({ projectId: c.project.id, memberId: f.manager.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ projectId: a.assigned.project.id, memberId: b.manager.id })],
  },
  'projects.archive': {
    input: (_, c) => ({ projectId: c.archivableProject.id }),
    cross: 'ids',
    client: true,
  },
  'projects.board': { input: (_, c) => ({ clientId: c.client.id }), cross: 'filter', client: 'filter' },
  'projects.clients': { input: (_, c) => ({ clientId: c.client.id }), cross: 'filter', client: 'filter' },
  'projects.create': {
    input: (f, c) => ({ clientId: c.client.id, name: `${f.marker} new project` }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({ clientId: a.assigned.client.id, name: 'x', templateId: b.template.id }),
      (a, b) => ({ clientId: a.assigned.client.id, name: 'x', serviceId: b.service.id }),
      (a, b) => ({ clientId: a.assigned.client.id, name: 'x', ownerId: b.owner.id }),
      (a, b) => ({ clientId: a.assigned.client.id, name: 'x', memberIds: [b.manager.id] }),
    ],
  },
  'projects.delete': { input: (_, c) => ({ projectId: c.doomedProject.id }), cross: 'ids', client: true },
  'projects.get': { input: (_, c) => ({ projectId: c.project.id }), cross: 'ids', client: true },
  'projects.list': { input: (_, c) => ({ clientId: c.client.id }), cross: 'filter', client: 'filter' },
  'projects.options': { input: () => undefined, cross: 'none' },
  'projects.removeMember': {
    input: (f, c) => ({ projectId: c.project.id, memberId: f.admin.id }),
    cross: 'ids',
    client: true,
  },
  'projects.restore': {
    input: (_, c) => ({ projectId: c.archivableProject.id }),
    cross: 'ids',
    client: true,
  },
  'projects.setStatus': {
    input: (_, c) => ({ projectId: c.project.id, status: 'IN_PROGRESS' }),
    cross: 'ids',
    client: true,
  },
  'projects.update': {
    input: (f, c) => ({ projectId: c.project.id, name: `${f.marker} project`, dueDate: '2099-03-31' }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ projectId: a.assigned.project.id, name: 'x', ownerId: b.owner.id })],
  },

  'reminders.cancel': { input: (_, c) => ({ id: c.doomedReminder.id }), cross: 'ids', client: true },
  'reminders.clientOptions': { input: (f) => ({ search: f.marker }), cross: 'none', client: 'filter' },
  'reminders.create': {
    input: (f, c) => ({
      type: 'client',
      title: `${f.marker} new reminder`,
      clientId: c.client.id,
      remindAt: day(3),
      channels: ['email'],
    }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        type: 'client',
        title: 'x',
        clientId: a.assigned.client.id,
        projectId: b.assigned.project.id,
        remindAt: day(3),
        channels: ['email'],
      }),
      (a, b) => ({
        type: 'client',
        title: 'x',
        clientId: a.assigned.client.id,
        taskId: b.assigned.task.id,
        remindAt: day(3),
        channels: ['email'],
      }),
      (_, b) => ({
        type: 'team',
        title: 'x',
        remindAt: day(3),
        channels: ['in_app'],
        memberIds: [b.owner.id],
      }),
    ],
  },
  'reminders.deliveries': { input: (_, c) => ({ id: c.reminder.id }), cross: 'ids', client: true },
  'reminders.get': { input: (_, c) => ({ id: c.reminder.id }), cross: 'ids', client: true },
  'reminders.linkOptions': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'reminders.list': {
    input: (_, c) => ({ type: 'client', clientId: c.client.id }),
    cross: 'filter',
    client: 'filter',
  },
  'reminders.memberOptions': { input: () => undefined, cross: 'none' },
  'reminders.sendNow': { input: (_, c) => ({ id: c.reminder.id }), cross: 'ids', client: true },
  'reminders.update': {
    input: (f, c) => ({
      id: c.reminder.id,
      data: {
        type: 'client',
        title: `${f.marker} reminder`,
        clientId: c.client.id,
        remindAt: day(5),
        channels: ['email'],
      },
    }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        id: a.assigned.reminder.id,
        data: {
          type: 'client',
          title: 'x',
          clientId: b.assigned.client.id,
          remindAt: day(5),
          channels: ['email'],
        },
      }),
    ],
  },

  'reports.options': { input: () => undefined, cross: 'none' },
  'reports.headlines': { input: () => undefined, cross: 'none', client: 'filter' },
  'reports.clientSummary': {
    input: () => ({ from: '2026-01-01', to: '2026-03-31' }),
    cross: 'none',
    client: 'filter',
  },
  'reports.teamSummary': {
    input: () => ({ from: '2026-01-01', to: '2026-03-31' }),
    cross: 'none',
    client: 'filter',
  },
  'reports.servicesSummary': {
    input: () => ({ from: '2026-01-01', to: '2026-03-31' }),
    cross: 'none',
    client: 'filter',
  },
  'reports.notStarted': {
    input: (f) => ({ from: '2026-01-01', to: '2026-03-31', serviceId: f.service.id }),
    cross: 'filter',
    client: 'filter',
  },
  'reports.billingSummary': {
    input: () => ({ from: '2026-01-01', to: '2026-03-31', by: 'client' }),
    cross: 'none',
    client: 'filter',
  },
  'reports.complianceGrid': {
    input: (f) => ({ from: '2026-01-01', to: '2026-03-31', serviceId: f.service.id }),
    cross: 'ids',
    client: 'filter',
  },
  'reports.requestsOutstanding': { input: () => ({}), cross: 'none', client: 'filter' },
  'reports.views.list': { input: () => ({ report: 'client' }), cross: 'none' },
  'reports.views.save': {
    input: (f) => ({ report: 'client', name: `${f.marker} view`, search: {} }),
    cross: 'none',
  },
  // Nobody's view by that id: a view is its member's alone.
  'reports.views.delete': { input: () => ({ viewId: randomUUID() }), own: 'NOT_FOUND', cross: 'none' },

  // Client requests (issue 36).
  'requests.templates.list': { input: () => undefined, cross: 'none' },
  'requests.templates.get': { input: (f) => ({ templateId: f.requestTemplates.template.id }), cross: 'ids' },
  'requests.templates.save': {
    input: (f) => ({
      templateId: f.requestTemplates.template.id,
      name: `${f.marker} request template`,
      sections: [{ title: 'Matrix', items: [{ key: 'pan', kind: 'short_text', label: 'PAN' }] }],
    }),
    cross: 'ids',
  },
  'requests.templates.copy': { input: (f) => ({ templateId: f.requestTemplates.template.id }), cross: 'ids' },
  'requests.templates.delete': { input: (f) => ({ templateId: f.requestTemplates.doomed.id }), cross: 'ids' },
  'requests.list': { input: () => ({}), cross: 'none', client: 'filter' },
  'requests.clients': { input: (_, c) => ({ clientId: c.client.id }), cross: 'filter', client: 'filter' },
  'requests.get': { input: (_, c) => ({ requestId: c.requests.submitted.id }), cross: 'ids', client: true },
  'requests.recipientOptions': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'requests.create': {
    input: (f, c) => ({
      clientId: c.client.id,
      title: `${f.marker} new request`,
      dueDate: '2099-03-31',
      recipientIds: [c.requests.recipientId],
      sections: [{ title: '', items: [{ key: 'pan', kind: 'short_text', label: 'PAN' }] }],
    }),
    cross: 'ids',
    client: true,
    // A's client, sent for B's project.
    mixed: [
      (a, b) => ({
        clientId: a.assigned.client.id,
        projectId: b.assigned.project.id,
        title: 'Mixed project request',
        dueDate: '2099-03-31',
        recipientIds: [a.assigned.requests.recipientId],
        sections: [{ title: '', items: [{ key: 'pan', kind: 'short_text', label: 'PAN' }] }],
      }),
    ],
  },
  'requests.updateDraft': {
    input: (f, c) => ({
      requestId: c.requests.draftToEdit.id,
      title: `${f.marker} edited draft`,
      dueDate: '2099-03-31',
      recipientIds: [c.requests.recipientId],
      sections: [{ title: '', items: [{ key: 'pan', kind: 'short_text', label: 'PAN' }] }],
    }),
    cross: 'ids',
    client: true,
  },
  'requests.send': { input: (_, c) => ({ requestId: c.requests.draft.id }), cross: 'ids', client: true },
  'requests.review': {
    input: (_, c) => ({
      requestId: c.requests.submitted.id,
      itemId: c.requests.submitted.textItem.id,
      decision: 'accepted',
    }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        requestId: a.assigned.requests.submitted.id,
        itemId: b.assigned.requests.submitted.textItem.id,
        decision: 'accepted',
      }),
    ],
  },
  'requests.complete': {
    input: (_, c) => ({ requestId: c.requests.toComplete.id }),
    cross: 'ids',
    client: true,
  },
  'requests.cancel': { input: (_, c) => ({ requestId: c.requests.toCancel.id }), cross: 'ids', client: true },
  'requests.sendBulk': {
    input: (f, c) => ({
      clientIds: [c.client.id],
      templateId: f.requestTemplates.template.id,
      dueDate: '2099-03-31',
    }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        clientIds: [a.assigned.client.id, b.assigned.client.id],
        templateId: a.requestTemplates.template.id,
        dueDate: '2099-03-31',
      }),
      (a, b) => ({
        clientIds: [a.assigned.client.id],
        templateId: b.requestTemplates.template.id,
        dueDate: '2099-03-31',
      }),
    ],
  },
  'requests.waiting': { input: () => ({}), cross: 'none', client: 'filter' },
  // Client messages (issue 38).
  'messages.list': { input: () => ({}), cross: 'none', client: 'filter' },
  'messages.unread': { input: () => undefined, cross: 'none' },
  'messages.get': { input: (_, c) => ({ threadId: c.messages.thread.id }), cross: 'ids', client: true },
  'messages.messages': { input: (_, c) => ({ threadId: c.messages.thread.id }), cross: 'ids', client: true },
  'messages.peopleOptions': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'messages.forwardingAddress': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'messages.create': {
    input: (f, c) => ({ clientId: c.client.id, subject: `${f.marker} new conversation`, body: 'Hello' }),
    cross: 'ids',
    client: true,
  },
  'messages.post': {
    input: (_, c) => ({ threadId: c.messages.thread.id, body: 'A reply from the matrix' }),
    cross: 'ids',
    client: true,
    // B's file in A's thread.
    mixed: [
      (a, b) => ({
        threadId: a.assigned.messages.thread.id,
        body: 'Mixed attachment',
        attachmentIds: [b.assigned.messages.attachment.documentId],
      }),
    ],
  },
  'messages.markRead': { input: (_, c) => ({ threadId: c.messages.thread.id }), cross: 'ids', client: true },
  'messages.update': {
    input: (f, c) => ({ threadId: c.messages.thread.id, assigneeId: f.staff.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ threadId: a.assigned.messages.thread.id, assigneeId: b.staff.id })],
  },
  'messages.addPeople': {
    input: (f, c) => ({ threadId: c.messages.thread.id, memberIds: [f.admin.id] }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ threadId: a.assigned.messages.thread.id, memberIds: [b.admin.id] })],
  },
  'messages.held': { input: () => undefined, cross: 'none' },
  'messages.discardHeld': { input: (f) => ({ heldId: f.heldMail.id }), cross: 'ids' },
  'messages.saveAttachment': {
    input: (_, c) => ({ documentId: c.messages.attachment.documentId, folderId: c.folder.id }),
    cross: 'ids',
    client: true,
    // A's message file into B's folder, and B's into A's.
    mixed: [
      (a, b) => ({ documentId: a.assigned.messages.attachment.documentId, folderId: b.assigned.folder.id }),
      (a, b) => ({ documentId: b.assigned.messages.attachment.documentId, folderId: a.assigned.folder.id }),
    ],
  },
  'messages.releaseHeld': {
    input: (_, c) => ({ heldId: c.messages.held.id, threadId: c.messages.thread.id }),
    cross: 'ids',
    client: true,
    // A's held mail into B's conversation, or a new one of B's client.
    mixed: [
      (a, b) => ({ heldId: a.assigned.messages.heldMixed.id, threadId: b.assigned.messages.thread.id }),
      (a, b) => ({ heldId: a.assigned.messages.heldMixed.id, clientId: b.assigned.client.id }),
    ],
  },

  // Proposals and engagement letters (issue 37).
  'proposals.templates.list': { input: () => undefined, cross: 'none' },
  'proposals.templates.get': {
    input: (f) => ({ templateId: f.proposalTemplates.template.id }),
    cross: 'ids',
  },
  'proposals.templates.save': {
    input: (f) => ({ ...proposalContent(f), templateId: f.proposalTemplates.template.id }),
    cross: 'ids',
    // B's service in A's template.
    mixed: [(a, b) => ({ ...proposalContent({ marker: a.marker, service: b.service }) })],
  },
  'proposals.templates.delete': {
    input: (f) => ({ templateId: f.proposalTemplates.doomed.id }),
    cross: 'ids',
  },
  'proposals.serviceOptions': { input: () => undefined, cross: 'none' },
  'proposals.requestTemplateOptions': { input: () => undefined, cross: 'none' },
  'proposals.clientOptions': { input: () => ({}), cross: 'none', client: 'filter' },
  'proposals.list': { input: () => ({}), cross: 'none', client: 'filter' },
  'proposals.get': { input: (_, c) => ({ proposalId: c.proposals.draft.id }), cross: 'ids', client: true },
  'proposals.fromTemplate': {
    input: (f, c) => ({ clientId: c.client.id, templateId: f.proposalTemplates.template.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ clientId: a.assigned.client.id, templateId: b.proposalTemplates.template.id })],
  },
  'proposals.create': {
    input: (f, c) => ({ ...proposalFields(f), clientId: c.client.id }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        ...proposalFields({ marker: a.marker, service: b.service }),
        clientId: a.assigned.client.id,
      }),
    ],
  },
  'proposals.update': {
    input: (f, c) => ({ ...proposalFields(f), proposalId: c.proposals.draft.id }),
    cross: 'ids',
    client: true,
  },
  'proposals.send': { input: (_, c) => ({ proposalId: c.proposals.toSend.id }), cross: 'ids', client: true },
  'proposals.signerOptions': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'proposals.requestSignature': {
    input: (f, c) => ({
      documentId: c.pdfDocument.id,
      title: `${f.marker} matrix signature request`,
      expiresOn: '2099-12-31',
      signers: [{ name: 'Matrix Signer', email: `signer-${randomUUID()}@example.test` }],
    }),
    cross: 'ids',
    client: true,
  },
  'proposals.withdraw': {
    input: (_, c) => ({ proposalId: c.proposals.toWithdraw.id }),
    cross: 'ids',
    client: true,
  },
  'proposals.certificate': { input: () => undefined, cross: 'none' },
  // Not a PKCS#12 file: the domain's refusal (a real one is the proposals' seal test's).
  'proposals.uploadCertificate': {
    input: () => ({ fileBase64: 'AAAA', password: '' }),
    own: 'BAD_REQUEST',
    cross: 'none',
  },
  // The signer's side: the link's secret is the key; a made-up link is "not found" for everyone.
  'signing.open': { kind: 'public', input: signerLink, expected: 'NOT_FOUND' },
  'signing.requestCode': { kind: 'public', input: signerLink, expected: 'NOT_FOUND' },
  'signing.verifyCode': { kind: 'public', input: { ...signerLink, code: '123456' }, expected: 'NOT_FOUND' },
  'signing.view': { kind: 'public', input: { ...signerLink, session: UNKNOWN_KEY }, expected: 'NOT_FOUND' },
  'signing.sign': {
    kind: 'public',
    input: {
      ...signerLink,
      session: UNKNOWN_KEY,
      packageIndex: 0,
      signature: { kind: 'typed', text: 'Matrix Signer' },
      consent: true,
    },
    expected: 'NOT_FOUND',
  },
  'signing.decline': {
    kind: 'public',
    input: { ...signerLink, session: UNKNOWN_KEY, reason: 'Not for us' },
    expected: 'NOT_FOUND',
  },
  'requests.clientSummary': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'requests.projectTemplate': { input: (f) => ({ projectTemplateId: f.template.id }), cross: 'ids' },
  'requests.setProjectTemplate': {
    input: (f) => ({
      projectTemplateId: f.template.id,
      requestTemplateId: f.requestTemplates.template.id,
      leadDays: 30,
      dueDaysBefore: 10,
    }),
    cross: 'ids',
    mixed: [
      (a, b) => ({
        projectTemplateId: a.template.id,
        requestTemplateId: b.requestTemplates.template.id,
        leadDays: 30,
        dueDaysBefore: 10,
      }),
    ],
  },
  'requests.chaseSettings': { input: () => undefined, cross: 'none' },
  'requests.updateChaseSettings': {
    input: () => ({ schedule: { beforeDays: [7, 1], onDue: true, everyDays: 3 }, flagAfter: 3 }),
    cross: 'none',
  },
  'requests.updateChase': {
    input: (_, c) => ({
      requestId: c.requests.draft.id,
      schedule: { beforeDays: [5], onDue: true, everyDays: 2 },
      paused: true,
    }),
    cross: 'ids',
    client: true,
  },

  'apiKeys.create': { input: (f) => ({ name: `${f.marker} new key`, roleId: f.role.id }), cross: 'none' },
  'apiKeys.list': { input: () => ({}), cross: 'none' },
  'apiKeys.revoke': { input: (f) => ({ apiKeyId: f.apiKeys.doomed.id }), cross: 'ids' },

  'webhooks.create': {
    input: () => ({ url: 'https://93.184.216.34/new', events: ['task.completed'] }),
    cross: 'none',
  },
  'webhooks.delete': { input: (f) => ({ subscriptionId: f.webhooks.doomed.id }), cross: 'ids' },
  'webhooks.deliveries': {
    input: (f) => ({ subscriptionId: f.webhooks.webhook.id, page: 1, pageSize: 20 }),
    cross: 'ids',
  },
  'webhooks.list': { input: () => ({}), cross: 'none' },
  'webhooks.replay': { input: (f) => ({ deliveryId: f.webhooks.delivery.deliveryId }), cross: 'ids' },
  'webhooks.test': { input: (f) => ({ subscriptionId: f.webhooks.webhook.id }), cross: 'ids' },
  'webhooks.update': {
    input: (f) => ({
      subscriptionId: f.webhooks.webhook.id,
      url: 'https://93.184.216.34/changed',
      events: ['client.updated', 'task.completed'],
      paused: false,
    }),
    cross: 'ids',
  },

  'roles.create': {
    input: (f) => ({
      name: `${f.marker} new role ${randomUUID().slice(0, 6)}`,
      permissions: ['clients.view'],
    }),
    cross: 'none',
  },
  'roles.delete': { input: (f) => ({ id: f.doomedRole.id }), cross: 'ids' },
  'roles.get': { input: (f) => ({ id: f.role.id }), cross: 'ids' },
  'roles.list': { input: () => ({}), cross: 'none' },
  'roles.update': {
    input: (f) => ({
      id: f.role.id,
      name: `${f.marker} reviewer`,
      permissions: ['tasks.view', 'clients.view'],
    }),
    cross: 'ids',
  },

  // The owner cannot delete their account (the others' deletion: features/security/security.test.ts).
  'firmExport.list': { input: () => undefined, cross: 'none' },
  'firmExport.start': { input: () => ({ includeVault: false }), cross: 'none' },
  'links.issue': {
    input: (_, c) => ({ path: `/api/documents/${c.document.id}/download` }),
    cross: 'ids',
    client: true,
  },
  'security.deleteAccount': { input: () => ({ password: 'Not#theRight1' }), own: 'FORBIDDEN', cross: 'none' },
  'security.signIns': { input: () => ({}), cross: 'none' },
  // The matrix's firms are on the first catalogue version: the owner accepts the current one.
  'statutory.acceptCatalogueUpdate': { input: () => ({ version: CATALOGUE_VERSION }), cross: 'none' },
  'statutory.applyExtension': { input: (f) => ({ extensionId: f.extension.id }), cross: 'ids' },
  'statutory.catalogue': { input: () => undefined, cross: 'none' },
  'statutory.catalogueUpdate': { input: () => undefined, cross: 'none' },
  'statutory.clientFilings': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'statutory.createExtension': {
    input: () => ({ filingCode: 'IN.GSTR1.M', periodKey: '2026-04', dueDate: '2026-05-31', stateCode: '27' }),
    cross: 'none',
  },
  'statutory.engage': {
    input: (_, c) => ({
      items: [{ clientId: c.client.id, filingCode: 'IN.GSTR3B.M' }],
      startDate: '2025-06-01',
    }),
    cross: 'ids',
    client: true,
  },
  'statutory.extensions': { input: () => undefined, cross: 'none' },
  'statutory.gaps': { input: () => ({}), cross: 'none', client: 'filter' },
  'statutory.previewExtension': { input: (f) => ({ extensionId: f.extension.id }), cross: 'ids' },
  'statutory.registrations': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'statutory.setRegistrations': {
    input: (_, c) => ({
      clientId: c.client.id,
      data: { pan: 'AAPFU0939F', gstin: '27AAPFU0939F1ZV', gstScheme: 'regular' },
    }),
    cross: 'ids',
    client: true,
  },
  'services.archive': { input: (f) => ({ serviceId: f.archivableService.id }), cross: 'ids' },
  'services.clients': { input: (f) => ({ serviceId: f.service.id }), cross: 'ids', client: 'filter' },
  'services.create': {
    input: (f) => ({ name: `${f.marker} new service`, code: code(), frequency: 'quarterly' }),
    cross: 'none',
  },
  'services.get': { input: (f) => ({ serviceId: f.service.id }), cross: 'ids' },
  'services.list': { input: () => ({}), cross: 'none' },
  'services.restore': { input: (f) => ({ serviceId: f.archivableService.id }), cross: 'ids' },
  'services.update': {
    input: (f) => ({
      serviceId: f.service.id,
      name: `${f.marker} GST`,
      code: serviceCode(f),
      frequency: 'monthly',
    }),
    cross: 'ids',
    mixed: [
      (a, b) => ({
        serviceId: a.service.id,
        name: 'x',
        code: serviceCode(a),
        frequency: 'monthly',
        projectTemplateId: b.template.id,
      }),
    ],
  },

  'settings.get': { input: () => undefined, cross: 'none' },
  'settings.mfaPolicy': { input: () => undefined, cross: 'none' },
  'settings.updateMfaPolicy': {
    input: (f) => ({ policy: 'roles', roleIds: [f.role.id], graceDays: 30 }),
    cross: 'ids',
  },
  'settings.removeLogo': { input: () => undefined, cross: 'none' },
  'settings.update': {
    input: (f) => ({
      name: `${f.marker} & Co`,
      legalName: null,
      addressLine1: null,
      addressLine2: null,
      city: null,
      region: null,
      postalCode: null,
      ...region,
      taxIds: [],
    }),
    cross: 'none',
  },
  'settings.uploadLogo': { input: () => ({ dataBase64: PNG.toString('base64') }), cross: 'none' },

  'systemLog.facets': { input: () => undefined, cross: 'none' },
  'systemLog.list': { input: (f) => ({ actorId: f.owner.id }), cross: 'filter' },

  'tasks.attachments.attach': {
    input: (_, c) => ({ taskId: c.task.id, documentId: c.document.id }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({ taskId: a.assigned.task.id, documentId: b.assigned.document.id }),
      (a, b) => ({ taskId: b.assigned.task.id, documentId: a.assigned.document.id }),
    ],
  },
  'tasks.attachments.candidates': { input: (_, c) => ({ taskId: c.task.id }), cross: 'ids', client: true },
  'tasks.attachments.detach': {
    input: (_, c) => ({ taskId: c.task.id, documentId: c.attached.id }),
    cross: 'ids',
    client: true,
  },
  'tasks.attachments.list': { input: (_, c) => ({ taskId: c.task.id }), cross: 'ids', client: true },
  'tasks.bulk': {
    input: (_, c) => ({ ids: [c.task.id], action: { kind: 'setStatus', status: 'IN_PROGRESS' } }),
    cross: 'filter',
    client: 'filter',
    mixed: [(a, b) => ({ ids: [a.assigned.task.id], action: { kind: 'assign', memberId: b.owner.id } })],
  },
  'tasks.checklist.add': {
    input: (f, c) => ({ taskId: c.task.id, text: `${f.marker} new item` }),
    cross: 'ids',
    client: true,
  },
  'tasks.checklist.remove': {
    input: (_, c) => ({ taskId: c.task.id, itemId: c.checklist[1]?.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ taskId: a.assigned.task.id, itemId: b.assigned.checklist[0]?.id })],
  },
  'tasks.checklist.toggle': {
    input: (_, c) => ({ taskId: c.task.id, itemId: c.checklist[0]?.id, done: true }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ taskId: a.assigned.task.id, itemId: b.assigned.checklist[0]?.id, done: true })],
  },
  'tasks.comments.add': {
    input: (f, c) => ({ taskId: c.task.id, body: `${f.marker} comment` }),
    cross: 'ids',
    client: true,
    // Mentioning another firm's member: the comment is saved, the mention dropped, B notified of nothing.
    mixed: [
      { input: (a, b) => ({ taskId: a.assigned.task.id, body: 'x', mentions: [b.owner.id] }), answer: 'ok' },
    ],
  },
  'tasks.comments.list': { input: (_, c) => ({ taskId: c.task.id }), cross: 'ids', client: true },
  'tasks.create': {
    input: (f, c) => ({ title: `${f.marker} new task`, clientId: c.client.id }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({ title: 'x', clientId: a.assigned.client.id, projectId: b.assigned.project.id }),
      (a, b) => ({ title: 'x', clientId: a.assigned.client.id, assigneeIds: [b.owner.id] }),
      (a, b) => ({ title: 'x', clientId: a.assigned.client.id, reviewerId: b.owner.id }),
      (_, b) => ({ title: 'x', projectId: b.assigned.project.id }),
    ],
  },
  'tasks.delete': { input: (_, c) => ({ taskId: c.doomedTask.id }), cross: 'ids', client: true },
  'tasks.get': { input: (_, c) => ({ taskId: c.task.id }), cross: 'ids', client: true },
  'tasks.list': { input: (_, c) => ({ clientId: c.client.id }), cross: 'filter', client: 'filter' },
  'tasks.options': { input: () => undefined, cross: 'none' },
  'tasks.projects': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'tasks.reorder': {
    input: (_, c) => ({ taskId: c.task3.id, order: [c.task3.id, c.task2.id] }),
    cross: 'ids',
    client: true,
    // Another firm's card in the column's order: the board "has changed" (CONFLICT), nothing moves.
    mixed: [
      {
        input: (a, b) => ({ taskId: a.assigned.task3.id, order: [a.assigned.task3.id, b.assigned.task2.id] }),
        answer: 'CONFLICT',
      },
    ],
  },
  'tasks.setStatus': {
    input: (_, c) => ({ taskId: c.task.id, status: 'IN_REVIEW' }),
    cross: 'ids',
    client: true,
  },
  'tasks.settings': { input: () => undefined, cross: 'none' },
  'tasks.update': {
    input: (f, c) => ({ taskId: c.task.id, patch: { title: `${f.marker} task` } }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({ taskId: a.assigned.task.id, patch: { clientId: b.assigned.client.id } }),
      (a, b) => ({ taskId: a.assigned.task.id, patch: { projectId: b.assigned.project.id } }),
      (a, b) => ({ taskId: a.assigned.task.id, patch: { assigneeIds: [b.owner.id] } }),
      (a, b) => ({ taskId: a.assigned.task.id, patch: { reviewerId: b.owner.id } }),
    ],
  },
  'tasks.updateSettings': { input: () => ({ requireChecklistToComplete: false }), cross: 'none' },

  'team.changeRole': {
    input: (f) => ({ memberId: f.manager.id, roleId: f.role.id }),
    cross: 'ids',
    mixed: [(a, b) => ({ memberId: a.manager.id, roleId: b.role.id })],
  },
  'team.deactivate': { input: (f) => ({ memberId: f.manager.id }), cross: 'ids' },
  'team.invite': {
    input: (f) => ({ email: email(), roleId: f.role.id }),
    cross: 'ids',
  },
  'team.invites': { input: () => ({}), cross: 'none' },
  'team.list': { input: () => ({}), cross: 'none' },
  'team.reactivate': { input: (f) => ({ memberId: f.manager.id }), cross: 'ids' },
  // The seeded manager has no sign-in in the embedded provider: the domain's refusal.
  'team.resetMfa': { input: (f) => ({ memberId: f.manager.id }), own: 'BAD_REQUEST', cross: 'ids' },
  'team.resendInvite': { input: (f) => ({ inviteId: f.memberInvite.id }), cross: 'ids' },
  'team.revokeInvite': { input: (f) => ({ inviteId: f.doomedInvite.id }), cross: 'ids' },
  'team.roles': { input: () => undefined, cross: 'none' },
  // To oneself: the domain's refusal. To another firm's member: NOT_FOUND, nothing transferred.
  'team.transferOwnership': { input: (f) => ({ memberId: f.owner.id }), own: 'BAD_REQUEST', cross: 'ids' },

  'timesheets.approve': {
    input: (f) => ({ weekStart: '2026-03-02', memberIds: [f.staff.id] }),
    own: 'PRECONDITION_FAILED',
    cross: 'ids',
  },
  'timesheets.create': {
    input: (_, c) => ({ date: '2026-03-05', minutes: '1:30', clientId: c.client.id }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        date: '2026-03-05',
        minutes: 60,
        clientId: a.assigned.client.id,
        taskId: b.assigned.task.id,
      }),
    ],
  },
  'timesheets.delete': { input: (_, c) => ({ entryId: c.doomedTimeEntry.id }), cross: 'ids' },
  'timesheets.get': { input: (_, c) => ({ entryId: c.timeEntry.id }), cross: 'ids', client: true },
  'timesheets.lock': { input: () => undefined, cross: 'none' },
  'timesheets.approvalSettings': { input: () => undefined, cross: 'none' },
  'timesheets.setApprovalSettings': {
    input: (f) => ({ dailyLimitMinutes: '10', approversApproverId: f.owner.id }),
    cross: 'ids',
  },
  'timesheets.memberWeek': {
    input: (f) => ({ weekStart: '2026-03-02', memberId: f.staff.id }),
    cross: 'ids',
  },
  'timesheets.myWeek': { input: () => ({ weekStart: '2026-03-02' }), cross: 'none' },
  'timesheets.rates.clients': { input: () => ({}), cross: 'none', client: 'filter' },
  'timesheets.rates.members': { input: () => ({}), cross: 'none' },
  'timesheets.rates.services': { input: () => ({}), cross: 'none' },
  'timesheets.rates.set': {
    input: (_, c) => ({ kind: 'client', refId: c.client.id, rate: 150000 }),
    cross: 'ids',
    client: true,
    mixed: [
      (_, b) => ({ kind: 'cost', refId: b.staff.id, rate: 80000 }),
      (_, b) => ({ kind: 'service', refId: b.service.id, rate: 80000 }),
      (_, b) => ({ kind: 'task', refId: b.assigned.task.id, rate: 80000 }),
    ],
  },
  'timesheets.rates.task': { input: (_, c) => ({ taskId: c.task.id }), cross: 'ids', client: true },
  'timesheets.reject': {
    input: (f) => ({ weekStart: '2026-03-02', memberId: f.staff.id, comment: 'Missing Friday' }),
    own: 'PRECONDITION_FAILED',
    cross: 'ids',
  },
  'timesheets.remind': { input: () => ({ weekStart: '2026-03-02' }), cross: 'none' },
  'timesheets.rowOptions': { input: (_, c) => ({ clientId: c.client.id }), cross: 'ids', client: true },
  'timesheets.setCell': {
    input: (_, c) => ({ date: '2026-03-06', minutes: '2', clientId: c.client.id }),
    cross: 'ids',
    client: true,
  },
  'timesheets.setLock': { input: () => ({ lockDate: '2020-01-31', graceDays: 3 }), cross: 'none' },
  'timesheets.submitWeek': { input: () => ({ weekStart: '2026-03-09' }), cross: 'none' },
  'timesheets.teamWeek': { input: () => ({ weekStart: '2026-03-02' }), cross: 'none' },
  'timesheets.timer.current': { input: () => undefined, cross: 'none' },
  'timesheets.timer.discard': { input: (_, c) => ({ timerId: c.doomedTimer.id }), cross: 'ids' },
  'timesheets.timer.finish': {
    input: (_, c) => ({ timerId: c.timer.id, endedAt: new Date('2026-03-17T10:30:00Z') }),
    cross: 'ids',
  },
  'timesheets.timer.start': {
    input: (_, c) => ({ taskId: c.task.id }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ clientId: a.assigned.client.id, taskId: b.assigned.task.id })],
  },
  // After timer.start above (rows run in order): the owner's running timer becomes an entry.
  'timesheets.timer.stop': { input: () => undefined, cross: 'none' },
  'timesheets.update': {
    input: (_, c) => ({ entryId: c.timeEntry.id, date: '2026-03-03', minutes: 120, clientId: c.client.id }),
    cross: 'ids',
    client: true,
    mixed: [
      (a, b) => ({
        entryId: a.assigned.timeEntry.id,
        date: '2026-03-03',
        minutes: 60,
        clientId: b.assigned.client.id,
      }),
    ],
  },

  'vault.clients': { input: (f) => ({ search: f.marker }), cross: 'none', client: 'filter' },
  'vault.create': {
    input: (f, c) => ({ title: `${f.marker} new login`, clientId: c.client.id, password: 'pw' }),
    cross: 'ids',
    client: true,
  },
  'vault.delete': { input: (_, c) => ({ id: c.doomedVault.id }), cross: 'ids', client: true },
  'vault.facets': { input: () => undefined, cross: 'none' },
  'vault.get': { input: (_, c) => ({ id: c.vault.id }), cross: 'ids', client: true },
  'vault.list': { input: (_, c) => ({ client: c.client.id }), cross: 'filter', client: 'filter' },
  'vault.reveal': { input: (_, c) => ({ id: c.vault.id }), cross: 'ids', client: true },
  'vault.update': {
    input: (f, c) => ({ id: c.vault.id, data: { title: `${f.marker} bank login`, clientId: c.client.id } }),
    cross: 'ids',
    client: true,
    mixed: [(a, b) => ({ id: a.assigned.vault.id, data: { title: 'x', clientId: b.assigned.client.id } })],
  },
};

type TProcedureDef = { _def: { type: 'query' | 'mutation' | 'subscription' } };
const procedures = appRouter._def.procedures as unknown as Record<string, TProcedureDef>;
const STAFF_PROCEDURES = Object.keys(procedures)
  .filter((p) => !p.startsWith('clientPortal'))
  .sort();

type TProcedureClient = Record<string, unknown>;
function call(client: unknown, procedurePath: string, input: unknown): Promise<unknown> {
  let node = client as TProcedureClient;
  for (const part of procedurePath.split('.')) node = node[part] as TProcedureClient;
  const procedure = node as unknown as {
    query(i: unknown): Promise<unknown>;
    mutate(i: unknown): Promise<unknown>;
  };
  if (!procedure) throw new Error(`no client for ${procedurePath}`);
  return procedures[procedurePath]?._def.type === 'query' ? procedure.query(input) : procedure.mutate(input);
}

/** 'ok' and the answer, or the error's code. */
async function outcome(p: Promise<unknown>): Promise<{ code: string; answer?: unknown; message?: string }> {
  try {
    return { code: 'ok', answer: await p };
  } catch (error) {
    const e = error as { data?: { code?: string }; message?: string };
    return { code: e.data?.code ?? `not a tRPC error: ${String(error)}`, message: e.message };
  }
}

let t: TTestApp;
let dataDir: string;
let A: TF;
let B: TF;
let bIds: Set<string>;
let unassignedIds: Set<string>;

const uuids = (value: unknown) =>
  new Set(
    JSON.stringify(value ?? null).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g),
  );

/** B's ids or name marker in an answer: what another firm's caller must never see. */
function leaksOf(answer: unknown, ids: Set<string>, marker: string) {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer ?? null);
  const found = [...uuids(text)].filter((id) => ids.has(id));
  if (text.includes(marker)) found.push(`the name marker "${marker}"`);
  return found;
}

/** Which of a firm's tables differ between two snapshots. */
const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'staff-matrix-'));
  t = await createTestApp({ DATA_DIR: dataDir, VAULT_KEYS: `k1:${randomBytes(32).toString('base64')}` });
  A = await seedTenancyFirm(t, 'Alphaq');
  B = await seedTenancyFirm(t, 'Bravoq');
  bIds = idsIn(await snapshotFirm(t, B.org.id));
  // The unassigned client's own records (not the members and firm records they point at).
  const { assigned: _a, unassigned: _u, ...firmLevel } = A;
  const shared = uuids(firmLevel);
  unassignedIds = new Set([...uuids(A.unassigned)].filter((id) => !shared.has(id)));
  // Every procedure's records, billing's included: a minute is not enough on a loaded machine.
}, 240_000);
afterAll(async () => {
  await t?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

const CASES = ['own', 'crossing', 'assigned', 'portal', 'none'] as const;
type TCase = (typeof CASES)[number];

/** The own-firm call's answer, kept for the crossing case of a row whose input names nothing of B's. */
const ownCalls = new Map<string, { changed: string[]; leaks: string[] }>();

async function staffCase(procedurePath: string, row: TStaffRow, kase: TCase) {
  const owner = t.client(A.owner.token);
  switch (kase) {
    case 'own': {
      const before = await snapshotFirm(t, B.org.id);
      const got = await outcome(call(owner, procedurePath, row.input(A, A.assigned)));
      const after = await snapshotFirm(t, B.org.id);
      ownCalls.set(procedurePath, {
        changed: changedTables(before, after),
        leaks: leaksOf(got.answer, bIds, B.marker),
      });
      expect(got.code, got.message).toBe(row.own ?? 'ok');
      return;
    }
    case 'crossing': {
      if (row.cross === 'none') {
        const own = ownCalls.get(procedurePath);
        expect(own, 'the own-firm case did not run').toBeDefined();
        expect(own?.changed, 'firm B’s rows changed').toEqual([]);
        expect(own?.leaks, 'the answer shows firm B’s data').toEqual([]);
        return;
      }
      const inputs = [
        { input: row.input(B, B.assigned), answer: undefined },
        ...(row.mixed ?? []).map((m) =>
          typeof m === 'function'
            ? { input: m(A, B), answer: undefined }
            : { input: m.input(A, B), answer: m.answer },
        ),
      ];
      for (const [i, { input, answer }] of inputs.entries()) {
        const beforeB = await snapshotFirm(t, B.org.id);
        const beforeA = i > 0 && answer !== 'ok' ? await snapshotFirm(t, A.org.id) : undefined;
        const got = await outcome(call(owner, procedurePath, input));
        const label = i === 0 ? 'B’s ids' : `mixed input ${i}: ${JSON.stringify(input)}`;
        expect(
          changedTables(beforeB, await snapshotFirm(t, B.org.id)),
          `${label}: firm B’s rows changed`,
        ).toEqual([]);
        if (beforeA) {
          expect(
            changedTables(beforeA, await snapshotFirm(t, A.org.id)),
            `${label}: firm A’s rows changed`,
          ).toEqual([]);
        }
        if (answer) {
          expect(got.code, `${label}: ${got.message}`).toBe(answer);
          expect(leaksOf(got.answer, bIds, B.marker), `${label}: the answer shows firm B’s data`).toEqual([]);
        } else if (i === 0 && row.cross === 'filter' && got.code === 'ok') {
          expect(leaksOf(got.answer, bIds, B.marker), `${label}: the answer shows firm B’s data`).toEqual([]);
        } else if (i === 0) {
          expect(got.code, `${label}: ${got.message}`).toBe('NOT_FOUND');
        } else {
          expect(['NOT_FOUND', 'BAD_REQUEST'], `${label}: ${got.code} ${got.message}`).toContain(got.code);
        }
      }
      return;
    }
    case 'assigned': {
      const limited = t.client(A.limited.token);
      const before = await snapshotFirm(t, A.org.id);
      const got = await outcome(call(limited, procedurePath, row.input(A, A.unassigned)));
      // A bulk action over rows the caller cannot see logs that it changed none of them.
      const changed = changedTables(before, await snapshotFirm(t, A.org.id)).filter(
        (table) => !(row.client === 'filter' && table === 'system_log'),
      );
      expect(changed, 'firm A’s rows changed').toEqual([]);
      if (row.client === 'filter' && got.code === 'ok') {
        expect(
          leaksOf(got.answer, unassignedIds, `${A.marker} unassigned`),
          'shows the unassigned client',
        ).toEqual([]);
      } else {
        expect(got.code, got.message).toBe('NOT_FOUND');
      }
      return;
    }
    case 'portal':
    case 'none': {
      const client = kase === 'portal' ? A.portal.client : portalClient(t);
      const got = await outcome(call(client, procedurePath, row.input(A, A.assigned)));
      expect(got.code, got.message).toBe('UNAUTHORIZED');
      return;
    }
  }
}

async function procedureCase(procedurePath: string, kase: TCase) {
  const row = ROWS[procedurePath];
  if (!row) throw new Error(`add a row for ${procedurePath} to the staff matrix`);
  if (row.kind === 'public') {
    // Never with a staff token: auth.logout would end the matrix's own sign-in.
    if (kase !== 'none' && kase !== 'portal') return;
    const client = kase === 'portal' ? A.portal.client : portalClient(t);
    const got = await outcome(call(client, procedurePath, row.input));
    expect(got.code, got.message).toBe(row.expected);
    return;
  }
  if (row.kind === 'identified') {
    if (kase === 'own') {
      const got = await outcome(call(t.client(A.owner.token), procedurePath, row.input(A)));
      expect(got.code, got.message).toBe(row.own);
    } else if (kase === 'crossing') {
      // Nothing of another firm in the input; the call must change nothing of B's either.
      const before = await snapshotFirm(t, B.org.id);
      const got = await outcome(call(t.client(A.owner.token), procedurePath, row.input(A)));
      expect(changedTables(before, await snapshotFirm(t, B.org.id))).toEqual([]);
      expect(leaksOf(got.answer, bIds, B.marker)).toEqual([]);
    } else if (kase === 'portal' || kase === 'none') {
      const client = kase === 'portal' ? A.portal.client : portalClient(t);
      const got = await outcome(call(client, procedurePath, row.input(A)));
      expect(got.code, got.message).toBe('UNAUTHORIZED');
    }
    return;
  }
  if (kase === 'assigned' && !row.client) return;
  await staffCase(procedurePath, row, kase);
}

describe('staff procedure matrix', () => {
  it('has a row for every staff procedure in the router, and none for one that is gone', () => {
    expect(STAFF_PROCEDURES.length).toBeGreaterThan(100);
    expect(STAFF_PROCEDURES.filter((p) => !ROWS[p]).map((p) => `add a row for ${p}`)).toEqual([]);
    expect(
      Object.keys(ROWS)
        .filter((p) => !STAFF_PROCEDURES.includes(p))
        .map((p) => `remove the row for ${p}: no such procedure`),
    ).toEqual([]);
  });

  describe.each(STAFF_PROCEDURES)('%s', (procedurePath) => {
    it.each(CASES)('%s', (kase) => procedureCase(procedurePath, kase));
  });
});

// ---------------------------------------------------------------------------------------------------
// Plain HTTP routes.

type THttpAnswer = { status: number; text: string };
type TRequest = { path: string; method?: string; body?: () => BodyInit; headers?: Record<string, string> };

type TRouteRow =
  /** A staff route: authenticated by the Bearer token as a staff procedure is. */
  | {
      kind: 'staff';
      request: (f: TF, c: TC) => TRequest;
      own: number;
      cross: 'ids' | 'none';
      client?: true;
    }
  /** A client-portal route: the portal session cookie only. */
  | { kind: 'portal'; request: (f: TF, c: TC) => TRequest; own: number }
  /** No session needed. */
  | { kind: 'public'; request: (f: TF) => TRequest; expected: number }
  /**
   * The public API (/api/v1): an API key is the credential. own: firm A's owner key on A's records;
   * crossing: that key on B's; assigned: the key A's limited member made, on the unassigned client;
   * portal, none: a portal cookie, a staff token or nothing → 401.
   */
  | { kind: 'api'; request: (f: TF, c: TC) => TRequest; own: number; cross: 'ids' | 'none'; client?: true }
  /** The tRPC adapter: its procedures are the matrix above. */
  | { kind: 'trpc' };

const jsonBody = (value: unknown) => ({
  body: () => JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

const uploadBody = (name: string, bytes: Uint8Array | string) => () => {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart]), name);
  return form;
};

const ROUTE_ROWS: Record<string, TRouteRow> = {
  // The public API (issue 40): each operation is a procedure above, called with a key.
  'GET /api/v1/openapi.json': {
    kind: 'public',
    request: () => ({ path: '/api/v1/openapi.json' }),
    expected: 200,
  },
  'GET /api/v1/docs': { kind: 'public', request: () => ({ path: '/api/v1/docs' }), expected: 200 },
  'ALL /api/v1/*': { kind: 'public', request: () => ({ path: '/api/v1/nothing' }), expected: 404 },
  'GET /api/v1/documents': {
    kind: 'api',
    request: () => ({ path: '/api/v1/documents' }),
    own: 200,
    cross: 'none',
  },
  'POST /api/v1/documents': {
    kind: 'api',
    request: (f, c) => ({
      path: `/api/v1/documents?folderId=${c.folder.id}`,
      method: 'POST',
      body: uploadBody(`${f.marker} api upload.txt`, 'hello'),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  // The raw-body upload: the same upload path, the file as the body.
  'PUT /api/v1/documents': {
    kind: 'api',
    request: (f, c) => ({
      path: `/api/v1/documents?folderId=${c.folder.id}&name=${encodeURIComponent(`${f.marker} raw upload.txt`)}`,
      method: 'PUT',
      body: () => 'hello',
      headers: { 'content-type': 'text/plain' },
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/documents/:id': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/documents/${c.document.id}` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/documents/:id/content': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/documents/${c.document.id}/content` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/clients': {
    kind: 'api',
    request: () => ({ path: '/api/v1/clients' }),
    own: 200,
    cross: 'none',
  },
  'POST /api/v1/clients': {
    kind: 'api',
    request: (f) => ({
      path: '/api/v1/clients',
      method: 'POST',
      ...jsonBody({ code: code(), name: `${f.marker} api client` }),
    }),
    own: 201,
    cross: 'none',
  },
  'GET /api/v1/clients/:id': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/clients/${c.client.id}` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'PUT /api/v1/clients/:id': {
    kind: 'api',
    request: (_, c) => ({
      path: `/api/v1/clients/${c.client.id}`,
      method: 'PUT',
      ...jsonBody({ code: c.client.code, name: c.client.name }),
    }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/clients/:id/contacts': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/clients/${c.client.id}/contacts` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'POST /api/v1/clients/:id/contacts': {
    kind: 'api',
    request: (f, c) => ({
      path: `/api/v1/clients/${c.client.id}/contacts`,
      method: 'POST',
      ...jsonBody({ email: email(), name: `${f.marker} api contact`, phone: '' }),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/clients/:id/engagements': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/clients/${c.client.id}/engagements` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'POST /api/v1/clients/:id/engagements': {
    kind: 'api',
    request: (f, c) => ({
      path: `/api/v1/clients/${c.client.id}/engagements`,
      method: 'POST',
      ...jsonBody({ serviceId: f.service.id, startDate: '2025-06-01' }),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/engagements/:id': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/engagements/${c.engagement.id}` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'PUT /api/v1/engagements/:id': {
    kind: 'api',
    request: (_, c) => ({
      path: `/api/v1/engagements/${c.engagement.id}`,
      method: 'PUT',
      ...jsonBody({ startDate: '2025-04-01', endDate: '2099-03-31' }),
    }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/services': {
    kind: 'api',
    request: () => ({ path: '/api/v1/services' }),
    own: 200,
    cross: 'none',
  },
  'POST /api/v1/services': {
    kind: 'api',
    request: (f) => ({
      path: '/api/v1/services',
      method: 'POST',
      ...jsonBody({ name: `${f.marker} api service`, code: code(), frequency: 'quarterly' }),
    }),
    own: 201,
    cross: 'none',
  },
  'GET /api/v1/services/:id': {
    kind: 'api',
    request: (f) => ({ path: `/api/v1/services/${f.service.id}` }),
    own: 200,
    cross: 'ids',
  },
  'PUT /api/v1/services/:id': {
    kind: 'api',
    request: (f) => ({
      path: `/api/v1/services/${f.service.id}`,
      method: 'PUT',
      ...jsonBody({ name: `${f.marker} GST`, code: serviceCode(f), frequency: 'monthly' }),
    }),
    own: 200,
    cross: 'ids',
  },
  'GET /api/v1/projects': {
    kind: 'api',
    request: () => ({ path: '/api/v1/projects' }),
    own: 200,
    cross: 'none',
  },
  'POST /api/v1/projects': {
    kind: 'api',
    request: (f, c) => ({
      path: '/api/v1/projects',
      method: 'POST',
      ...jsonBody({ clientId: c.client.id, name: `${f.marker} api project` }),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/projects/:id': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/projects/${c.project.id}` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'PUT /api/v1/projects/:id': {
    kind: 'api',
    request: (f, c) => ({
      path: `/api/v1/projects/${c.project.id}`,
      method: 'PUT',
      ...jsonBody({ name: `${f.marker} project`, dueDate: '2099-03-31' }),
    }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/tasks': { kind: 'api', request: () => ({ path: '/api/v1/tasks' }), own: 200, cross: 'none' },
  'POST /api/v1/tasks': {
    kind: 'api',
    request: (f, c) => ({
      path: '/api/v1/tasks',
      method: 'POST',
      ...jsonBody({ title: `${f.marker} api task`, clientId: c.client.id }),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/tasks/:id': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/tasks/${c.task.id}` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'PATCH /api/v1/tasks/:id': {
    kind: 'api',
    request: (f, c) => ({
      path: `/api/v1/tasks/${c.task.id}`,
      method: 'PATCH',
      ...jsonBody({ title: `${f.marker} task` }),
    }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'POST /api/v1/time-entries': {
    kind: 'api',
    request: (_, c) => ({
      path: '/api/v1/time-entries',
      method: 'POST',
      ...jsonBody({ date: '2026-03-05', minutes: 90, clientId: c.client.id }),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/time-entries/:id': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/time-entries/${c.timeEntry.id}` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'PUT /api/v1/time-entries/:id': {
    kind: 'api',
    request: (_, c) => ({
      path: `/api/v1/time-entries/${c.timeEntry.id}`,
      method: 'PUT',
      ...jsonBody({ date: '2026-03-03', minutes: 120, clientId: c.client.id }),
    }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/invoices': {
    kind: 'api',
    request: () => ({ path: '/api/v1/invoices' }),
    own: 200,
    cross: 'none',
  },
  'POST /api/v1/invoices': {
    kind: 'api',
    request: (_, c) => ({ path: '/api/v1/invoices', method: 'POST', ...jsonBody({ clientId: c.client.id }) }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/invoices/:id': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/invoices/${c.invoice.id}` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'PUT /api/v1/invoices/:id': {
    kind: 'api',
    request: (_, c) => ({
      path: `/api/v1/invoices/${c.billing.draft.id}`,
      method: 'PUT',
      ...jsonBody({ lines: [c.billing.line], notes: 'Matrix', terms: '' }),
    }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/payments': {
    kind: 'api',
    request: () => ({ path: '/api/v1/payments' }),
    own: 200,
    cross: 'none',
  },
  'POST /api/v1/payments': {
    kind: 'api',
    request: (_, c) => ({
      path: '/api/v1/payments',
      method: 'POST',
      ...jsonBody({ clientId: c.client.id, receivedOn: '2026-05-01', method: 'upi', amount: 500 }),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/v1/payments/:id': {
    kind: 'api',
    request: (_, c) => ({ path: `/api/v1/payments/${c.payment.id}` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'PATCH /api/v1/payments/:id': {
    kind: 'api',
    request: (_, c) => ({
      path: `/api/v1/payments/${c.payment.id}`,
      method: 'PATCH',
      ...jsonBody({ reference: 'UTR 99', notes: '', tdsSection: '194J', tdsCertificateReceived: true }),
    }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/broadcasts/unsubscribe/:token': {
    // The link in every broadcast: its own keyed-hash token is the key; a made-up one changes nothing.
    kind: 'public',
    request: () => ({ path: `/api/broadcasts/unsubscribe/${randomUUID()}.${'a'.repeat(32)}` }),
    expected: 404,
  },
  'POST /api/broadcasts/unsubscribe/:token': {
    kind: 'public',
    request: () => ({
      path: `/api/broadcasts/unsubscribe/${randomUUID()}.${'a'.repeat(32)}`,
      method: 'POST',
    }),
    expected: 404,
  },
  'GET /api/signing/:proposalId/:signerId/document': {
    // The signer's file: their link's secret and a live session are the key; made-up ones find nothing.
    kind: 'public',
    request: () => ({
      path: `/api/signing/${randomUUID()}/${randomUUID()}/document?t=${'a'.repeat(32)}&s=${'b'.repeat(32)}`,
    }),
    expected: 404,
  },
  'GET /api/health': { kind: 'public', request: () => ({ path: '/api/health' }), expected: 200 },
  'GET /api/ready': { kind: 'public', request: () => ({ path: '/api/ready' }), expected: 200 },
  'GET /api/config.js': { kind: 'public', request: () => ({ path: '/api/config.js' }), expected: 200 },
  'GET /api/orgs/:orgId/logo': {
    // Public on purpose (an <img> and the portal's sign-in page): the logo is no secret.
    kind: 'public',
    request: (f) => ({ path: `/api/orgs/${f.org.id}/logo` }),
    expected: 200,
  },
  'POST /api/idp': {
    kind: 'public',
    request: () => ({
      path: '/api/idp',
      method: 'POST',
      body: () => '{}',
      headers: { 'content-type': 'application/x-amz-json-1.1' },
    }),
    expected: 400,
  },
  'POST /api/idp/': {
    kind: 'public',
    request: () => ({
      path: '/api/idp/',
      method: 'POST',
      body: () => '{}',
      headers: { 'content-type': 'application/x-amz-json-1.1' },
    }),
    expected: 400,
  },
  'GET /api/idp/local-1_Practice/.well-known/jwks.json': {
    kind: 'public',
    request: () => ({ path: '/api/idp/local-1_Practice/.well-known/jwks.json' }),
    expected: 200,
  },
  'GET /api/idp/local-1_Practice/.well-known/openid-configuration': {
    kind: 'public',
    request: () => ({ path: '/api/idp/local-1_Practice/.well-known/openid-configuration' }),
    expected: 200,
  },
  // Hosted sign-in (the identity provider's own door): with no client, no code or no token each
  // refuses before touching any firm's data.
  'GET /api/idp/oauth2/authorize': {
    kind: 'public',
    request: () => ({ path: '/api/idp/oauth2/authorize' }),
    expected: 400,
  },
  'POST /api/idp/login': {
    kind: 'public',
    request: () => ({
      path: '/api/idp/login',
      method: 'POST',
      body: () => 'email=a%40b.test&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    expected: 400,
  },
  'POST /api/idp/oauth2/token': {
    kind: 'public',
    request: () => ({
      path: '/api/idp/oauth2/token',
      method: 'POST',
      body: () => 'grant_type=authorization_code',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    expected: 401, // invalid_client: no client_id
  },
  'GET /api/idp/oauth2/userInfo': {
    kind: 'public',
    request: () => ({ path: '/api/idp/oauth2/userInfo' }),
    expected: 401,
  },
  'GET /api/idp/oauth2/idpresponse': {
    kind: 'public',
    request: () => ({ path: '/api/idp/oauth2/idpresponse' }),
    expected: 400,
  },
  'GET /api/idp/logout': { kind: 'public', request: () => ({ path: '/api/idp/logout' }), expected: 400 },
  'ALL /api/*': { kind: 'public', request: () => ({ path: '/api/no-such-thing' }), expected: 404 },
  'ALL /api/trpc/:path': { kind: 'trpc' },

  'POST /api/documents/upload': {
    kind: 'staff',
    request: (f, c) => ({
      path: `/api/documents/upload?folderId=${c.folder.id}`,
      method: 'POST',
      body: uploadBody(`${f.marker} upload.txt`, 'hello'),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/documents/:id/download': {
    kind: 'staff',
    request: (_, c) => ({ path: `/api/documents/${c.document.id}/download` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/documents/:id/preview': {
    kind: 'staff',
    request: (_, c) => ({ path: `/api/documents/${c.document.id}/preview` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/documents/folders/:id/zip': {
    kind: 'staff',
    request: (_, c) => ({ path: `/api/documents/folders/${c.folder.id}/zip` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'POST /api/leave/attachments': {
    kind: 'staff',
    request: (f) => ({
      path: '/api/leave/attachments',
      method: 'POST',
      body: uploadBody(`${f.marker} note.png`, 'note'),
    }),
    own: 201,
    cross: 'none',
  },
  'GET /api/requests/files/:id/download': {
    kind: 'staff',
    request: (f) => ({ path: `/api/requests/files/${f.assigned.requests.heldFile.id}/download` }),
    own: 200,
    cross: 'ids',
  },
  'GET /api/requests/files/:id/preview': {
    kind: 'staff',
    request: (f) => ({ path: `/api/requests/files/${f.assigned.requests.heldFile.id}/preview` }),
    own: 200,
    cross: 'ids',
  },
  'GET /api/leave/attachments/:id/download': {
    kind: 'staff',
    request: (f) => ({ path: `/api/leave/attachments/${f.leave.attachment.id}/download` }),
    own: 200,
    cross: 'ids',
  },
  'GET /api/leave/attachments/:id/preview': {
    kind: 'staff',
    request: (f) => ({ path: `/api/leave/attachments/${f.leave.attachment.id}/preview` }),
    own: 200,
    cross: 'ids',
  },
  'GET /api/billing/export/accounting': {
    kind: 'staff',
    request: () => ({ path: '/api/billing/export/accounting?from=2020-01-01&to=2099-12-31&format=tally' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/billing/payments/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/billing/payments/export.csv?tds=yes' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/billing/payments/export.xlsx': {
    kind: 'staff',
    request: () => ({ path: '/api/billing/payments/export.xlsx' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/billing/clients/:clientId/statement.pdf': {
    kind: 'staff',
    request: (_, c) => ({
      path: `/api/billing/clients/${c.client.id}/statement.pdf?from=2026-04-01&to=2027-03-31`,
    }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/billing/invoices/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/billing/invoices/export.csv' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/billing/invoices/export.xlsx': {
    kind: 'staff',
    request: () => ({ path: '/api/billing/invoices/export.xlsx' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/billing/invoices/:id/pdf': {
    kind: 'staff',
    request: (_, c) => ({ path: `/api/billing/invoices/${c.billing.invoice.id}/pdf` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'GET /api/clients/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/clients/export.csv' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/clients/export.xlsx': {
    kind: 'staff',
    request: () => ({ path: '/api/clients/export.xlsx' }),
    own: 200,
    cross: 'none',
  },
  'POST /api/clients/import': {
    kind: 'staff',
    request: (f) => ({
      path: '/api/clients/import',
      method: 'POST',
      body: uploadBody('clients.csv', `Client code,Client name\r\nNEW1,${f.marker} uploaded\r\n`),
    }),
    own: 200,
    cross: 'none',
  },
  'GET /api/clients/import/:id/errors.csv': {
    kind: 'staff',
    request: (f) => ({ path: `/api/clients/import/${f.importId}/errors.csv` }),
    own: 200,
    cross: 'ids',
  },
  'GET /api/firm-exports/:id/download': {
    kind: 'staff',
    request: (f) => ({ path: `/api/firm-exports/${f.firmExport.id}/download` }),
    own: 200,
    cross: 'ids',
  },
  'GET /api/reports/client/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/client/export.csv?from=2026-01-01&to=2026-03-31' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/client/export.xlsx': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/client/export.xlsx?from=2026-01-01&to=2026-03-31' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/team/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/team/export.csv?from=2026-01-01&to=2026-03-31' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/team/export.xlsx': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/team/export.xlsx?from=2026-01-01&to=2026-03-31' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/services/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/services/export.csv?from=2026-01-01&to=2026-03-31' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/services/export.xlsx': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/services/export.xlsx?from=2026-01-01&to=2026-03-31' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/billing/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/billing/export.csv?from=2026-01-01&to=2026-03-31' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/billing/export.xlsx': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/billing/export.xlsx?from=2026-01-01&to=2026-03-31' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/requests/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/requests/export.csv' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/reports/requests/export.xlsx': {
    kind: 'staff',
    request: () => ({ path: '/api/reports/requests/export.xlsx' }),
    own: 200,
    cross: 'none',
  },
  'GET /api/systemlog/export.csv': {
    kind: 'staff',
    request: () => ({ path: '/api/systemlog/export.csv' }),
    own: 200,
    cross: 'none',
  },

  'POST /api/clientportal/upload': {
    kind: 'portal',
    request: (f, c) => ({
      path: `/api/clientportal/upload?clientId=${c.client.id}&folderId=${c.shared.id}`,
      method: 'POST',
      body: uploadBody(`${f.marker} from the client.txt`, 'statement'),
    }),
    own: 201,
  },
  'POST /api/messages/upload': {
    kind: 'staff',
    request: (f, c) => ({
      path: `/api/messages/upload?threadId=${c.messages.thread.id}`,
      method: 'POST',
      body: uploadBody(`${f.marker} reply.png`, PNG),
    }),
    own: 201,
    cross: 'ids',
    client: true,
  },
  'GET /api/messages/attachments/:id/download': {
    kind: 'staff',
    request: (_, c) => ({ path: `/api/messages/attachments/${c.messages.attachment.documentId}/download` }),
    own: 200,
    cross: 'ids',
    client: true,
  },
  'POST /api/clientportal/messages/upload': {
    kind: 'portal',
    request: (f, c) => ({
      path: `/api/clientportal/messages/upload?clientId=${c.client.id}&threadId=${c.messages.thread.id}`,
      method: 'POST',
      body: uploadBody(`${f.marker} from the client.png`, PNG),
    }),
    own: 201,
  },
  'GET /api/clientportal/:clientId/messages/attachments/:id/download': {
    kind: 'portal',
    request: (_, c) => ({
      path: `/api/clientportal/${c.client.id}/messages/attachments/${c.messages.attachment.documentId}/download`,
    }),
    own: 200,
  },
  'POST /api/clientportal/requests/upload': {
    kind: 'portal',
    request: (f, c) => ({
      path: `/api/clientportal/requests/upload?clientId=${c.client.id}&requestId=${c.requests.open.id}&itemId=${c.requests.open.fileItem.id}`,
      method: 'POST',
      body: uploadBody(`${f.marker} statement.pdf`, '%PDF-1.4 statement'),
    }),
    own: 201,
  },
  'GET /api/clientportal/:clientId/documents/:id/download': {
    kind: 'portal',
    request: (_, c) => ({
      path: `/api/clientportal/${c.client.id}/documents/${c.sharedDocument.id}/download`,
    }),
    own: 200,
  },
};

/** Fastify's table as rows: one key per route (HEAD twins of GET and an all-methods route folded). */
function routeKeys() {
  const byUrl = new Map<string, Set<string>>();
  for (const { method, url } of ROUTE_TABLE) {
    if (!url.startsWith('/api')) continue; // the built web app's files, when there is a build
    byUrl.set(url, (byUrl.get(url) ?? new Set()).add(method));
  }
  const keys: string[] = [];
  for (const [url, methods] of byUrl) {
    if (methods.has('GET') && methods.has('POST') && methods.has('DELETE')) keys.push(`ALL ${url}`);
    else for (const m of methods) if (m !== 'HEAD' || !methods.has('GET')) keys.push(`${m} ${url}`);
  }
  return keys.sort();
}

async function send(request: TRequest, headers: Record<string, string>): Promise<THttpAnswer> {
  const res = await fetch(`${t.url}${request.path}`, {
    method: request.method ?? 'GET',
    headers: { ...request.headers, ...headers },
    body: request.body?.(),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, text: bytes.toString('latin1') };
}

const portalHeaders = (f: TF) => ({ cookie: `practice_portal_session=${f.portal.token}` });

async function routeCase(key: string, kase: TCase) {
  const row = ROUTE_ROWS[key];
  if (!row) throw new Error(`add a row for ${key} to the route matrix`);
  if (row.kind === 'trpc') return;
  if (row.kind === 'public') {
    if (kase !== 'none' && kase !== 'portal') return;
    const got = await send(row.request(A), kase === 'portal' ? portalHeaders(A) : {});
    expect(got.status, got.text.slice(0, 200)).toBe(row.expected);
    return;
  }
  if (row.kind === 'api') return apiCase(row, kase);
  if (row.kind === 'portal') {
    // The portal's cells: its own client, another firm's client, a staff token, nothing.
    const cell = {
      own: { headers: portalHeaders(A), request: row.request(A, A.assigned), status: row.own },
      crossing: { headers: portalHeaders(A), request: row.request(B, B.assigned), status: 404 },
      assigned: { headers: portalHeaders(A), request: row.request(A, A.unassigned), status: 404 },
      portal: { headers: bearer(A.owner.token), request: row.request(A, A.assigned), status: 401 },
      none: { headers: {}, request: row.request(A, A.assigned), status: 401 },
    }[kase];
    const before = await snapshotFirm(t, B.org.id);
    const got = await send(cell.request, cell.headers);
    expect(got.status, got.text.slice(0, 200)).toBe(cell.status);
    if (kase !== 'own') expect(changedTables(before, await snapshotFirm(t, B.org.id))).toEqual([]);
    return;
  }
  switch (kase) {
    case 'own':
    case 'crossing': {
      const crossing = kase === 'crossing' && row.cross === 'ids';
      const before = await snapshotFirm(t, B.org.id);
      const got = await send(
        crossing ? row.request(B, B.assigned) : row.request(A, A.assigned),
        bearer(A.owner.token),
      );
      expect(changedTables(before, await snapshotFirm(t, B.org.id)), 'firm B’s rows changed').toEqual([]);
      if (crossing) {
        expect(got.status, got.text.slice(0, 200)).toBe(404);
      } else {
        expect(got.status, got.text.slice(0, 200)).toBe(row.own);
        expect(leaksOf(got.text, bIds, B.marker), 'the answer shows firm B’s data').toEqual([]);
      }
      return;
    }
    case 'assigned': {
      if (!row.client) return;
      const before = await snapshotFirm(t, A.org.id);
      const got = await send(row.request(A, A.unassigned), bearer(A.limited.token));
      expect(got.status, got.text.slice(0, 200)).toBe(404);
      expect(changedTables(before, await snapshotFirm(t, A.org.id))).toEqual([]);
      return;
    }
    case 'portal':
    case 'none': {
      const got = await send(row.request(A, A.assigned), kase === 'portal' ? portalHeaders(A) : {});
      expect(got.status, got.text.slice(0, 200)).toBe(401);
      return;
    }
  }
}

/** A public-API call: with A's owner key, B's records, the limited member's key, or no key. */
async function apiCase(row: Extract<TRouteRow, { kind: 'api' }>, kase: TCase) {
  const key = (secret: string) => ({ authorization: `Bearer ${secret}` });
  switch (kase) {
    case 'own':
    case 'crossing': {
      const crossing = kase === 'crossing' && row.cross === 'ids';
      const before = await snapshotFirm(t, B.org.id);
      const got = await send(
        crossing ? row.request(B, B.assigned) : row.request(A, A.assigned),
        key(A.apiKeys.owner.secret),
      );
      expect(changedTables(before, await snapshotFirm(t, B.org.id)), 'firm B’s rows changed').toEqual([]);
      if (crossing) expect(got.status, got.text.slice(0, 200)).toBe(404);
      else {
        expect(got.status, got.text.slice(0, 300)).toBe(row.own);
        expect(leaksOf(got.text, bIds, B.marker), 'the answer shows firm B’s data').toEqual([]);
      }
      return;
    }
    case 'assigned': {
      if (!row.client) return;
      const before = await snapshotFirm(t, A.org.id);
      const got = await send(row.request(A, A.unassigned), key(A.apiKeys.limited.secret));
      expect(got.status, got.text.slice(0, 200)).toBe(404);
      // Each call with a key is itself logged, and marks the key used: nothing else may change.
      const changed = changedTables(before, await snapshotFirm(t, A.org.id)).filter(
        (table) => table !== 'system_log' && table !== 'api_keys',
      );
      expect(changed, 'firm A’s rows changed').toEqual([]);
      return;
    }
    case 'portal':
    case 'none': {
      for (const headers of kase === 'portal' ? [portalHeaders(A), bearer(A.owner.token)] : [{}]) {
        const got = await send(row.request(A, A.assigned), headers);
        expect(got.status, got.text.slice(0, 200)).toBe(401);
      }
      return;
    }
  }
}

describe('HTTP route matrix', () => {
  it('has a row for every route in Fastify’s table, and none for one that is gone', () => {
    const keys = routeKeys();
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.filter((k) => !ROUTE_ROWS[k]).map((k) => `add a row for ${k}`)).toEqual([]);
    expect(
      Object.keys(ROUTE_ROWS)
        .filter((k) => !keys.includes(k))
        .map((k) => `remove the row for ${k}: no such route`),
    ).toEqual([]);
  });

  // The keys are known only once the app is built; the rows name them all, and the test above
  // holds the two lists equal.
  describe.each(Object.keys(ROUTE_ROWS).sort())('%s', (key) => {
    it.each(CASES)('%s', (kase) => routeCase(key, kase));
  });
});
