import { eq, type SQL, sql } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import type { TReportFilters } from '../../../domain/reports';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { orgs } from '../../db/schema';
import { clientVisibility } from '../clients';
import { seesMoney } from '../timesheets';

// What every report shares: the clients it covers (the caller's visibility and the filters, as one
// SQL condition on a clients row aliased `c`), the firm's today and whether money may be sent.

export type TReportContext = {
  orgId: string;
  today: string;
  timeZone: string;
  fiscalYearStartMonth: number;
  currency: string;
  money: boolean;
  /** The filters narrow the clients (or a limited caller sees only theirs): tasks and time without a client drop out. */
  clientsNarrowed: boolean;
};

export async function reportContext(
  db: TExecutor,
  scope: TScope,
  filters: TReportFilters,
): Promise<TReportContext> {
  const [org] = await db
    .select({ timeZone: orgs.timeZone, fiscal: orgs.fiscalYearStartMonth, currency: orgs.currency })
    .from(orgs)
    .where(eq(orgs.id, scope.orgId));
  const timeZone = org?.timeZone ?? 'UTC';
  return {
    orgId: scope.orgId,
    today: todayIn(timeZone),
    timeZone,
    fiscalYearStartMonth: org?.fiscal ?? 1,
    currency: org?.currency ?? 'USD',
    money: seesMoney(scope),
    clientsNarrowed:
      scope.assignedClientsOnly ||
      Boolean(
        filters.groupId ||
          filters.clientType ||
          filters.clientStatus ||
          filters.tag ||
          filters.memberId ||
          filters.serviceId,
      ),
  };
}

/** The clients a report covers: the firm's live clients the caller may see, narrowed by the filters. */
export function clientsWhere(scope: TScope, f: TReportFilters): SQL {
  // Prospects (proposals, issue 37) are not clients yet: reports and the grid leave them out.
  const parts: SQL[] = [sql`c.org_id = ${scope.orgId}`, sql`c.archived_at is null`, sql`not c.prospect`];
  const visible = clientVisibility(scope, sql`c.id`);
  if (visible) parts.push(visible);
  if (f.groupId) parts.push(sql`c.group_id = ${f.groupId}`);
  if (f.clientType) parts.push(sql`c.type = ${f.clientType}`);
  if (f.clientStatus) parts.push(sql`c.status = ${f.clientStatus}`);
  if (f.tag) parts.push(sql`c.tags @> array[${f.tag}]::text[]`);
  if (f.memberId)
    parts.push(
      sql`c.id in (select ct.client_id from client_team ct where ct.org_id = ${scope.orgId} and ct.member_id = ${f.memberId})`,
    );
  if (f.serviceId)
    parts.push(
      sql`exists (select 1 from client_services cs where cs.org_id = ${scope.orgId} and cs.client_id = c.id and cs.service_id = ${f.serviceId})`,
    );
  return sql.join(parts, sql` and `);
}

/**
 * `column` names a client the report covers. Unnarrowed, the covered clients are all the firm's
 * live ones: leaving out the few archived ones costs a small hashed list, where naming the live
 * ones hashed every client (20,000 in the large firm) to probe each row.
 */
export function coveredClient(ctx: TReportContext, scope: TScope, f: TReportFilters, column: SQL): SQL {
  return ctx.clientsNarrowed
    ? sql`${column} in (select c.id from clients c where ${clientsWhere(scope, f)})`
    : sql`${column} is not null and ${column} not in (select c.id from clients c where c.org_id = ${scope.orgId} and (c.archived_at is not null or c.prospect))`;
}

/** ORDER BY a whitelisted expression (the zod enum picked it), then a tie-break that pages stably. */
export function orderBy(expression: SQL, direction: 'asc' | 'desc', tieBreak: SQL): SQL {
  const dir = sql.raw(direction === 'desc' ? 'desc nulls last' : 'asc nulls first');
  return sql`${expression} ${dir}, ${tieBreak}`;
}

export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
