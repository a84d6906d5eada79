import { createHash, randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { and, asc, count, desc, eq, gte, isNull, lt, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { todayIn } from '../../../domain/days';
import {
  displayStatus,
  type ZProposalCreate,
  type ZProposalListInput,
  type ZProposalUpdate,
  type ZProposalWithdraw,
} from '../../../domain/proposals';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  documents,
  invoices,
  orgs,
  proposalEvents,
  proposalSigners,
  proposals,
  requests,
} from '../../db/schema';
import { enqueueMail } from '../../mail';
import { clientVisibility, visibleClient } from '../clients';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { recordEvent } from './events';
import { proposalSentMessage } from './mail';
import { renderProposal, serviceNames } from './render';
import { checkedContent, getTemplate } from './templates';

// A proposal for a client or a prospect: written (from a template or not), previewed exactly as the
// signer will see it, sent by mail through the job queue, withdrawn; a sent one past its expiry
// date is Expired and can no longer be signed.

export type TDeps = { config: Pick<TConfig, 'publicUrl'> };

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Proposal not found' });
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const newSecret = () => randomBytes(24).toString('base64url');

/** The proposal when its client is one the member may see; NOT_FOUND otherwise, as for a missing one. */
export async function visibleProposal(db: TExecutor, scope: TScope, proposalId: string, lock = false) {
  const visible = clientVisibility(scope);
  const query = db
    .select({ proposal: proposals, clientName: clients.name, prospect: clients.prospect })
    .from(proposals)
    .innerJoin(clients, and(eq(clients.orgId, proposals.orgId), eq(clients.id, proposals.clientId)))
    .where(and(eq(proposals.orgId, scope.orgId), eq(proposals.id, proposalId), ...(visible ? [visible] : [])))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: proposals }) : await query;
  if (!row) throw notFound();
  return { ...row.proposal, clientName: row.clientName, prospect: row.prospect };
}

async function firmName(db: TExecutor, orgId: string) {
  const [firm] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, orgId));
  return firm?.name ?? 'Your accountant';
}

export async function replaceSigners(
  tx: TExecutor,
  orgId: string,
  proposalId: string,
  signers: { name: string; email: string }[],
) {
  await tx
    .delete(proposalSigners)
    .where(and(eq(proposalSigners.orgId, orgId), eq(proposalSigners.proposalId, proposalId)));
  await tx
    .insert(proposalSigners)
    .values(signers.map((s, i) => ({ orgId, proposalId, position: i, name: s.name, email: s.email })));
}

export async function createProposal(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZProposalCreate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId);
    const content = await checkedContent(tx, scope.orgId, input);
    const [row] = await tx
      .insert(proposals)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        title: input.title,
        templateName: input.templateName ?? null,
        ...content,
        signingOrder: input.signingOrder,
        expiresOn: input.expiresOn,
        createdBy: scope.memberId,
      })
      .returning({ id: proposals.id });
    if (!row) throw new Error('proposal not created');
    await replaceSigners(tx, scope.orgId, row.id, input.signers);
    await recordEvent(tx, { orgId: scope.orgId, proposalId: row.id, kind: 'created', who: 'Firm', meta });
    await audit(tx, actorOf(scope, meta), {
      action: 'proposal.create',
      recordType: 'proposal',
      recordId: row.id,
      summary: `Wrote the proposal “${input.title}” for ${client.name}`,
    });
    return { id: row.id };
  });
}

/** A new draft's starting values from a template: the form opens with them, nothing is saved. */
export async function draftFromTemplate(
  db: TExecutor,
  scope: TScope,
  input: { clientId: string; templateId: string },
) {
  const client = await visibleClient(db, scope, input.clientId);
  const template = await getTemplate(db, scope, input.templateId);
  const format = await firmFormatter(db, scope.orgId);
  const today = todayIn(format.timeZone);
  const expires = new Date(`${today}T00:00:00Z`);
  expires.setUTCDate(expires.getUTCDate() + 30);
  return {
    clientId: client.id,
    title: `${template.name} for ${client.name}`,
    templateName: template.name,
    letterHtml: template.letterHtml,
    packages: template.packages,
    addOns: template.addOns,
    terms: template.terms,
    followUp: template.followUp,
    expiresOn: expires.toISOString().slice(0, 10),
    signingOrder: 'any' as const,
    signers: client.email ? [{ name: client.name, email: client.email }] : [],
  };
}

