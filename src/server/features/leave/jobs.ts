import { and, eq, gte, isNull, lt, lte, sql } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import {
  carryForwardExpiresOn,
  carryForwardLapse,
  monthlyAccrual,
  yearEnd,
} from '../../../domain/leave-rules';
import type { TDb, TExecutor } from '../../db/client';
import { leaveLedger, leaveRuns, leaveTypes, members, orgs } from '../../db/schema';
import { every, registerJob } from '../../jobs/registry';
import { notify } from '../notifications';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { membersWith } from './access';
import { dropUnlinkedAttachments } from './attachments';
import { post, type TLedgerEntry } from './ledger';

// Accrual and year end run once a day on the job queue, per firm. Every entry they write carries a
// run key (kind, member, type, period), so a second run (a retry, a second instance, a manual run)
// for the same period adds nothing. Each run is recorded in leave_runs; a failed one is logged and
// told to those who manage leave.

export const LEAVE_RUN = 'leave.run';
const DAY_MS = 24 * 60 * 60_000;

type TType = typeof leaveTypes.$inferSelect;

async function activeMembers(tx: TExecutor, orgId: string) {
  return tx
    .select({ id: members.id, createdAt: members.createdAt })
    .from(members)
    .where(and(eq(members.orgId, orgId), eq(members.status, 'active')));
}

/** Yearly allocations and monthly accruals owed up to `today`'s month. */
export function accrualEntries(
  orgId: string,
  today: string,
  types: TType[],
  people: { id: string; createdAt: Date }[],
): TLedgerEntry[] {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const out: TLedgerEntry[] = [];
  for (const t of types) {
    for (const m of people) {
      const joined = m.createdAt.toISOString().slice(0, 7);
      if (t.accrual === 'yearly') {
        out.push({
          orgId,
          memberId: m.id,
          leaveTypeId: t.id,
          kind: 'allocation',
          amount: t.allowance,
          effectiveOn: `${year}-01-01`,
          runKey: `allocation:${m.id}:${t.id}:${year}`,
        });
        continue;
      }
      for (let mo = 1; mo <= month; mo++) {
        const period = `${year}-${String(mo).padStart(2, '0')}`;
        if (period < joined) continue;
        const amount = monthlyAccrual(t.allowance, mo, t.rounding);
        if (amount === 0) continue;
        out.push({
          orgId,
          memberId: m.id,
          leaveTypeId: t.id,
          kind: 'accrual',
          amount,
          effectiveOn: `${period}-01`,
          runKey: `accrual:${m.id}:${t.id}:${period}`,
        });
      }
    }
  }
  return out;
}

/** Closes `year` for every member and type and carries what the cap allows into the next one. */
async function yearEndEntries(tx: TExecutor, orgId: string, year: number, types: TType[]) {
  const sums = await tx
    .select({
      memberId: leaveLedger.memberId,
      leaveTypeId: leaveLedger.leaveTypeId,
      remaining: sql<number>`sum(${leaveLedger.amount})::int`,
      closed: sql<boolean>`bool_or(${leaveLedger.runKey} like 'close:%')`,
    })
    .from(leaveLedger)
    .where(
      and(
        eq(leaveLedger.orgId, orgId),
        gte(leaveLedger.effectiveOn, `${year}-01-01`),
        lte(leaveLedger.effectiveOn, `${year}-12-31`),
      ),
    )
    .groupBy(leaveLedger.memberId, leaveLedger.leaveTypeId);
  const byId = new Map(types.map((t) => [t.id, t]));
  const out: TLedgerEntry[] = [];
  for (const s of sums) {
    const t = byId.get(s.leaveTypeId);
    if (!t || s.closed) continue;
    const { close, carry } = yearEnd(s.remaining, t.carryForwardCap);
    const base = { orgId, memberId: s.memberId, leaveTypeId: s.leaveTypeId };
    out.push({
      ...base,
      kind: 'expiry',
      amount: close,
      effectiveOn: `${year}-12-31`,
      runKey: `close:${s.memberId}:${s.leaveTypeId}:${year}`,
      note: 'Year end',
    });
    if (carry !== 0) {
      out.push({
        ...base,
        kind: 'carry_forward',
        amount: carry,
        effectiveOn: `${year + 1}-01-01`,
        runKey: `carry:${s.memberId}:${s.leaveTypeId}:${year + 1}`,
        note: `Carried from ${year}`,
      });
    }
  }
  return out;
}

