import { and, asc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import { MAX_REMINDERS, REMINDER_EVERY_DAYS } from '../../../domain/proposals';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { proposalSigners, proposals } from '../../db/schema';
import { every, registerJob } from '../../jobs/registry';
import { audit } from '../system-log';
import { recordEvent } from './events';
import { mailSigner, signersOf } from './service';

// Reminders until answered: a signer whose turn it is and who has not signed or declined is mailed
// again (a fresh link: only the newest works) every few days, a few times, while the proposal is
// sent and not expired. Each reminder is in the audit trail and the system log.

export const PROPOSAL_REMINDERS = 'proposals.remind';

export async function sendProposalReminders(db: TDb, config: Pick<TConfig, 'publicUrl'>, now = new Date()) {
  const due = new Date(now.getTime() - REMINDER_EVERY_DAYS * 86_400_000);
  const today = now.toISOString().slice(0, 10);
  const candidates = await db
    .select({ proposalId: proposals.id, orgId: proposals.orgId })
    .from(proposals)
    .innerJoin(
      proposalSigners,
      and(eq(proposalSigners.orgId, proposals.orgId), eq(proposalSigners.proposalId, proposals.id)),
    )
    .where(
      and(
        eq(proposals.status, 'sent'),
        gte(proposals.expiresOn, today),
        isNull(proposalSigners.signedAt),
        isNull(proposalSigners.declinedAt),
        lt(proposalSigners.lastMailedAt, due),
        lt(proposalSigners.remindersSent, MAX_REMINDERS),
      ),
    )
    .groupBy(proposals.id, proposals.orgId)
    .orderBy(asc(proposals.id))
    .limit(500);
  let reminded = 0;
  for (const c of candidates) {
    reminded += await db.transaction(async (tx) => {
      const [p] = await tx
        .select()
        .from(proposals)
        .where(
          and(eq(proposals.orgId, c.orgId), eq(proposals.id, c.proposalId), eq(proposals.status, 'sent')),
        )
        .for('update');
      if (!p) return 0;
      const signers = await signersOf(tx, p.orgId, p.id);
      const waiting = signers.filter((s) => !s.signedAt && !s.declinedAt);
      // In turn: only the signer whose turn it is was mailed, and only they are reminded.
      const awaited = p.signingOrder === 'sequential' ? waiting.slice(0, 1) : waiting;
      let n = 0;
      for (const s of awaited) {
        if (!s.lastMailedAt || s.lastMailedAt >= due || s.remindersSent >= MAX_REMINDERS) continue;
        await mailSigner(tx, { config }, p, s, true);
        await tx
          .update(proposalSigners)
          .set({ remindersSent: sql`${proposalSigners.remindersSent} + 1` })
          .where(and(eq(proposalSigners.orgId, p.orgId), eq(proposalSigners.id, s.id)));
        await recordEvent(tx, {
          orgId: p.orgId,
          proposalId: p.id,
          signerId: s.id,
          kind: 'reminded',
          who: 'Firm',
          detail: `Reminder ${s.remindersSent + 1} of ${MAX_REMINDERS} to ${s.name} <${s.email}>`,
        });
        await audit(
          tx,
          { kind: 'system', orgId: p.orgId },
          {
            action: 'proposal.remind',
            recordType: 'proposal',
            recordId: p.id,
            summary: `Reminded ${s.name} to sign “${p.title}”`,
          },
        );
        n += 1;
      }
      return n;
    });
  }
  return { reminded };
}

export function registerProposalReminderJob() {
  registerJob(PROPOSAL_REMINDERS, async (_job, ctx) => {
    const result = await sendProposalReminders(ctx.db, ctx.config);
    if (result.reminded) ctx.log.info(result, 'proposal reminders queued');
  });
  every(PROPOSAL_REMINDERS, 60 * 60_000);
}
