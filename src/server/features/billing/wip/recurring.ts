import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { feeMinor } from '../../../../domain/billing/wip';
import { todayIn } from '../../../../domain/days';
import type { TExecutor } from '../../../db/client';
import { clients } from '../../../db/schema';
import { rowsOf } from '../../../db/sql';
import { audit } from '../../system-log';
import { billingContext } from '../context';
import { issueInvoice } from '../issue';
import { createDraft, recomputeInvoice, type TDraftLine } from '../ledger';
import { summaryOf, systemActor } from './invoice';
import { isDeadlock, wipLines } from './lines';
import { dueFeePeriods, type TFeePeriodRow } from './sql';

// Fixed fees that bill themselves: as their period starts (the job that makes the period's project
// calls billRecurringFees), or as the period's project is completed (billProjectFee). Exactly once
// per engagement and period, whatever runs at once: the partial unique index on invoice_lines turns
// the second attempt into a CONFLICT, which here means "billed already" and is passed over.

/**
 * How far back the job reaches: the current period and one that ended within this many days (a run
 * that was missed). Older unbilled periods (an engagement entered with a start date long past) wait
 * in work in progress for a person, rather than raising a pile of invoices at once.
 */
export const RECURRING_LOOKBACK_DAYS = 31;

const isConflict = (error: unknown) =>
  (error instanceof TRPCError && error.code === 'CONFLICT') || isDeadlock(error);

type TGroup = { orgId: string; clientId: string; periods: TFeePeriodRow[] };

function groupsOf(rows: TFeePeriodRow[]): TGroup[] {
  const groups = new Map<string, TGroup>();
  for (const r of rows) {
    const key = `${r.org_id}|${r.client_id}|${r.period_start}`;
    const group = groups.get(key) ?? { orgId: r.org_id, clientId: r.client_id, periods: [] };
    group.periods.push(r);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * One invoice for a client's fees of one period, made by the system: a draft, or issued when the
 * firm bills recurring fees straight away. Null when nothing of it is due any more (billed by
 * someone else meanwhile).
 */
async function billGroup(db: TExecutor, group: TGroup, why: string, now: Date): Promise<string | null> {
  const wanted = new Set(group.periods.map((p) => `${p.engagement_id}|${p.period_start}`));
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const made = await raiseFeeInvoice(tx, {
          orgId: group.orgId,
          clientId: group.clientId,
          wanted: (p) => wanted.has(`${p.engagement_id}|${p.period_start}`),
          recurring: true,
          // Issued as the firm bills recurring fees: straight away, or a draft for a person.
          issue: (ctx) => ctx.settings.recurringMode === 'issue',
          why,
          now,
        });
        return made?.invoiceId ?? null;
      });
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (attempt >= 3) return null;
    }
  }
}

type TBillingContext = Awaited<ReturnType<typeof billingContext>>;

/**
 * One invoice, made by the system in the caller's transaction, for the client's fixed fees that are
 * still due and never billed and that `wanted` picks (another instance may have billed some since
 * the caller looked); null when none is left.
 */
async function raiseFeeInvoice(
  tx: TExecutor,
  input: {
    orgId: string;
    clientId: string;
    wanted: (period: TFeePeriodRow) => boolean;
    recurring?: boolean;
    issue: (ctx: TBillingContext) => boolean;
    why: string;
    notes?: string;
    now: Date;
  },
): Promise<{ invoiceId: string; total: number } | null> {
  const { orgId, clientId, now } = input;
  const due = rowsOf<TFeePeriodRow>(
    await tx.execute(dueFeePeriods({ orgId, clientId, now, neverBilled: true })),
  ).filter(input.wanted);
  if (!due.length) return null;
  const ctx = await billingContext(tx, orgId);
  const fees = due.map((p) => ({ engagementId: p.engagement_id, periodStart: p.period_start }));
  const lines = await wipLines(
    tx,
    ctx,
    orgId,
    clientId,
    { timeEntryIds: [], fees, disbursementIds: [], groupTimeBy: 'service' },
    now,
  );
  return raiseSystemInvoice(tx, ctx, {
    orgId,
    clientId,
    lines,
    notes: input.notes,
    recurring: input.recurring,
    what: `the invoice for ${lines.map((l) => l.description).join(', ')}`,
    why: input.why,
    issue: input.issue(ctx),
    now,
  });
}

/**
 * The fees of trigger "when the period starts" that are due: the job that makes each period's
 * project runs this after it (for one engagement when that engagement is saved).
 */
export async function billRecurringFees(
  db: TExecutor,
  options: { orgId?: string; engagementId?: string; now?: Date } = {},
): Promise<{ invoices: number }> {
  const now = options.now ?? new Date();
  const rows = rowsOf<TFeePeriodRow>(
    await db.execute(
      dueFeePeriods({
        orgId: options.orgId,
        engagementId: options.engagementId,
        triggers: ['period_start'],
        neverBilled: true,
        recentDays: RECURRING_LOOKBACK_DAYS,
        now,
      }),
    ),
  );
  let invoices = 0;
  for (const group of groupsOf(rows)) {
    if (await billGroup(db, group, 'as its period started', now)) invoices += 1;
  }
  return { invoices };
}

