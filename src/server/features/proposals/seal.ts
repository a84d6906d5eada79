import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import signpdf from '@signpdf/signpdf';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { todayIn } from '../../../domain/days';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { clients, documentFolders, members, orgs, proposalEvents, proposals } from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { PermanentJobError, registerJob } from '../../jobs/registry';
import { ensureTree, storeVersion } from '../documents';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { firmSigningKey } from './certificate';
import { CadesSigner } from './cms';
import { registerProposalFollowUpJob } from './follow-up';
import { renderSealedPdf } from './pdf';
import { registerProposalReminderJob } from './reminders';
import { renderProposal, serviceNames } from './render';
import { signersOf } from './service';

// After the last signature the seal job makes the PDF, signs it with the firm's certificate
// (PAdES B-B) and files it in the client's documents, in a folder shared with the client. A job,
// not the signing request: key generation, the PDF and the upload are slow and may be retried;
// it is idempotent (a proposal that has its document is done).

export const PROPOSAL_SEAL = 'proposals.seal';
export const SEALED_FOLDER = 'Signed agreements';
const ZPayload = z.object({ orgId: z.uuid(), proposalId: z.uuid() });

/** The signed PDF's bytes for an accepted proposal, and the agreement's hash. */
export async function buildSealedPdf(
  db: TDb,
  config: Pick<TConfig, 'vault'>,
  orgId: string,
  proposalId: string,
) {
  const [row] = await db
    .select({ p: proposals, clientName: clients.name, firmName: orgs.name })
    .from(proposals)
    .innerJoin(clients, and(eq(clients.orgId, proposals.orgId), eq(clients.id, proposals.clientId)))
    .innerJoin(orgs, eq(orgs.id, proposals.orgId))
    .where(and(eq(proposals.orgId, orgId), eq(proposals.id, proposalId)));
  if (row?.p.status !== 'accepted' || row.p.chosenPackage === null) return null;
  const p = row.p;
  const chosenPackage = row.p.chosenPackage;
  const format = await firmFormatter(db, orgId);
  const [signers, names, events] = await Promise.all([
    signersOf(db, orgId, p.id),
    serviceNames(db, orgId, p),
    db
      .select()
      .from(proposalEvents)
      .where(and(eq(proposalEvents.orgId, orgId), eq(proposalEvents.proposalId, p.id)))
      .orderBy(asc(proposalEvents.at), asc(proposalEvents.id)),
  ]);
  const rendered = renderProposal(
    p,
    names,
    format,
    {
      clientName: row.clientName,
      signerName: signers[0]?.name ?? row.clientName,
      firmName: row.firmName,
      today: todayIn(format.timeZone, p.answeredAt ?? new Date()),
      expiresOn: p.expiresOn,
    },
    { packageIndex: chosenPackage, addOnIndexes: p.chosenAddOns ?? [] },
  );
  const signed = signers.flatMap((s) =>
    s.signedAt && s.signature && s.signatureKind
      ? [
          {
            name: s.name,
            email: s.email,
            signedAt: s.signedAt,
            kind: s.signatureKind,
            signature: s.signature,
            consentText: s.consentText ?? '',
          },
        ]
      : [],
  );
  const chosenAddOns = p.chosenAddOns ?? [];
  // What was agreed, canonically: the hash a reader can recompute from the proposal's record.
  const contentSha256 = createHash('sha256')
    .update(
      JSON.stringify({
        letter: rendered.letterHtml,
        package: rendered.packages[chosenPackage],
        addOns: chosenAddOns.map((i) => rendered.addOns[i]),
        terms: rendered.terms,
        signatures: signed.map((s) => [s.name, s.email, s.signedAt.toISOString(), s.kind, s.signature]),
      }),
    )
    .digest('hex');
  const key = await firmSigningKey(db, config, orgId);
  const pdf = await renderSealedPdf({
    firmName: row.firmName,
    clientName: row.clientName,
    title: p.title,
    rendered,
    chosenPackage,
    chosenAddOns,
    signers: signed,
    events: events.map((e) => ({
      at: e.at,
      kind: e.kind,
      who: e.who,
      detail: e.detail,
      ip: e.ip,
      userAgent: e.userAgent,
    })),
    contentSha256,
    certificateSubject: key.subject,
  });
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: `Agreement signed by ${signed.map((s) => s.name).join(' and ')}`,
    contactInfo: row.firmName,
    name: row.firmName,
    location: '',
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    // Room for the CMS with a certificate chain an uploaded PKCS#12 may bring.
    signatureLength: 16_384,
  });
  const bytes = await signpdf.sign(withPlaceholder, new CadesSigner(key.keyPem, key.certDers));
  return { bytes, contentSha256, proposal: p, clientName: row.clientName };
}