export async function updateProposal(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZProposalUpdate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await visibleProposal(tx, scope, input.proposalId, true);
    if (before.status !== 'draft') {
      throw new TRPCError({
        code: 'CONFLICT',
        message: 'Only a draft can be edited: withdraw it and write a new one',
      });
    }
    const content = await checkedContent(tx, scope.orgId, input);
    await tx
      .update(proposals)
      .set({
        title: input.title,
        ...content,
        signingOrder: input.signingOrder,
        expiresOn: input.expiresOn,
        updatedAt: new Date(),
      })
      .where(and(eq(proposals.orgId, scope.orgId), eq(proposals.id, before.id)));
    await replaceSigners(tx, scope.orgId, before.id, input.signers);
    await audit(tx, actorOf(scope, meta), {
      action: 'proposal.update',
      recordType: 'proposal',
      recordId: before.id,
      summary: `Edited the proposal “${input.title}” for ${before.clientName}`,
      ...(before.title !== input.title
        ? { changes: { title: { from: before.title, to: input.title } } }
        : {}),
    });
    return { id: before.id };
  });
}

/** A sealed PDF's name and folder, for the link to it; null when it is not made yet or deleted. */
export async function sealedDocument(db: TExecutor, orgId: string, documentId: string | null) {
  if (!documentId) return null;
  const [doc] = await db
    .select({ id: documents.id, name: documents.name, folderId: documents.folderId })
    .from(documents)
    .where(and(eq(documents.orgId, orgId), eq(documents.id, documentId), isNull(documents.deletedAt)))
    .limit(1);
  return doc ?? null;
}

/** The invoice and the onboarding request the acceptance made, for links from the proposal. */
async function followUpRecords(
  db: TExecutor,
  orgId: string,
  invoiceId: string | null,
  requestId: string | null,
) {
  const [[invoice], [request]] = await Promise.all([
    invoiceId
      ? db
          .select({ id: invoices.id, number: invoices.number, status: invoices.status })
          .from(invoices)
          .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)))
      : Promise.resolve([]),
    requestId
      ? db
          .select({ id: requests.id, title: requests.title, status: requests.status })
          .from(requests)
          .where(and(eq(requests.orgId, orgId), eq(requests.id, requestId)))
      : Promise.resolve([]),
  ]);
  return { invoice: invoice ?? null, request: request ?? null };
}

export async function signersOf(db: TExecutor, orgId: string, proposalId: string) {
  return db
    .select()
    .from(proposalSigners)
    .where(and(eq(proposalSigners.orgId, orgId), eq(proposalSigners.proposalId, proposalId)))
    .orderBy(asc(proposalSigners.position));
}

