import type { TProposalEventKind } from '../../../domain/proposals';
import type { TRequestMeta } from '../../auth';
import type { TExecutor } from '../../db/client';
import { proposalEvents } from '../../db/schema';

/** One line of a proposal's audit trail, with the address and browser it came from. */
export async function recordEvent(
  tx: TExecutor,
  e: {
    orgId: string;
    proposalId: string;
    signerId?: string | null;
    kind: TProposalEventKind;
    who: string;
    detail?: string;
    meta?: TRequestMeta;
  },
) {
  await tx.insert(proposalEvents).values({
    orgId: e.orgId,
    proposalId: e.proposalId,
    signerId: e.signerId ?? null,
    kind: e.kind,
    who: e.who,
    detail: e.detail ?? '',
    ip: e.meta?.ip ?? null,
    userAgent: e.meta?.userAgent ?? null,
  });
}