/**
 * The fee of a project's period, raised now (an automation's "raise the period's invoice"): any
 * fee trigger whose period is due (a project_complete one still waits for the completion). Exactly
 * once per engagement and period as above; null when nothing of it is left to bill.
 */
export async function billProjectPeriod(
  tx: TExecutor,
  orgId: string,
  projectId: string,
  now = new Date(),
): Promise<{ invoiceId: string | null }> {
  const rows = rowsOf<TFeePeriodRow>(
    await tx.execute(dueFeePeriods({ orgId, projectId, neverBilled: true, now })),
  );
  let invoiceId: string | null = null;
  for (const group of groupsOf(rows)) {
    invoiceId = (await billGroup(tx, group, 'by an automation rule', now)) ?? invoiceId;
  }
  return { invoiceId };
}

/**
 * A project of an engagement whose fee is billed "when the period's project is completed" has just
 * been completed (in the caller's transaction): bill that period's fee. A savepoint keeps the
 * completion whatever billing answers.
 */
export async function billProjectFee(
  tx: TExecutor,
  orgId: string,
  projectId: string,
  now = new Date(),
): Promise<{ invoiceId: string | null }> {
  const rows = rowsOf<TFeePeriodRow>(
    await tx.execute(
      dueFeePeriods({ orgId, projectId, triggers: ['project_complete'], neverBilled: true, now }),
    ),
  );
  let invoiceId: string | null = null;
  for (const group of groupsOf(rows)) {
    invoiceId = (await billGroup(tx, group, 'as its project was completed', now)) ?? invoiceId;
  }
  return { invoiceId };
}

/**
 * An accepted proposal's first invoice (issue 37): the fixed fees of the named engagements that are
 * due now and never billed, on one invoice made by the system, a draft or issued, in the caller's
 * transaction. Fees billed already (as their period started, when the engagement was saved) are
 * passed over; null when nothing is left to bill.
 */
export async function billEngagementFees(
  tx: TExecutor,
  input: {
    orgId: string;
    clientId: string;
    engagementIds: readonly string[];
    issue: boolean;
    why: string;
    notes?: string;
    now?: Date;
  },
): Promise<{ invoiceId: string; total: number } | null> {
  if (!input.engagementIds.length) return null;
  const wanted = new Set(input.engagementIds);
  return raiseFeeInvoice(tx, {
    orgId: input.orgId,
    clientId: input.clientId,
    wanted: (p) => wanted.has(p.engagement_id),
    issue: () => input.issue,
    why: input.why,
    notes: input.notes,
    now: input.now ?? new Date(),
  });
}

/**
 * An invoice the system makes in the caller's transaction (an accepted proposal's first invoice, a
 * retainer): the draft and its totals, its log entry, and issued when asked.
 */
async function raiseSystemInvoice(
  tx: TExecutor,
  ctx: TBillingContext,
  input: {
    orgId: string;
    clientId: string;
    lines: TDraftLine[];
    notes?: string;
    /** A fixed fee billed by the recurring rule (marked so on the invoice). */
    recurring?: boolean;
    /** "the retainer invoice": what the log entry says was made. */
    what: string;
    why: string;
    issue: boolean;
    now: Date;
  },
): Promise<{ invoiceId: string; total: number }> {
  const { orgId, clientId, lines } = input;
  const { id } = await createDraft(
    tx,
    orgId,
    { clientId, lines, notes: input.notes, recurring: input.recurring, createdBy: null },
    ctx,
  );
  const invoice = await recomputeInvoice(tx, orgId, id, ctx);
  const [client] = await tx
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId)));
  await audit(tx, systemActor(orgId), {
    action: 'invoice.create',
    recordType: 'invoice',
    recordId: id,
    summary:
      `Made ${input.what} of ${client?.name ?? 'a client'} ${input.why}: ${summaryOf(ctx, lines, invoice.total)}`.slice(
        0,
        2000,
      ),
  });
  if (input.issue) {
    await issueInvoice(
      tx,
      systemActor(orgId),
      id,
      { memberId: null, issueDate: todayIn(ctx.firm.timeZone, input.now) },
      ctx,
    );
  }
  return { invoiceId: id, total: invoice.total };
}

/**
 * A retainer invoice of one amount (the firm's currency, as a decimal string), made by the system
 * in the caller's transaction: a draft, or issued. A plain line: it bills no work, so the work it
 * pays for is billed later as usual and the retainer is settled against it as a credit.
 */
export async function raiseRetainerInvoice(
  tx: TExecutor,
  input: {
    orgId: string;
    clientId: string;
    amount: string;
    description: string;
    issue: boolean;
    why: string;
    now?: Date;
  },
): Promise<{ invoiceId: string; total: number }> {
  const now = input.now ?? new Date();
  const { orgId, clientId } = input;
  const ctx = await billingContext(tx, orgId);
  const rate = feeMinor(input.amount, ctx.digits);
  if (!rate || rate <= 0)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'A retainer needs its amount' });
  const lines: TDraftLine[] = [
    {
      description: input.description.slice(0, 500),
      serviceId: null,
      taxCode: '',
      quantityMilli: 1000,
      rate,
      discount: 0,
      taxRateBp: 0,
    },
  ];
  return raiseSystemInvoice(tx, ctx, {
    orgId,
    clientId,
    lines,
    what: 'the retainer invoice',
    why: input.why,
    issue: input.issue,
    now,
  });
}