/** What the staff screen shows: the proposal, its signers, the audit trail, and the rendered preview. */
export async function getProposal(db: TExecutor, scope: TScope, proposalId: string) {
  const p = await visibleProposal(db, scope, proposalId);
  const format = await firmFormatter(db, scope.orgId);
  const today = todayIn(format.timeZone);
  const [signers, events, names, firm, sealed, followedUp, source] = await Promise.all([
    signersOf(db, scope.orgId, p.id),
    db
      .select()
      .from(proposalEvents)
      .where(and(eq(proposalEvents.orgId, scope.orgId), eq(proposalEvents.proposalId, p.id)))
      .orderBy(asc(proposalEvents.at), asc(proposalEvents.id))
      .limit(500),
    serviceNames(db, scope.orgId, p),
    firmName(db, scope.orgId),
    sealedDocument(db, scope.orgId, p.documentId),
    followUpRecords(db, scope.orgId, p.invoiceId, p.requestId),
    sealedDocument(db, scope.orgId, p.sourceDocumentId),
  ]);
  const preview = renderProposal(
    p,
    names,
    format,
    {
      clientName: p.clientName,
      signerName: signers[0]?.name ?? p.clientName,
      firmName: firm,
      today,
      expiresOn: p.expiresOn,
    },
    p.chosenPackage === null
      ? undefined
      : { packageIndex: p.chosenPackage, addOnIndexes: p.chosenAddOns ?? [] },
  );
  return {
    id: p.id,
    clientId: p.clientId,
    clientName: p.clientName,
    prospect: p.prospect,
    title: p.title,
    kind: p.kind,
    /** A signature request's file (while it is in the client's documents) and the version sent. */
    sourceDocument: source ? { ...source, version: p.sourceVersion } : null,
    templateName: p.templateName,
    status: p.status,
    displayStatus: displayStatus(p.status, p.expiresOn, today),
    signingOrder: p.signingOrder,
    expiresOn: p.expiresOn,
    letterHtml: p.letterHtml,
    packages: p.packages,
    addOns: p.addOns,
    terms: p.terms,
    followUp: p.followUp,
    followedUpAt: p.followedUpAt,
    invoice: followedUp.invoice,
    request: followedUp.request,
    chosenPackage: p.chosenPackage,
    chosenAddOns: p.chosenAddOns,
    declineReason: p.declineReason,
    documentId: p.documentId,
    /** The sealed PDF while it is in the client's documents (not in the trash). */
    document: sealed,
    contentSha256: p.contentSha256,
    sentAt: p.sentAt,
    answeredAt: p.answeredAt,
    signers: signers.map((s) => ({
      id: s.id,
      name: s.name,
      email: s.email,
      position: s.position,
      openedAt: s.openedAt,
      signedAt: s.signedAt,
      declinedAt: s.declinedAt,
    })),
    events: events.map((e) => ({
      id: e.id,
      kind: e.kind,
      who: e.who,
      detail: e.detail,
      at: e.at,
      ip: e.ip,
      userAgent: e.userAgent,
    })),
    preview,
  };
}

export async function listProposals(
  db: TExecutor,
  scope: TScope,
  input: z.output<typeof ZProposalListInput>,
) {
  const format = await firmFormatter(db, scope.orgId);
  const today = todayIn(format.timeZone);
  const where: SQL[] = [eq(proposals.orgId, scope.orgId)];
  const visible = clientVisibility(scope);
  if (visible) where.push(visible);
  if (input.clientId) where.push(eq(proposals.clientId, input.clientId));
  if (input.status === 'expired') where.push(eq(proposals.status, 'sent'), lt(proposals.expiresOn, today));
  else if (input.status === 'sent') where.push(eq(proposals.status, 'sent'), gte(proposals.expiresOn, today));
  else if (input.status) where.push(eq(proposals.status, input.status));
  const join = and(eq(clients.orgId, proposals.orgId), eq(clients.id, proposals.clientId));
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: proposals.id,
        title: proposals.title,
        kind: proposals.kind,
        clientId: proposals.clientId,
        clientName: clients.name,
        prospect: clients.prospect,
        status: proposals.status,
        expiresOn: proposals.expiresOn,
        sentAt: proposals.sentAt,
        answeredAt: proposals.answeredAt,
        createdAt: proposals.createdAt,
      })
      .from(proposals)
      .innerJoin(clients, join)
      .where(and(...where))
      .orderBy(desc(proposals.createdAt), desc(proposals.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db
      .select({ total: count() })
      .from(proposals)
      .innerJoin(clients, join)
      .where(and(...where)),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, displayStatus: displayStatus(r.status, r.expiresOn, today) })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/**
 * Mints a signer's link secret (kept as a hash) and queues their mail in the transaction. A new
 * link replaces the old one: only the newest mail's link opens the proposal.
 */
