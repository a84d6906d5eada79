import { and, desc, eq } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { leaveRuns } from '../../db/schema';

/** The latest accrual and year-end runs of the firm, newest first. */
export function listLeaveRuns(db: TExecutor, orgId: string) {
  return db
    .select({
      id: leaveRuns.id,
      kind: leaveRuns.kind,
      period: leaveRuns.period,
      status: leaveRuns.status,
      entries: leaveRuns.entries,
      error: leaveRuns.error,
      startedAt: leaveRuns.startedAt,
      finishedAt: leaveRuns.finishedAt,
    })
    .from(leaveRuns)
    .where(and(eq(leaveRuns.orgId, orgId)))
    .orderBy(desc(leaveRuns.startedAt))
    .limit(50);
}
