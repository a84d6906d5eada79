import { randomInt, timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  PORTAL_CODE_LENGTH,
  PORTAL_CODE_MAX_ATTEMPTS,
  PORTAL_CODE_TTL_MINUTES,
} from '../../../domain/client-users';
import { todayIn } from '../../../domain/days';
import {
  ESIGN_CONSENT_TEXT,
  type ZSignerCodeVerify,
  type ZSignerDecline,
  type ZSignerLink,
  type ZSignerSession,
  type ZSignerSign,
} from '../../../domain/proposals';
import type { TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clients, documents, documentVersions, orgs, proposalSigners, proposals } from '../../db/schema';
import { emitAutomationEvent } from '../../events';
import { type TLimit, takeAttempt } from '../../idp/attempts';
import type { TMailer } from '../../mail';
import { notify } from '../notifications';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { emitWebhookEvent } from '../webhooks';
import { acceptProposal } from './accept';
import { recordEvent } from './events';
import { signerCodeMessage } from './mail';
import { renderProposal, serviceNames } from './render';
import { mailSigner, newSecret, sha256, signersOf, type TDeps } from './service';

// The signer's side, with no account: the link (proposal, signer, secret) proves the mail was
// received; a one-time code mailed to the signer (the portal's code rules: 6 digits, 10 minutes,
// 5 tries, hashed, throttled) proves it is still their mailbox; then a short session secret,
// held by the page, carries each step. Another proposal's link, a changed or a withdrawn one all
// answer the same NOT_FOUND; an expired proposal says so.

const LIMITS = {
  sendPerSigner: { limit: 5, windowS: 15 * 60, lockS: 15 * 60 },
  sendPerIp: { limit: 20, windowS: 15 * 60, lockS: 15 * 60 },
  verifyPerIp: { limit: 30, windowS: 15 * 60, lockS: 15 * 60 },
} satisfies Record<string, TLimit>;
const SESSION_MINUTES = 60;

const invalid = () =>
  new TRPCError({
    code: 'NOT_FOUND',
    message: 'This link is not valid: open the latest email from the firm',
  });
const sameHash = (a: string | null, b: string) =>
  !!a && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

async function throttle(db: TExecutor, key: string, limit: TLimit) {
  const slot = await takeAttempt(db, key, limit);
  if (!slot.allowed) {
    const minutes = Math.max(1, Math.ceil((slot.retryS || limit.lockS) / 60));
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `Too many tries: wait ${minutes} minutes` });
  }
}

/** The proposal and signer a link names, when its secret matches; refused otherwise. */
async function byLink(db: TExecutor, link: z.output<typeof ZSignerLink>, lock = false) {
  const query = db
    .select({ proposal: proposals, signer: proposalSigners })
    .from(proposalSigners)
    .innerJoin(
      proposals,
      and(eq(proposals.orgId, proposalSigners.orgId), eq(proposals.id, proposalSigners.proposalId)),
    )
    .where(and(eq(proposalSigners.id, link.signerId), eq(proposalSigners.proposalId, link.proposalId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row || !sameHash(row.signer.linkHash, sha256(link.token))) throw invalid();
  return row;
}

export async function openable(db: TExecutor, p: typeof proposals.$inferSelect) {
  if (p.status === 'withdrawn') throw invalid();
  const format = await firmFormatter(db, p.orgId);
  if (p.status === 'sent' && p.expiresOn < todayIn(format.timeZone)) {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: `This proposal expired on ${format.date(p.expiresOn)}: ask the firm to send a new one`,
    });
  }
  return format;
}

const maskEmail = (email: string) => email.replace(/^(.)[^@]*(@.*)$/, '$1•••$2');

/** What the link's first page shows before the code: whose it is and where the code goes. */
export async function openLink(db: TDb, link: z.output<typeof ZSignerLink>, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { proposal: p, signer } = await byLink(tx, link, true);
    await openable(tx, p);
    if (!signer.openedAt) {
      await tx.update(proposalSigners).set({ openedAt: new Date() }).where(eq(proposalSigners.id, signer.id));
      await recordEvent(tx, {
        orgId: p.orgId,
        proposalId: p.id,
        signerId: signer.id,
        kind: 'opened',
        who: signer.name,
        meta,
      });
    }
    const [firm] = await tx.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, p.orgId));
    return {
      firmName: firm?.name ?? '',
      title: p.title,
      signerName: signer.name,
      email: maskEmail(signer.email),
    };
  });
}

