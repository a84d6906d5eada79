import { TRPCError } from '@trpc/server';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DISBURSEMENT_KIND_LABELS, MAX_LINES } from '../../../../domain/billing/constants';
import {
  feeMinor,
  minutesToMilli,
  type TFeePeriodRef,
  type TTimeGrouping,
} from '../../../../domain/billing/wip';
import type { TExecutor } from '../../../db/client';
import { clientServices, disbursements, invoiceLines, services, timesheetEntries } from '../../../db/schema';
import { rowsOf } from '../../../db/sql';
import type { TBillingContext } from '../context';
import { ALREADY_BILLED, PERIOD_BILLED, type TDraftLine } from '../ledger';
import { feeDescription, openTimeOf, type TDetailTimeRow } from './read';
import { dueFeePeriods, type TFeePeriodRow } from './sql';

// From what a person chose in work in progress to the lines of a draft. Everything chosen must still
// be unbilled: what was billed meanwhile answers CONFLICT (the ledger's links check it again as they
// are made, so two people billing the same work at once cannot both succeed).

export type TWipSelection = {
  timeEntryIds: readonly string[];
  fees: readonly TFeePeriodRef[];
  disbursementIds: readonly string[];
  groupTimeBy: TTimeGrouping;
};

const unique = <T>(xs: readonly T[]) => [...new Set(xs)];

/** Why chosen time is not in WIP: another client's or firm's (NOT_FOUND), billed, or not billable. */
async function refuseTime(
  tx: TExecutor,
  orgId: string,
  clientId: string,
  missing: string[],
  open: TDetailTimeRow[],
) {
  const rows = await tx
    .select({ id: timesheetEntries.id, lineId: timesheetEntries.invoiceLineId })
    .from(timesheetEntries)
    .where(
      and(
        eq(timesheetEntries.orgId, orgId),
        eq(timesheetEntries.clientId, clientId),
        inArray(timesheetEntries.id, missing),
      ),
    );
  if (rows.length < missing.length)
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Some of the chosen time was not found' });
  if (rows.some((r) => r.lineId)) throw new TRPCError({ code: 'CONFLICT', message: ALREADY_BILLED });
  if (open.some((r) => missing.includes(r.id) && r.mode === 'fixed'))
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Time covered by a fixed fee is billed with its fee: choose the fee instead',
    });
  throw new TRPCError({
    code: 'CONFLICT',
    message: 'Some of the chosen time is no longer approved billable work: refresh work in progress',
  });
}

async function refuseFee(tx: TExecutor, orgId: string, clientId: string, ref: TFeePeriodRef): Promise<never> {
  const [engagement] = await tx
    .select({ id: clientServices.id })
    .from(clientServices)
    .where(
      and(
        eq(clientServices.orgId, orgId),
        eq(clientServices.id, ref.engagementId),
        eq(clientServices.clientId, clientId),
      ),
    );
  if (!engagement) throw new TRPCError({ code: 'NOT_FOUND', message: 'Engagement not found' });
  const [billed] = await tx
    .select({ id: invoiceLines.id })
    .from(invoiceLines)
    .where(
      and(
        eq(invoiceLines.orgId, orgId),
        eq(invoiceLines.engagementId, ref.engagementId),
        eq(invoiceLines.periodStart, ref.periodStart),
        eq(invoiceLines.kind, 'fee'),
        eq(invoiceLines.released, false),
      ),
    );
  if (billed) throw new TRPCError({ code: 'CONFLICT', message: PERIOD_BILLED });
  throw new TRPCError({
    code: 'BAD_REQUEST',
    message: 'That fee is not due for that period: refresh work in progress',
  });
}

function hoursRange(ctx: TBillingContext, dates: string[]) {
  const sorted = [...dates].sort();
  const first = sorted[0] ?? '';
  const last = sorted[sorted.length - 1] ?? first;
  return first === last
    ? `on ${ctx.format.date(first)}`
    : `from ${ctx.format.date(first)} to ${ctx.format.date(last)}`;
}

