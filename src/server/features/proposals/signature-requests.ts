import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { escapeHtml } from '../../../domain/broadcasts';
import { todayIn } from '../../../domain/days';
import type { ZSignatureRequest } from '../../../domain/proposals';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { proposals } from '../../db/schema';
import { visibleClient } from '../clients';
import { liveDocument } from '../documents';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { recordEvent } from './events';
import { replaceSigners, sendInTransaction, type TDeps } from './service';

// Standalone signature requests (issue 37 item 7): any PDF in a client's documents (a consent form,
// a board resolution, a return to approve) sent to signers with the proposals' signing flow (the
// mailed link and code, typed or drawn signature, consent, in turn or in any order). Kept as a
// proposal of kind 'document' naming the file and its version; once everyone signed, the seal job
// files the original pages and a certificate page, sealed PAdES, next to the original.

export async function requestSignature(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZSignatureRequest>,
  meta: TRequestMeta,
  deps: TDeps,
) {
  return db.transaction(async (tx) => {
    const { doc, path } = await liveDocument(tx, scope, input.documentId);
    if (!doc.clientId) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: "Only a file in a client's documents can be signed",
      });
    }
    const client = await visibleClient(tx, scope, doc.clientId);
    if (doc.contentType !== 'application/pdf') {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only a PDF can be sent for signature' });
    }
    const format = await firmFormatter(tx, scope.orgId);
    if (input.expiresOn < todayIn(format.timeZone)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The expiry date has passed: choose a later one' });
    }
    const [row] = await tx
      .insert(proposals)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        kind: 'document',
        sourceDocumentId: doc.id,
        sourceVersion: doc.currentVersion,
        title: input.title,
        letterHtml: input.message.trim()
          ? input.message
              .trim()
              .split(/\n{2,}/)
              .map((para) => `<p>${escapeHtml(para)}</p>`)
              .join('')
          : `<p>Please review “${escapeHtml(doc.name)}” and sign it.</p>`,
        packages: [],
        addOns: [],
        signingOrder: input.signingOrder,
        expiresOn: input.expiresOn,
        createdBy: scope.memberId,
      })
      .returning({ id: proposals.id });
    if (!row) throw new Error('signature request not created');
    await replaceSigners(tx, scope.orgId, row.id, input.signers);
    await recordEvent(tx, {
      orgId: scope.orgId,
      proposalId: row.id,
      kind: 'created',
      who: 'Firm',
      detail: `${doc.name} (version ${doc.currentVersion})`,
      meta,
    });
    await audit(tx, actorOf(scope, meta), {
      action: 'proposal.requestSignature',
      recordType: 'proposal',
      recordId: row.id,
      summary:
        `Asked ${input.signers.map((s) => s.name).join(', ')} to sign ${[...path.map((f) => f.name), doc.name].join(' / ')} of ${client.name}`.slice(
          0,
          2000,
        ),
    });
    await sendInTransaction(tx, scope, row.id, meta, deps);
    return { id: row.id };
  });
}