/** Seals an accepted proposal and files it; does nothing when it is already filed. */
export async function sealProposal(
  db: TDb,
  storage: TStorage,
  config: Pick<TConfig, 'vault'>,
  orgId: string,
  proposalId: string,
) {
  const [current] = await db
    .select({ documentId: proposals.documentId })
    .from(proposals)
    .where(and(eq(proposals.orgId, orgId), eq(proposals.id, proposalId)));
  if (!current || current.documentId) return null;
  const built = await buildSealedPdf(db, config, orgId, proposalId);
  if (!built) return null;
  const { proposal: p } = built;
  const storageKey = `${orgId}/${uuidv7()}`;
  await storage.put(storageKey, Readable.from([built.bytes]), { contentType: 'application/pdf' });
  const root = await ensureTree(db, { orgId, clientId: p.clientId, clientName: built.clientName });
  return db.transaction(async (tx) => {
    const [again] = await tx
      .select({ documentId: proposals.documentId })
      .from(proposals)
      .where(and(eq(proposals.orgId, orgId), eq(proposals.id, p.id)))
      .for('update');
    if (again?.documentId) return null;
    let [folder] = await tx
      .select()
      .from(documentFolders)
      .where(
        and(
          eq(documentFolders.orgId, orgId),
          eq(documentFolders.parentId, root.id),
          eq(documentFolders.name, SEALED_FOLDER),
          isNull(documentFolders.deletedAt),
        ),
      )
      .limit(1);
    if (!folder) {
      [folder] = await tx
        .insert(documentFolders)
        .values({
          orgId,
          clientId: p.clientId,
          parentId: root.id,
          name: SEALED_FOLDER,
          visibleToPortal: true,
        })
        .returning();
    }
    if (!folder) throw new Error('folder not made');
    let by = p.createdBy;
    if (!by) {
      const [owner] = await tx
        .select({ id: members.id })
        .from(members)
        .where(and(eq(members.orgId, orgId), eq(members.isOwner, true)))
        .limit(1);
      by = owner?.id ?? null;
    }
    if (!by) throw new PermanentJobError('no member to file the document as');
    const safeTitle =
      p.title
        .replace(/[\\/:*?"<>|]+/g, ' ')
        .slice(0, 150)
        .trim() || 'Agreement';
    const { doc } = await storeVersion(tx, {
      orgId,
      folder: { id: folder.id, clientId: p.clientId },
      existing: undefined,
      name: `${safeTitle} (signed ${p.id.slice(-6)}).pdf`,
      upload: {
        name: `${safeTitle}.pdf`,
        size: built.bytes.length,
        contentType: 'application/pdf',
        checksumSha256: createHash('sha256').update(built.bytes).digest('hex'),
        storageKey,
      },
      visibleToPortal: true,
      by: { memberId: by },
    });
    await tx
      .update(proposals)
      .set({ documentId: doc.id, contentSha256: built.contentSha256, updatedAt: new Date() })
      .where(and(eq(proposals.orgId, orgId), eq(proposals.id, p.id)));
    await audit(
      tx,
      { kind: 'system', orgId },
      {
        action: 'proposal.seal',
        recordType: 'proposal',
        recordId: p.id,
        summary: `Sealed “${p.title}” as a signed PDF in ${built.clientName}'s documents (${SEALED_FOLDER}, shared with the client)`,
      },
    );
    return { documentId: doc.id };
  });
}

export function registerProposalJobs(storage: TStorage) {
  registerProposalReminderJob();
  registerProposalFollowUpJob();
  registerJob(PROPOSAL_SEAL, async (job, ctx) => {
    const payload = ZPayload.safeParse(job.payload);
    if (!payload.success) throw new PermanentJobError('The seal job names no proposal');
    await sealProposal(ctx.db, storage, ctx.config, payload.data.orgId, payload.data.proposalId);
  });
}