type TServiceTax = Map<string, { taxCode: string; taxRateBp: number | null }>;

async function serviceTaxes(tx: TExecutor, orgId: string, ids: (string | null)[]): Promise<TServiceTax> {
  const wanted = unique(ids.filter((id): id is string => !!id));
  if (!wanted.length) return new Map();
  const rows = await tx
    .select({ id: services.id, taxCode: services.taxCode, taxRateBp: services.taxRateBp })
    .from(services)
    .where(and(eq(services.orgId, orgId), inArray(services.id, wanted)));
  return new Map(rows.map((r) => [r.id, { taxCode: r.taxCode, taxRateBp: r.taxRateBp }]));
}

const taxOf = (ctx: TBillingContext, taxes: TServiceTax, serviceId: string | null) => {
  const tax = serviceId ? taxes.get(serviceId) : undefined;
  return { taxCode: tax?.taxCode ?? '', taxRateBp: tax?.taxRateBp ?? ctx.settings.defaultTaxRateBp };
};

const only = <T>(xs: T[]): T | null => (new Set(xs).size === 1 ? (xs[0] ?? null) : null);

/** Time lines: a line per group, hours in thousandths, the entries' rate or their average. */
function timeLines(
  ctx: TBillingContext,
  taxes: TServiceTax,
  entries: TDetailTimeRow[],
  groupBy: TTimeGrouping,
): TDraftLine[] {
  const groups = new Map<string, TDetailTimeRow[]>();
  for (const e of entries) {
    const key =
      groupBy === 'entry' ? e.id : groupBy === 'project' ? (e.project_id ?? '') : (e.service_id ?? '');
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()].map((group) => {
    const minutes = group.reduce((s, e) => s + e.minutes, 0);
    const value = group.reduce((s, e) => s + Number(e.value), 0);
    const quantityMilli = Math.max(1, minutesToMilli(minutes));
    const uniformRate = only(group.map((e) => e.bill_rate ?? 0));
    const rate = uniformRate ?? Math.round((value * 1000) / quantityMilli);
    const serviceId = only(group.map((e) => e.service_id));
    const projectId = only(group.map((e) => e.project_id));
    const first = group[0] as TDetailTimeRow;
    const what =
      groupBy === 'entry'
        ? `${first.member_name}: ${first.note || first.task_title || first.service_name || 'Work'}`
        : groupBy === 'project'
          ? (first.project_name ?? (serviceId ? first.service_name : null) ?? 'Other work')
          : (first.service_name ?? 'Other work');
    const when = hoursRange(
      ctx,
      group.map((e) => e.date),
    );
    return {
      kind: 'time' as const,
      description: (groupBy === 'entry'
        ? `${ctx.format.date(first.date)} · ${what}`
        : `${what}: work ${when}`
      ).slice(0, 500),
      serviceId,
      projectId,
      ...taxOf(ctx, taxes, serviceId),
      quantityMilli,
      rate,
      discount: 0,
      standardValue: value,
      timeEntryIds: group.map((e) => e.id),
    };
  });
}

/**
 * Builds the draft lines for what was chosen: fees first (with the time they cover linked, their
 * standard value that time's worth, or the fee when none was logged), then time, then disbursements
 * at cost without tax. Refuses what is not (or no longer) in the client's work in progress.
 */
