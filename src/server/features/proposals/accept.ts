import { and, eq } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import type { TExecutor } from '../../db/client';
import { clients, proposals } from '../../db/schema';
import { enqueue } from '../../jobs/queue';
import { insertEngagement } from '../engagements';
import { notify } from '../notifications';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { recordEvent } from './events';
import { PROPOSAL_FOLLOW_UP, type TFollowUpPayload } from './follow-up';
import { PROPOSAL_SEAL } from './seal';

type TAccepted = {
  kind: (typeof proposals.$inferSelect)['kind'];
  orgId: string;
  id: string;
  title: string;
  clientId: string;
  createdBy: string | null;
  packages: (typeof proposals.$inferSelect)['packages'];
  addOns: (typeof proposals.$inferSelect)['addOns'];
  followUp: (typeof proposals.$inferSelect)['followUp'];
};

/**
 * The last signature: the proposal is accepted, a prospect becomes a client, each chosen service
 * becomes an engagement with its fee arrangement (and its recurring projects, through the
 * engagements feature, as on screen), and the member who sent it is told. One transaction.
 */
export async function acceptProposal(
  tx: TExecutor,
  p: TAccepted,
  choice: { packageIndex: number; addOnIndexes: number[] },
) {
  if (p.kind === 'document') return acceptDocument(tx, p);
  const format = await firmFormatter(tx, p.orgId);
  const today = todayIn(format.timeZone);
  const chosen = [
    ...(p.packages[choice.packageIndex]?.services ?? []),
    ...choice.addOnIndexes.flatMap((i) => (p.addOns[i] ? [p.addOns[i]] : [])),
  ];
  const [client] = await tx
    .update(clients)
    .set({ prospect: false, updatedAt: new Date() })
    .where(and(eq(clients.orgId, p.orgId), eq(clients.id, p.clientId)))
    .returning({ name: clients.name });
  const made: string[] = [];
  const engagementIds: string[] = [];
  for (const s of chosen) {
    const e = await insertEngagement(tx, p.orgId, p.clientId, {
      serviceId: s.serviceId,
      startDate: today,
      fee: s.fee,
      billingMode: s.billingMode,
      feeTrigger: s.feeTrigger,
      notes: `From the proposal “${p.title}”${s.description ? `: ${s.description}` : ''}`.slice(0, 2000),
    });
    made.push(e.serviceName);
    engagementIds.push(e.id);
  }
  await tx
    .update(proposals)
    .set({ status: 'accepted', answeredAt: new Date(), updatedAt: new Date() })
    .where(and(eq(proposals.orgId, p.orgId), eq(proposals.id, p.id)));
  await recordEvent(tx, {
    orgId: p.orgId,
    proposalId: p.id,
    kind: 'accepted',
    who: 'Everyone signed',
    detail: made.length ? `Engagements: ${made.join(', ')}` : '',
  });
  await audit(
    tx,
    { kind: 'system', orgId: p.orgId },
    {
      action: 'proposal.accept',
      recordType: 'proposal',
      recordId: p.id,
      summary: `${client?.name ?? 'The client'} accepted “${p.title}”: ${made.length} engagement${made.length === 1 ? '' : 's'} added (${made.join(', ')})`,
    },
  );
  // The sealed PDF is made by a job, committed with the acceptance (see seal.ts).
  await enqueue(
    tx,
    PROPOSAL_SEAL,
    { orgId: p.orgId, proposalId: p.id },
    {
      orgId: p.orgId,
      dedupeKey: `${PROPOSAL_SEAL}:${p.id}`,
      maxAttempts: 5,
    },
  );
  // The first invoice or retainer and the onboarding request, as the proposal says: a job too.
  if (p.followUp.billing !== 'none' || p.followUp.requestTemplateId) {
    const payload: TFollowUpPayload = { orgId: p.orgId, proposalId: p.id, engagementIds };
    await enqueue(tx, PROPOSAL_FOLLOW_UP, payload, {
      orgId: p.orgId,
      dedupeKey: `${PROPOSAL_FOLLOW_UP}:${p.id}`,
      maxAttempts: 5,
    });
  }
  if (p.createdBy) {
    await notify(tx, {
      orgId: p.orgId,
      memberIds: [p.createdBy],
      kind: 'proposal.answered',
      title: `${client?.name ?? 'A client'} signed “${p.title}”`,
      body: made.length ? `Engagements added: ${made.join(', ')}` : undefined,
      link: `/proposals/${p.id}`,
    });
  }
}

const enqueueSeal = (tx: TExecutor, p: { orgId: string; id: string }) =>
  enqueue(
    tx,
    PROPOSAL_SEAL,
    { orgId: p.orgId, proposalId: p.id },
    { orgId: p.orgId, dedupeKey: `${PROPOSAL_SEAL}:${p.id}`, maxAttempts: 5 },
  );

/** A signature request signed by everyone: it is done, and the seal job files the signed copy. */
async function acceptDocument(tx: TExecutor, p: TAccepted) {
  await tx
    .update(proposals)
    .set({ status: 'accepted', answeredAt: new Date(), updatedAt: new Date() })
    .where(and(eq(proposals.orgId, p.orgId), eq(proposals.id, p.id)));
  const [client] = await tx
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.orgId, p.orgId), eq(clients.id, p.clientId)));
  await recordEvent(tx, { orgId: p.orgId, proposalId: p.id, kind: 'accepted', who: 'Everyone signed' });
  await audit(
    tx,
    { kind: 'system', orgId: p.orgId },
    {
      action: 'proposal.accept',
      recordType: 'proposal',
      recordId: p.id,
      summary: `Everyone signed “${p.title}” for ${client?.name ?? 'a client'}`,
    },
  );
  await enqueueSeal(tx, p);
  if (p.createdBy) {
    await notify(tx, {
      orgId: p.orgId,
      memberIds: [p.createdBy],
      kind: 'proposal.answered',
      title: `Everyone signed “${p.title}”`,
      body: client?.name,
      link: `/proposals/${p.id}`,
    });
  }
}