export async function requestSignerCode(
  db: TDb,
  deps: { mailer: TMailer; log: { error(obj: object, msg: string): void } },
  link: z.output<typeof ZSignerLink>,
  meta: TRequestMeta,
) {
  await throttle(db, `proposal:code-send:ip:${meta.ip}`, LIMITS.sendPerIp);
  await throttle(db, `proposal:code-send:signer:${link.signerId}`, LIMITS.sendPerSigner);
  const code = String(randomInt(0, 10 ** PORTAL_CODE_LENGTH)).padStart(PORTAL_CODE_LENGTH, '0');
  const { to, firmName } = await db.transaction(async (tx) => {
    const { proposal: p, signer } = await byLink(tx, link, true);
    await openable(tx, p);
    await tx
      .update(proposalSigners)
      .set({
        codeHash: sha256(`${signer.id}:${code}`),
        codeExpiresAt: sql`now() + make_interval(mins => ${PORTAL_CODE_TTL_MINUTES})`,
        codeAttempts: 0,
      })
      .where(eq(proposalSigners.id, signer.id));
    await recordEvent(tx, {
      orgId: p.orgId,
      proposalId: p.id,
      signerId: signer.id,
      kind: 'code_sent',
      who: signer.name,
      meta,
    });
    const [firm] = await tx.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, p.orgId));
    return { to: signer.email, firmName: firm?.name ?? 'your accountant' };
  });
  // Sent now, not queued: the signer is waiting for it (as the portal's sign-in code).
  deps.mailer
    .send(signerCodeMessage({ to, code, minutes: PORTAL_CODE_TTL_MINUTES, firmName }))
    .catch((error: unknown) => deps.log.error({ err: error }, 'signer code not sent'));
  return { email: maskEmail(to), minutes: PORTAL_CODE_TTL_MINUTES };
}

export async function verifySignerCode(
  db: TDb,
  input: z.output<typeof ZSignerCodeVerify>,
  meta: TRequestMeta,
) {
  await throttle(db, `proposal:code-verify:ip:${meta.ip}`, LIMITS.verifyPerIp);
  const outcome = await db.transaction(async (tx) => {
    const { proposal: p, signer } = await byLink(tx, input, true);
    await openable(tx, p);
    const live = signer.codeHash && signer.codeExpiresAt && signer.codeExpiresAt > new Date();
    if (!live) return { ok: false as const, message: 'This code has expired: ask for a new one' };
    if (sameHash(signer.codeHash, sha256(`${signer.id}:${input.code}`))) {
      const session = newSecret();
      await tx
        .update(proposalSigners)
        .set({
          codeHash: null,
          sessionHash: sha256(session),
          sessionExpiresAt: sql`now() + make_interval(mins => ${SESSION_MINUTES})`,
        })
        .where(eq(proposalSigners.id, signer.id));
      await recordEvent(tx, {
        orgId: p.orgId,
        proposalId: p.id,
        signerId: signer.id,
        kind: 'verified',
        who: signer.name,
        detail: `Code sent to ${signer.email}`,
        meta,
      });
      return { ok: true as const, session };
    }
    const attempts = signer.codeAttempts + 1;
    const left = PORTAL_CODE_MAX_ATTEMPTS - attempts;
    await tx
      .update(proposalSigners)
      .set({ codeAttempts: attempts, ...(left <= 0 ? { codeHash: null } : {}) })
      .where(eq(proposalSigners.id, signer.id));
    return {
      ok: false as const,
      message:
        left <= 0 ? 'This code has expired: ask for a new one' : `That code is not right: ${left} tries left`,
    };
  });
  if (!outcome.ok) throw new TRPCError({ code: 'BAD_REQUEST', message: outcome.message });
  return { session: outcome.session };
}

/** The file a signature request names, at the version sent; null when it is gone. */
export async function sourceDocument(db: TExecutor, p: typeof proposals.$inferSelect) {
  const row = await sourceFile(db, p);
  return row ? { name: row.doc.name, size: row.version.size } : null;
}

