import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { isRetainer } from '../../../domain/proposals';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { clients, proposals } from '../../db/schema';
import { PermanentJobError, registerJob } from '../../jobs/registry';
import { billEngagementFees, raiseRetainerInvoice } from '../billing';
import { notify } from '../notifications';
import { requestFromTemplate } from '../requests';
import { audit } from '../system-log';

// What follows an acceptance, as the proposal says (its template's choice, copied): the first
// invoice for the accepted fixed fees or a retainer invoice, and the onboarding request from a
// request template. A job committed with the acceptance, so a failure here never undoes a
// signature. Exactly once: the proposal row is locked and followed_up_at is set in the transaction
// that makes the invoice and the request; a second run (retry, another instance) finds it set.

export const PROPOSAL_FOLLOW_UP = 'proposals.followUp';
const ZPayload = z.object({
  orgId: z.uuid(),
  proposalId: z.uuid(),
  engagementIds: z.array(z.uuid()).max(100).default([]),
});
export type TFollowUpPayload = z.input<typeof ZPayload>;

type TDeps = { config: Pick<TConfig, 'publicUrl'> };

/** A step that a firm's data refuses (a rule of billing, say) is reported, not retried forever. */
async function step<T>(tx: TExecutor, run: (tx: TExecutor) => Promise<T>): Promise<T | { refused: string }> {
  try {
    return await tx.transaction(run);
  } catch (error) {
    if (error instanceof TRPCError) return { refused: error.message };
    throw error;
  }
}
const refused = (x: unknown): x is { refused: string } => !!x && typeof x === 'object' && 'refused' in x;

export async function followUpProposal(db: TDb, deps: TDeps, payload: TFollowUpPayload) {
  const { orgId, proposalId, engagementIds } = ZPayload.parse(payload);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ p: proposals, clientName: clients.name })
      .from(proposals)
      .innerJoin(clients, and(eq(clients.orgId, proposals.orgId), eq(clients.id, proposals.clientId)))
      .where(and(eq(proposals.orgId, orgId), eq(proposals.id, proposalId)))
      .for('update', { of: proposals });
    if (row?.p.status !== 'accepted' || row.p.followedUpAt) return null;
    const { p, clientName } = row;
    const f = p.followUp;
    const why = `as the proposal “${p.title}” was accepted`;
    const done: string[] = [];
    const problems: string[] = [];
    let invoiceId: string | null = null;
    let requestId: string | null = null;
    if (f.billing === 'fees_draft' || f.billing === 'fees_issued') {
      const made = await step(tx, (t) =>
        billEngagementFees(t, {
          orgId,
          clientId: p.clientId,
          engagementIds,
          issue: f.billing === 'fees_issued',
          why,
          notes: `From the proposal “${p.title}”`.slice(0, 2000),
        }),
      );
      if (refused(made)) problems.push(`the first invoice was not made: ${made.refused}`);
      else if (made) {
        invoiceId = made.invoiceId;
        done.push(f.billing === 'fees_issued' ? 'issued the first invoice' : 'drafted the first invoice');
      } else done.push('no fixed fee was left to bill');
    } else if (isRetainer(f.billing) && f.retainer) {
      const amount = f.retainer;
      const made = await step(tx, (t) =>
        raiseRetainerInvoice(t, {
          orgId,
          clientId: p.clientId,
          amount,
          description: `Retainer: ${p.title}`,
          issue: f.billing === 'retainer_issued',
          why,
        }),
      );
      if (refused(made)) problems.push(`the retainer invoice was not made: ${made.refused}`);
      else {
        invoiceId = made.invoiceId;
        done.push(
          f.billing === 'retainer_issued' ? 'issued the retainer invoice' : 'drafted the retainer invoice',
        );
      }
    }
    if (f.requestTemplateId) {
      const templateId = f.requestTemplateId;
      const made = await step(tx, (t) =>
        requestFromTemplate(t, deps, {
          orgId,
          clientId: p.clientId,
          requestTemplateId: templateId,
          dueInDays: f.requestDueDays,
          why,
        }),
      );
      if (refused(made)) problems.push(`the onboarding request was not made: ${made.refused}`);
      else if (!made) problems.push('the onboarding request was not made: its template was deleted');
      else {
        requestId = made.id;
        done.push(
          made.status === 'sent'
            ? `sent the onboarding request to ${made.mailed.join(', ')}`
            : 'kept the onboarding request as a draft (nobody uses the portal for the client yet)',
        );
      }
    }
    await tx
      .update(proposals)
      .set({ invoiceId, requestId, followedUpAt: new Date(), updatedAt: new Date() })
      .where(and(eq(proposals.orgId, orgId), eq(proposals.id, p.id)));
    const summary = [...done, ...problems].join('; ');
    await audit(
      tx,
      { kind: 'system', orgId },
      {
        action: 'proposal.followUp',
        recordType: 'proposal',
        recordId: p.id,
        summary: `After ${clientName} accepted “${p.title}”: ${summary || 'nothing to do'}`.slice(0, 2000),
      },
    );
    if (p.createdBy && (done.length || problems.length)) {
      await notify(tx, {
        orgId,
        memberIds: [p.createdBy],
        kind: 'proposal.answered',
        title: problems.length
          ? `“${p.title}”: the follow-up needs you`
          : `“${p.title}”: the follow-up is done`,
        body: summary.slice(0, 500),
        link: `/proposals/${p.id}`,
      });
    }
    return { invoiceId, requestId, problems };
  });
}

export function registerProposalFollowUpJob() {
  registerJob(PROPOSAL_FOLLOW_UP, async (job, ctx) => {
    const payload = ZPayload.safeParse(job.payload);
    if (!payload.success) throw new PermanentJobError('The follow-up job names no proposal');
    await followUpProposal(ctx.db, ctx, payload.data);
  });
}
