import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import signpdf from '@signpdf/signpdf';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { todayIn } from '../../../domain/days';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  documentFolders,
  documents,
  documentVersions,
  members,
  orgs,
  proposalEvents,
  proposals,
} from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { PermanentJobError, registerJob } from '../../jobs/registry';
import { ensureTree, storeVersion, topFolder } from '../documents';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { firmSigningKey } from './certificate';
import { CadesSigner } from './cms';
import { registerProposalFollowUpJob } from './follow-up';
import { renderDocumentCertificate, renderSealedPdf } from './pdf';
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

/**
 * What both sealed files are made of: the accepted proposal with its client and firm, the
 * signatures given, and the audit trail in order. Null when it is not accepted.
 */
async function loadAccepted(db: TDb, orgId: string, proposalId: string) {
  const [row] = await db
    .select({ p: proposals, clientName: clients.name, firmName: orgs.name })
    .from(proposals)
    .innerJoin(clients, and(eq(clients.orgId, proposals.orgId), eq(clients.id, proposals.clientId)))
    .innerJoin(orgs, eq(orgs.id, proposals.orgId))
    .where(and(eq(proposals.orgId, orgId), eq(proposals.id, proposalId)));
  if (row?.p.status !== 'accepted') return null;
  const [signers, events] = await Promise.all([
    signersOf(db, orgId, proposalId),
    db
      .select()
      .from(proposalEvents)
      .where(and(eq(proposalEvents.orgId, orgId), eq(proposalEvents.proposalId, proposalId)))
      .orderBy(asc(proposalEvents.at), asc(proposalEvents.id)),
  ]);
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
  return {
    ...row,
    signers,
    signed,
    /** The signatures as the content hash takes them. */
    signatureParts: signed.map((s) => [s.name, s.email, s.signedAt.toISOString(), s.kind, s.signature]),
    events: events.map((e) => ({
      at: e.at,
      kind: e.kind,
      who: e.who,
      detail: e.detail,
      ip: e.ip,
      userAgent: e.userAgent,
    })),
  };
}

/** The signed PDF's bytes for an accepted proposal, and the agreement's hash. */
export async function buildSealedPdf(
  db: TDb,
  config: Pick<TConfig, 'vault'>,
  orgId: string,
  proposalId: string,
) {
  const row = await loadAccepted(db, orgId, proposalId);
  if (!row || row.p.chosenPackage === null) return null;
  const p = row.p;
  const chosenPackage = row.p.chosenPackage;
  const { signers, signed, events } = row;
  const [format, names] = await Promise.all([firmFormatter(db, orgId), serviceNames(db, orgId, p)]);
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
  const chosenAddOns = p.chosenAddOns ?? [];
  // What was agreed, canonically: the hash a reader can recompute from the proposal's record.
  const contentSha256 = createHash('sha256')
    .update(
      JSON.stringify({
        letter: rendered.letterHtml,
        package: rendered.packages[chosenPackage],
        addOns: chosenAddOns.map((i) => rendered.addOns[i]),
        terms: rendered.terms,
        signatures: row.signatureParts,
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
    events,
    contentSha256,
    certificateSubject: key.subject,
  });
  const bytes = await sealBytes(
    pdf,
    key,
    `Agreement signed by ${signed.map((s) => s.name).join(' and ')}`,
    row.firmName,
  );
  return { bytes, contentSha256, proposal: p, clientName: row.clientName, target: null };
}

async function sealBytes(
  pdf: Buffer,
  key: { keyPem: string; certDers: Buffer[] },
  reason: string,
  firmName: string,
) {
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason,
    contactInfo: firmName,
    name: firmName,
    location: '',
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    // Room for the CMS with a certificate chain an uploaded PKCS#12 may bring.
    signatureLength: 16_384,
  });
  return signpdf.sign(withPlaceholder, new CadesSigner(key.keyPem, key.certDers));
}

async function readAll(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks);
}

/**
 * A signed signature request: the original file's pages (the version sent) followed by the
 * certificate page, sealed PAdES like an agreement. Filed next to the original, shared as it is.
 */
