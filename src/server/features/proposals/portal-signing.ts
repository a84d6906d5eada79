import { TRPCError } from '@trpc/server';
import { and, asc, eq, gte, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { todayIn } from '../../../domain/days';
import type { ZPortalSign, ZPortalSignDecline } from '../../../domain/proposals';
import type { TPortalClientAccess, TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { documents, proposalSigners, proposals } from '../../db/schema';
import { firmFormatter } from '../settings';
import { recordEvent } from './events';
import type { TDeps } from './service';
import { declineAs, openable, signAs, viewFor } from './signing';

// Signing inside the portal (issue 37): a portal user who is a signer of a proposal or signature
// request of the client they act for (the signer's email is their sign-in email) sees it under
// "To sign" and signs there. The portal's own sign-in (its mailed code) stands for the signer's
// link and code; everything else (turns, consent, the audit trail, acceptance) is the same.

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Nothing to sign here' });

/** The proposal of this client with the portal user as a signer; NOT_FOUND for anything else. */
async function mine(
  db: TExecutor,
  access: TPortalClientAccess,
  email: string,
  proposalId: string,
  lock = false,
) {
  const query = db
    .select({ proposal: proposals, signer: proposalSigners })
    .from(proposalSigners)
    .innerJoin(
      proposals,
      and(eq(proposals.orgId, proposalSigners.orgId), eq(proposals.id, proposalSigners.proposalId)),
    )
    .where(
      and(
        eq(proposals.orgId, access.orgId),
        eq(proposals.clientId, access.clientId),
        eq(proposals.id, proposalId),
        eq(proposalSigners.email, email.toLowerCase()),
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.proposal.status === 'draft' || row.proposal.status === 'withdrawn') throw notFound();
  return row;
}

/** "To sign": the client's sent proposals and signature requests that wait on this person. */
export async function portalToSign(db: TExecutor, access: TPortalClientAccess, email: string) {
  const format = await firmFormatter(db, access.orgId);
  const today = todayIn(format.timeZone);
  const rows = await db
    .select({
      id: proposals.id,
      title: proposals.title,
      kind: proposals.kind,
      expiresOn: proposals.expiresOn,
      signingOrder: proposals.signingOrder,
      position: proposalSigners.position,
    })
    .from(proposalSigners)
    .innerJoin(
      proposals,
      and(eq(proposals.orgId, proposalSigners.orgId), eq(proposals.id, proposalSigners.proposalId)),
    )
    .where(
      and(
        eq(proposals.orgId, access.orgId),
        eq(proposals.clientId, access.clientId),
        eq(proposals.status, 'sent'),
        gte(proposals.expiresOn, today),
        eq(proposalSigners.email, email.toLowerCase()),
        isNull(proposalSigners.signedAt),
        isNull(proposalSigners.declinedAt),
      ),
    )
    .orderBy(asc(proposals.expiresOn), asc(proposals.id))
    .limit(100);
  return rows.map(({ position: _, ...r }) => r);
}

/** One to review and sign, as the signing page shows it, plus the original when the portal shares it. */
export async function portalSigningView(
  db: TDb,
  access: TPortalClientAccess,
  email: string,
  proposalId: string,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { proposal: p, signer } = await mine(tx, access, email, proposalId, true);
    const format = await openable(tx, p);
    if (!signer.openedAt) {
      await tx.update(proposalSigners).set({ openedAt: new Date() }).where(eq(proposalSigners.id, signer.id));
      await recordEvent(tx, {
        orgId: p.orgId,
        proposalId: p.id,
        signerId: signer.id,
        kind: 'opened',
        who: signer.name,
        detail: 'In the client portal',
        meta,
      });
    }
    const view = await viewFor(tx, p, signer, format);
    // The file itself: through the portal's own download when the firm shares it there.
    let sharedDocumentId: string | null = null;
    if (p.kind === 'document' && p.sourceDocumentId) {
      const [doc] = await tx
        .select({ id: documents.id, visible: documents.visibleToPortal, version: documents.currentVersion })
        .from(documents)
        .where(
          and(
            eq(documents.orgId, p.orgId),
            eq(documents.id, p.sourceDocumentId),
            isNull(documents.deletedAt),
          ),
        );
      if (doc?.visible && doc.version === p.sourceVersion) sharedDocumentId = doc.id;
    }
    return { ...view, sharedDocumentId };
  });
}

export async function portalSign(
  db: TDb,
  access: TPortalClientAccess,
  email: string,
  input: z.output<typeof ZPortalSign>,
  meta: TRequestMeta,
  deps: TDeps,
) {
  return db.transaction(async (tx) => {
    const { proposal: p, signer } = await mine(tx, access, email, input.proposalId, true);
    await openable(tx, p);
    return signAs(tx, p, signer, input, meta, deps, `; in the client portal, signed in as ${email}`);
  });
}

export async function portalDecline(
  db: TDb,
  access: TPortalClientAccess,
  email: string,
  input: z.output<typeof ZPortalSignDecline>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { proposal: p, signer } = await mine(tx, access, email, input.proposalId, true);
    await openable(tx, p);
    return declineAs(tx, p, signer, input.reason, meta);
  });
}
