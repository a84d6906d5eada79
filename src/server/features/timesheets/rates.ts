import { and, eq, inArray } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { timesheetRates } from '../../db/schema';

type TRateRow = { kind: string; refId: string; rate: number };
type TRated = {
  memberId: string;
  taskId: string | null;
  serviceId: string | null;
  clientId: string | null;
};

/**
 * The billing rate of an entry: the most specific one set, task → service → client → member; and
 * the member's cost rate. Null when none is set.
 */
export function resolveRate(rates: readonly TRateRow[], entry: TRated) {
  const find = (kind: string, refId: string | null) =>
    refId ? rates.find((r) => r.kind === kind && r.refId === refId)?.rate : undefined;
  return {
    billRate:
      find('task', entry.taskId) ??
      find('service', entry.serviceId) ??
      find('client', entry.clientId) ??
      find('member', entry.memberId) ??
      null,
    costRate: find('cost', entry.memberId) ?? null,
  };
}

/** Every rate that could apply to these entries, in one query. */
export async function ratesFor(tx: TExecutor, orgId: string, entries: readonly TRated[]) {
  const refs = new Set<string>();
  for (const e of entries)
    for (const id of [e.memberId, e.taskId, e.serviceId, e.clientId]) if (id) refs.add(id);
  if (!refs.size) return [];
  return tx
    .select({ kind: timesheetRates.kind, refId: timesheetRates.refId, rate: timesheetRates.rate })
    .from(timesheetRates)
    .where(and(eq(timesheetRates.orgId, orgId), inArray(timesheetRates.refId, [...refs])));
}