export async function buildSealedDocument(
  db: TDb,
  storage: TStorage,
  config: Pick<TConfig, 'vault'>,
  orgId: string,
  proposalId: string,
) {
  const row = await loadAccepted(db, orgId, proposalId);
  if (row?.p.kind !== 'document') return null;
  const { signed, events } = row;
  const p = row.p;
  if (!p.sourceDocumentId || p.sourceVersion === null)
    throw new PermanentJobError('The signed document was deleted before it could be sealed');
  const [source] = await db
    .select({ doc: documents, storageKey: documentVersions.storageKey })
    .from(documents)
    .innerJoin(
      documentVersions,
      and(eq(documentVersions.orgId, documents.orgId), eq(documentVersions.documentId, documents.id)),
    )
    .where(
      and(
        eq(documents.orgId, orgId),
        eq(documents.id, p.sourceDocumentId),
        eq(documentVersions.version, p.sourceVersion),
      ),
    );
  if (!source) throw new PermanentJobError('The signed version of the document is gone');
  const stream = await storage.get(source.storageKey);
  if (!stream) throw new Error('the original file is missing from storage');
  const original = await readAll(stream);
  const originalSha256 = createHash('sha256').update(original).digest('hex');
  const contentSha256 = createHash('sha256')
    .update(
      JSON.stringify({
        original: originalSha256,
        signatures: row.signatureParts,
      }),
    )
    .digest('hex');
  let merged: PDFDocument;
  try {
    merged = await PDFDocument.load(original, { updateMetadata: false });
  } catch {
    throw new PermanentJobError('The document is not a PDF that can be signed (damaged or encrypted)');
  }
  const key = await firmSigningKey(db, config, orgId);
  const certificate = await PDFDocument.load(
    await renderDocumentCertificate({
      firmName: row.firmName,
      clientName: row.clientName,
      title: p.title,
      documentName: source.doc.name,
      documentVersion: p.sourceVersion,
      pageCount: merged.getPageCount(),
      originalSha256,
      signers: signed,
      events,
      contentSha256,
      certificateSubject: key.subject,
    }),
  );
  for (const page of await merged.copyPages(certificate, certificate.getPageIndices())) merged.addPage(page);
  // A classic cross-reference table: the placeholder is added by appending to it.
  const pdf = Buffer.from(await merged.save({ useObjectStreams: false }));
  const bytes = await sealBytes(
    pdf,
    key,
    `Signed by ${signed.map((s) => s.name).join(' and ')}`,
    row.firmName,
  );
  const base =
    source.doc.name
      .replace(/\.pdf$/i, '')
      .slice(0, 150)
      .trim() || 'Document';
  return {
    bytes,
    contentSha256,
    proposal: p,
    clientName: row.clientName,
    target: {
      folderId: source.doc.folderId,
      name: `${base} (signed ${p.id.slice(-6)}).pdf`,
      visibleToPortal: source.doc.visibleToPortal,
    },
  };
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
    .select({ documentId: proposals.documentId, kind: proposals.kind })
    .from(proposals)
    .where(and(eq(proposals.orgId, orgId), eq(proposals.id, proposalId)));
  if (!current || current.documentId) return null;
  const built =
    current.kind === 'document'
      ? await buildSealedDocument(db, storage, config, orgId, proposalId)
      : await buildSealedPdf(db, config, orgId, proposalId);
  if (!built) return null;
  const { proposal: p } = built;
  const storageKey = `${orgId}/${uuidv7()}`;
  await storage.put(storageKey, Readable.from([built.bytes]), { contentType: 'application/pdf' });
  const root = await ensureTree(db, { orgId, clientId: p.clientId, clientName: built.clientName });
  // A signed document goes next to its original while that folder is live; an agreement (or a
  // document whose folder went to the trash) into the client's "Signed agreements", made here, before
  // the transaction (documents' topFolder, which takes its own).
  const liveFolderOf = async (ex: TExecutor, folderId: string) =>
    (
      await ex
        .select()
        .from(documentFolders)
        .where(
          and(
            eq(documentFolders.orgId, orgId),
            eq(documentFolders.id, folderId),
            isNull(documentFolders.deletedAt),
          ),
        )
        .limit(1)
    )[0];
  const target: { folderId: string; name: string; visibleToPortal: boolean } | null = built.target;
  const sealedFolderId =
    target && (await liveFolderOf(db, target.folderId))
      ? null
      : await topFolder(
          db,
          root,
          { name: SEALED_FOLDER, visibleToPortal: true },
          { actor: { kind: 'system', orgId }, why: 'for signed agreements' },
        );
  return db.transaction(async (tx) => {
    const [again] = await tx
      .select({ documentId: proposals.documentId })
      .from(proposals)
      .where(and(eq(proposals.orgId, orgId), eq(proposals.id, p.id)))
      .for('update');
    if (again?.documentId) return null;
    const folder =
      (target ? await liveFolderOf(tx, target.folderId) : undefined) ??
      (sealedFolderId ? await liveFolderOf(tx, sealedFolderId) : undefined);
    // The original's folder went to the trash since the look above: the job's retry files it again.
    if (!folder) throw new Error('the folder to file the signed document in is gone');
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
      name: target?.name ?? `${safeTitle} (signed ${p.id.slice(-6)}).pdf`,
      upload: {
        name: `${safeTitle}.pdf`,
        size: built.bytes.length,
        contentType: 'application/pdf',
        checksumSha256: createHash('sha256').update(built.bytes).digest('hex'),
        storageKey,
      },
      visibleToPortal: target ? target.visibleToPortal || folder.visibleToPortal : true,
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
        summary: `Sealed “${p.title}” as a signed PDF in ${built.clientName}'s documents (${folder.name}${
          target && !(target.visibleToPortal || folder.visibleToPortal)
            ? ', internal'
            : ', shared with the client'
        })`,
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