export async function wipLines(
  tx: TExecutor,
  ctx: TBillingContext,
  orgId: string,
  clientId: string,
  chosen: TWipSelection,
  now: Date,
): Promise<TDraftLine[]> {
  const timeIds = unique(chosen.timeEntryIds);
  const disbIds = unique(chosen.disbursementIds);
  const feeKeys = unique(chosen.fees.map((f) => `${f.engagementId}|${f.periodStart}`));
  const open = timeIds.length || feeKeys.length ? await openTimeOf(tx, orgId, clientId) : [];

  const billable = new Map(open.filter((r) => r.mode === 'hourly').map((r) => [r.id, r]));
  const missing = timeIds.filter((id) => !billable.has(id));
  if (missing.length) await refuseTime(tx, orgId, clientId, missing, open);

  let dueFees: TFeePeriodRow[] = [];
  if (feeKeys.length) {
    dueFees = rowsOf<TFeePeriodRow>(await tx.execute(dueFeePeriods({ orgId, clientId, now })));
    const due = new Set(dueFees.map((f) => `${f.engagement_id}|${f.period_start}`));
    for (const ref of chosen.fees) {
      if (!due.has(`${ref.engagementId}|${ref.periodStart}`)) await refuseFee(tx, orgId, clientId, ref);
    }
  }
  // In a fixed order, so two bills of overlapping fees queue on the same row rather than deadlock.
  const fees = dueFees
    .filter((f) => feeKeys.includes(`${f.engagement_id}|${f.period_start}`))
    .sort(
      (a, b) =>
        a.period_start.localeCompare(b.period_start) || a.engagement_id.localeCompare(b.engagement_id),
    );

  const disbRows = disbIds.length
    ? await tx
        .select()
        .from(disbursements)
        .where(
          and(
            eq(disbursements.orgId, orgId),
            eq(disbursements.clientId, clientId),
            inArray(disbursements.id, disbIds),
          ),
        )
        .orderBy(disbursements.spentOn, disbursements.createdAt)
    : [];
  if (disbRows.length < disbIds.length)
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Some of the chosen disbursements were not found' });
  if (disbRows.some((d) => d.invoiceLineId))
    throw new TRPCError({ code: 'CONFLICT', message: ALREADY_BILLED });

  const time = timeIds
    .map((id) => billable.get(id) as TDetailTimeRow)
    .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
  const taxes = await serviceTaxes(tx, orgId, [
    ...fees.map((f) => f.service_id),
    ...time.map((t) => t.service_id),
  ]);
  const lines: TDraftLine[] = [];
  for (const f of fees) {
    const fee = feeMinor(f.fee, ctx.digits) ?? 0;
    const covered = open.filter(
      (t) => t.mode === 'fixed' && t.engagement_id === f.engagement_id && t.period_start === f.period_start,
    );
    const coveredValue = covered.reduce((s, t) => s + Number(t.value), 0);
    lines.push({
      kind: 'fee',
      description: feeDescription(f),
      serviceId: f.service_id,
      projectId: f.project_id,
      engagementId: f.engagement_id,
      periodStart: f.period_start,
      ...taxOf(ctx, taxes, f.service_id),
      quantityMilli: 1000,
      rate: fee,
      discount: 0,
      standardValue: coveredValue > 0 ? coveredValue : fee,
      timeEntryIds: covered.map((t) => t.id),
    });
  }
  lines.push(...timeLines(ctx, taxes, time, chosen.groupTimeBy));
  for (const d of disbRows) {
    lines.push({
      kind: 'disbursement',
      description: `${DISBURSEMENT_KIND_LABELS[d.kind]}: ${d.description}`.slice(0, 500),
      serviceId: null,
      projectId: d.projectId,
      taxCode: '',
      taxRateBp: 0,
      quantityMilli: 1000,
      rate: d.amount,
      discount: 0,
      standardValue: d.amount,
      disbursementIds: [d.id],
    });
  }
  return lines;
}

/** Two bills of the same work at once that deadlocked: one went through, the other is told so. */
export function isDeadlock(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '40P01') return true;
  }
  return false;
}

export async function orConflict<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isDeadlock(error)) throw new TRPCError({ code: 'CONFLICT', message: ALREADY_BILLED });
    throw error;
  }
}

/** An invoice holds MAX_LINES lines: say how to make fewer rather than failing half-way. */
export async function checkLineCount(tx: TExecutor, orgId: string, invoiceId: string | null, adding: number) {
  let existing = 0;
  if (invoiceId) {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(invoiceLines)
      .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoiceId)));
    existing = row?.n ?? 0;
  }
  if (existing + adding > MAX_LINES) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `That makes ${existing + adding} lines and an invoice holds at most ${MAX_LINES}: group time by service or project, or bill fewer items`,
    });
  }
}
