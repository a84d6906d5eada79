import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import type { TImportRowStatus } from '../../../domain/client-import';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientImports } from '../../db/schema';

// An import belongs to the member who uploaded it: its row, who sees what of it, and the small
// helpers (the refusal, the counts and their words) that its steps share.

export type TImportScope = Pick<
  TScope,
  'orgId' | 'memberId' | 'isOwner' | 'permissions' | 'assignedClientsOnly'
>;

export const bad = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Another member, firm or an unknown id: the same answer, so ids reveal nothing. */
export async function ownImport(db: TExecutor, scope: TImportScope, importId: string, lock = false) {
  const query = db
    .select()
    .from(clientImports)
    .where(
      and(
        eq(clientImports.orgId, scope.orgId),
        eq(clientImports.id, importId),
        eq(clientImports.memberId, scope.memberId),
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.status === 'discarded')
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Import not found' });
  return row;
}

/** Someone limited to their assigned clients must not learn the names of clients they cannot see. */
export const seesAll = (scope: TImportScope) => !scope.assignedClientsOnly;

export function countStatuses(statuses: TImportRowStatus[]) {
  const counts: Record<TImportRowStatus, number> = { new: 0, duplicate: 0, error: 0, imported: 0 };
  for (const s of statuses) counts[s]++;
  return counts;
}