/** Carried balance past its expiry date that leave taken since the year began has not used. */
async function lapseEntries(tx: TExecutor, orgId: string, today: string, types: TType[]) {
  const year = Number(today.slice(0, 4));
  const out: TLedgerEntry[] = [];
  for (const t of types) {
    if (!t.carryForwardExpiryMonths) continue;
    const expiresOn = carryForwardExpiresOn(year, t.carryForwardExpiryMonths);
    if (today < expiresOn) continue;
    const rows = await tx
      .select({
        memberId: leaveLedger.memberId,
        carried: sql<number>`coalesce(sum(${leaveLedger.amount}) filter (where ${leaveLedger.kind} = 'carry_forward'), 0)::int`,
        taken: sql<number>`coalesce(-sum(${leaveLedger.amount}) filter (where ${leaveLedger.kind} in ('taken', 'reversal')), 0)::int`,
      })
      .from(leaveLedger)
      .where(
        and(
          eq(leaveLedger.orgId, orgId),
          eq(leaveLedger.leaveTypeId, t.id),
          gte(leaveLedger.effectiveOn, `${year}-01-01`),
          lt(leaveLedger.effectiveOn, expiresOn),
        ),
      )
      .groupBy(leaveLedger.memberId);
    for (const r of rows) {
      const lapse = carryForwardLapse(r.carried, r.taken);
      if (lapse <= 0) continue;
      out.push({
        orgId,
        memberId: r.memberId,
        leaveTypeId: t.id,
        kind: 'expiry',
        amount: -lapse,
        effectiveOn: expiresOn,
        runKey: `lapse:${r.memberId}:${t.id}:${year}`,
        note: 'Carried balance expired',
      });
    }
  }
  return out;
}

/** One firm's run for `today` (its own calendar day): accrual, last year's close, lapses. */
export async function runLeaveForOrg(db: TDb, orgId: string, today: string) {
  const period = today.slice(0, 7);
  const [run] = await db
    .insert(leaveRuns)
    .values({ orgId, kind: 'accrual', period })
    .returning({ id: leaveRuns.id });
  if (!run) throw new Error('leave run not recorded');
  try {
    const entries = await db.transaction(async (tx) => {
      const types = await tx
        .select()
        .from(leaveTypes)
        .where(and(eq(leaveTypes.orgId, orgId), isNull(leaveTypes.archivedAt)));
      const people = await activeMembers(tx, orgId);
      const year = Number(today.slice(0, 4));
      // Close last year before this year's allocations, so "carried" reads the closed figure.
      let n = await post(tx, await yearEndEntries(tx, orgId, year - 1, types));
      n += await post(tx, accrualEntries(orgId, today, types, people));
      n += await post(tx, await lapseEntries(tx, orgId, today, types));
      return n;
    });
    await db
      .update(leaveRuns)
      .set({ status: 'done', entries, finishedAt: new Date() })
      .where(and(eq(leaveRuns.orgId, orgId), eq(leaveRuns.id, run.id)));
    return { entries };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const month = (await firmFormatter(db, orgId)).date(`${period}-01`, 'month');
    await db.transaction(async (tx) => {
      await tx
        .update(leaveRuns)
        .set({ status: 'failed', error: message.slice(0, 2000), finishedAt: new Date() })
        .where(and(eq(leaveRuns.orgId, orgId), eq(leaveRuns.id, run.id)));
      await audit(
        tx,
        { kind: 'system', orgId },
        {
          action: 'leave.runFailed',
          recordType: 'leaveRun',
          recordId: run.id,
          summary: `The leave accrual run for ${month} failed: ${message}`.slice(0, 2000),
        },
      );
      await notify(tx, {
        orgId,
        memberIds: await membersWith(tx, orgId, 'leaves.edit'),
        kind: 'leave.run_failed',
        title: `The leave accrual run for ${month} failed`,
        body: message.slice(0, 2000),
        link: '/admin/hrms/leaves',
      });
    });
    throw error;
  }
}

/** Every firm with leave types, each on its own calendar day. */
export async function runLeaveForAll(db: TDb, now = new Date()) {
  const firms = await db
    .selectDistinct({ id: orgs.id, timeZone: orgs.timeZone })
    .from(orgs)
    .innerJoin(leaveTypes, eq(leaveTypes.orgId, orgs.id));
  let failed = 0;
  for (const f of firms) {
    try {
      await runLeaveForOrg(db, f.id, todayIn(f.timeZone, now));
    } catch {
      failed += 1;
    }
  }
  return { firms: firms.length, failed };
}

export function registerLeaveJobs() {
  registerJob(LEAVE_RUN, async (_job, ctx) => {
    const result = await runLeaveForAll(ctx.db);
    if (result.failed) ctx.log.warn(result, 'leave runs failed for some firms');
    await dropUnlinkedAttachments(ctx.db, new Date());
  });
  every(LEAVE_RUN, DAY_MS / 4);
}