/** The document and the version a signature request was sent with (for the signer's download). */
export async function sourceFile(db: TExecutor, p: typeof proposals.$inferSelect) {
  if (!p.sourceDocumentId || p.sourceVersion === null) return null;
  const [row] = await db
    .select({ doc: { id: documents.id, name: documents.name }, version: documentVersions })
    .from(documents)
    .innerJoin(
      documentVersions,
      and(eq(documentVersions.orgId, documents.orgId), eq(documentVersions.documentId, documents.id)),
    )
    .where(
      and(
        eq(documents.orgId, p.orgId),
        eq(documents.id, p.sourceDocumentId),
        eq(documentVersions.version, p.sourceVersion),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function bySession(tx: TExecutor, input: z.output<typeof ZSignerSession>, lock = false) {
  const row = await byLink(tx, input, lock);
  const s = row.signer;
  if (
    !sameHash(s.sessionHash, sha256(input.session)) ||
    !s.sessionExpiresAt ||
    s.sessionExpiresAt <= new Date()
  ) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Your session has ended: ask for a new code' });
  }
  const format = await openable(tx, row.proposal);
  return { ...row, format };
}

/** Everything the signer reviews: the letter, the options, the terms, who signs, and whose turn it is. */
export async function signerView(db: TDb, input: z.output<typeof ZSignerSession>) {
  const { proposal: p, signer, format } = await bySession(db, input);
  return viewFor(db, p, signer, format);
}

type TProposalRow = typeof proposals.$inferSelect;
type TSignerRow = typeof proposalSigners.$inferSelect;

/** What one signer reviews (the link's page and the portal's show the same). */
export async function viewFor(
  db: TExecutor,
  p: TProposalRow,
  signer: TSignerRow,
  format: Awaited<ReturnType<typeof openable>>,
) {
  const [signers, names, [firm]] = await Promise.all([
    signersOf(db, p.orgId, p.id),
    serviceNames(db, p.orgId, p),
    db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, p.orgId)),
  ]);
  const [client] = await db
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.orgId, p.orgId), eq(clients.id, p.clientId)));
  const rendered = renderProposal(p, names, format, {
    clientName: client?.name ?? '',
    signerName: signer.name,
    firmName: firm?.name ?? '',
    today: todayIn(format.timeZone),
    expiresOn: p.expiresOn,
  });
  const document = p.kind === 'document' ? await sourceDocument(db, p) : null;
  return {
    firmName: firm?.name ?? '',
    title: p.title,
    kind: p.kind,
    /** A signature request's file (its name and size): the page opens it by the document route. */
    document,
    status: p.status,
    expiresOn: p.expiresOn,
    signingOrder: p.signingOrder,
    me: { id: signer.id, name: signer.name, signedAt: signer.signedAt, declinedAt: signer.declinedAt },
    myTurn: isMyTurn(p, signers, signer.id),
    signers: signers.map((s) => ({ name: s.name, signedAt: s.signedAt, declinedAt: s.declinedAt })),
    /** Once the first signer chose, the others sign that choice. */
    chosen:
      p.chosenPackage === null ? null : { packageIndex: p.chosenPackage, addOnIndexes: p.chosenAddOns ?? [] },
    consentText: ESIGN_CONSENT_TEXT,
    ...rendered,
  };
}

function isMyTurn(
  p: typeof proposals.$inferSelect,
  signers: (typeof proposalSigners.$inferSelect)[],
  signerId: string,
) {
  if (p.status !== 'sent') return false;
  const me = signers.find((s) => s.id === signerId);
  if (!me || me.signedAt || me.declinedAt) return false;
  return p.signingOrder === 'any' || signers.filter((s) => s.position < me.position).every((s) => s.signedAt);
}

export async function signProposal(
  db: TDb,
  input: z.output<typeof ZSignerSign>,
  meta: TRequestMeta,
  deps: TDeps,
) {
  return db.transaction(async (tx) => {
    const { proposal: p, signer } = await bySession(tx, input, true);
    return signAs(tx, p, signer, input, meta, deps, '');
  });
}

export type TSignature = Pick<z.output<typeof ZSignerSign>, 'packageIndex' | 'addOnIndexes' | 'signature'>;