export async function mailSigner(
  tx: TExecutor,
  deps: TDeps,
  p: { orgId: string; id: string; title: string; expiresOn: string },
  signer: { id: string; name: string; email: string },
  reminder = false,
) {
  const token = newSecret();
  await tx
    .update(proposalSigners)
    .set({ linkHash: sha256(token), lastMailedAt: new Date() })
    .where(and(eq(proposalSigners.orgId, p.orgId), eq(proposalSigners.id, signer.id)));
  const format = await firmFormatter(tx, p.orgId);
  await enqueueMail(
    tx,
    proposalSentMessage(deps.config, {
      to: signer.email,
      name: signer.name,
      firmName: await firmName(tx, p.orgId),
      title: p.title,
      expires: format.date(p.expiresOn),
      proposalId: p.id,
      signerId: signer.id,
      token,
      reminder,
    }),
  );
}

export async function sendProposal(
  db: TDb,
  scope: TScope,
  proposalId: string,
  meta: TRequestMeta,
  deps: TDeps,
) {
  return db.transaction(async (tx) => sendInTransaction(tx, scope, proposalId, meta, deps));
}

/** Sends a draft in the caller's transaction: each signer asked now is mailed a fresh link. */
export async function sendInTransaction(
  tx: TExecutor,
  scope: TScope,
  proposalId: string,
  meta: TRequestMeta,
  deps: TDeps,
) {
  const p = await visibleProposal(tx, scope, proposalId, true);
  if (p.status !== 'draft')
    throw new TRPCError({ code: 'CONFLICT', message: 'This proposal was already sent' });
  const format = await firmFormatter(tx, scope.orgId);
  if (p.expiresOn < todayIn(format.timeZone)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The expiry date has passed: choose a later one' });
  }
  const signers = await signersOf(tx, scope.orgId, p.id);
  if (!signers.length) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Add at least one signer' });
  // In turn: only the first is asked now; each signature asks the next (see signing.ts).
  const asked = p.signingOrder === 'sequential' ? signers.slice(0, 1) : signers;
  for (const s of asked) await mailSigner(tx, deps, p, s);
  await tx
    .update(proposals)
    .set({ status: 'sent', sentAt: new Date(), updatedAt: new Date() })
    .where(and(eq(proposals.orgId, scope.orgId), eq(proposals.id, p.id)));
  await recordEvent(tx, {
    orgId: scope.orgId,
    proposalId: p.id,
    kind: 'sent',
    who: 'Firm',
    detail: `To ${asked.map((s) => `${s.name} <${s.email}>`).join(', ')}`,
    meta,
  });
  await audit(tx, actorOf(scope, meta), {
    action: 'proposal.send',
    recordType: 'proposal',
    recordId: p.id,
    summary: `Sent ${p.kind === 'document' ? 'for signature' : 'the proposal'} “${p.title}” to ${p.clientName} (${signers.length} signer${signers.length === 1 ? '' : 's'})`,
  });
  return { id: p.id };
}

export async function withdrawProposal(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZProposalWithdraw>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const p = await visibleProposal(tx, scope, input.proposalId, true);
    if (p.status !== 'sent' && p.status !== 'draft') {
      throw new TRPCError({ code: 'CONFLICT', message: `This proposal is already ${p.status}` });
    }
    await tx
      .update(proposals)
      .set({ status: 'withdrawn', answeredAt: new Date(), updatedAt: new Date() })
      .where(and(eq(proposals.orgId, scope.orgId), eq(proposals.id, p.id)));
    // Links die with it: their hashes go, so an open signing page is refused at its next step.
    await tx
      .update(proposalSigners)
      .set({ linkHash: null, sessionHash: null, codeHash: null })
      .where(and(eq(proposalSigners.orgId, scope.orgId), eq(proposalSigners.proposalId, p.id)));
    await recordEvent(tx, {
      orgId: scope.orgId,
      proposalId: p.id,
      kind: 'withdrawn',
      who: 'Firm',
      detail: input.reason,
      meta,
    });
    await audit(tx, actorOf(scope, meta), {
      action: 'proposal.withdraw',
      recordType: 'proposal',
      recordId: p.id,
      summary: `Withdrew the proposal “${p.title}” for ${p.clientName}${input.reason ? `: ${input.reason}` : ''}`,
    });
    return { id: p.id };
  });
}