/** One signer's signature, in the caller's transaction (the signer row locked); `via` says how they came. */
export async function signAs(
  tx: TExecutor,
  p: TProposalRow,
  signer: TSignerRow,
  input: TSignature,
  meta: TRequestMeta,
  deps: TDeps,
  via: string,
) {
  // The proposal row's lock orders concurrent signers: the last one in sees every other signature.
  await tx
    .select({ id: proposals.id })
    .from(proposals)
    .where(and(eq(proposals.orgId, p.orgId), eq(proposals.id, p.id)))
    .for('update');
  const signers = await signersOf(tx, p.orgId, p.id);
  if (!isMyTurn(p, signers, signer.id)) {
    throw new TRPCError({
      code: 'CONFLICT',
      message:
        p.status !== 'sent'
          ? `This proposal is ${p.status}`
          : signer.signedAt
            ? 'You have signed already'
            : 'It is not your turn to sign yet',
    });
  }
  let choice = { packageIndex: input.packageIndex, addOnIndexes: [...new Set(input.addOnIndexes)].sort() };
  // A document has no packages to choose between: the signature is on the file as sent.
  if (p.kind === 'document') choice = { packageIndex: 0, addOnIndexes: [] };
  else if (p.chosenPackage !== null)
    choice = { packageIndex: p.chosenPackage, addOnIndexes: p.chosenAddOns ?? [] };
  else {
    if (!p.packages[choice.packageIndex])
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose one of the packages' });
    if (choice.addOnIndexes.some((i) => !p.addOns[i]))
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose add-ons from the list' });
    await tx
      .update(proposals)
      .set({ chosenPackage: choice.packageIndex, chosenAddOns: choice.addOnIndexes, updatedAt: new Date() })
      .where(and(eq(proposals.orgId, p.orgId), eq(proposals.id, p.id)));
  }
  const signature = input.signature.kind === 'typed' ? input.signature.text : input.signature.image;
  const now = new Date();
  await tx
    .update(proposalSigners)
    .set({
      signedAt: now,
      signatureKind: input.signature.kind,
      signature,
      consentText: ESIGN_CONSENT_TEXT,
      sessionHash: null,
    })
    .where(eq(proposalSigners.id, signer.id));
  const pkg = p.packages[choice.packageIndex]?.name ?? '';
  await recordEvent(tx, {
    orgId: p.orgId,
    proposalId: p.id,
    signerId: signer.id,
    kind: 'signed',
    who: signer.name,
    detail: `${input.signature.kind === 'typed' ? `Typed “${input.signature.text}”` : 'Drawn signature'}${p.kind === 'document' ? '' : `; package “${pkg}”`}${choice.addOnIndexes.length ? `, ${choice.addOnIndexes.length} add-on(s)` : ''}; agreed to sign electronically${via}`,
    meta,
  });
  await audit(
    tx,
    { kind: 'system', orgId: p.orgId },
    {
      action: 'proposal.sign',
      recordType: 'proposal',
      recordId: p.id,
      summary: `${signer.name} signed “${p.title}” (from ${meta.ip})`,
    },
  );
  await emitWebhookEvent(tx, p.orgId, 'proposal.signed', {
    id: p.id,
    title: p.title,
    clientId: p.clientId,
    signer: signer.name,
  });
  const after = signers.map((s) => (s.id === signer.id ? { ...s, signedAt: now } : s));
  if (after.every((s) => s.signedAt)) {
    await acceptProposal(tx, p, choice);
    // A proposal's acceptance is an automation trigger; a document's signatures are not a proposal.
    if (p.kind !== 'document')
      await emitAutomationEvent(tx, {
        orgId: p.orgId,
        kind: 'proposal.signed',
        clientId: p.clientId,
        data: { proposalId: p.id, title: p.title },
      });
    return { done: true };
  }
  if (p.signingOrder === 'sequential') {
    const next = after.find((s) => !s.signedAt);
    if (next) await mailSigner(tx, deps, p, next);
  }
  return { done: false };
}

export async function declineProposal(db: TDb, input: z.output<typeof ZSignerDecline>, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { proposal: p, signer } = await bySession(tx, input, true);
    return declineAs(tx, p, signer, input.reason, meta);
  });
}

/** One signer declines, with their reason, in the caller's transaction: the proposal is declined. */
export async function declineAs(
  tx: TExecutor,
  p: TProposalRow,
  signer: TSignerRow,
  reason: string,
  meta: TRequestMeta,
) {
  if (p.status !== 'sent' || signer.signedAt) {
    throw new TRPCError({
      code: 'CONFLICT',
      message: signer.signedAt ? 'You have signed already' : `This proposal is ${p.status}`,
    });
  }
  const now = new Date();
  await tx
    .update(proposalSigners)
    .set({ declinedAt: now, sessionHash: null })
    .where(eq(proposalSigners.id, signer.id));
  await tx
    .update(proposals)
    .set({ status: 'declined', declineReason: reason, answeredAt: now, updatedAt: now })
    .where(and(eq(proposals.orgId, p.orgId), eq(proposals.id, p.id)));
  await recordEvent(tx, {
    orgId: p.orgId,
    proposalId: p.id,
    signerId: signer.id,
    kind: 'declined',
    who: signer.name,
    detail: reason,
    meta,
  });
  await audit(
    tx,
    { kind: 'system', orgId: p.orgId },
    {
      action: 'proposal.decline',
      recordType: 'proposal',
      recordId: p.id,
      summary: `${signer.name} declined “${p.title}”: ${reason}`,
    },
  );
  if (p.createdBy) {
    await notify(tx, {
      orgId: p.orgId,
      memberIds: [p.createdBy],
      kind: 'proposal.answered',
      title: `${signer.name} declined “${p.title}”`,
      body: reason,
      link: `/proposals/${p.id}`,
    });
  }
  return { declined: true };
}
