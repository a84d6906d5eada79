import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { clients, clientTeam, systemLog } from '../db/schema';
import type { TTestApp } from './app';

/** A client seeded straight into the database (the clients feature owns the real form). */
export async function seedClient(
  t: TTestApp,
  orgId: string,
  values: { name?: string; code?: string; groupId?: string | null } = {},
) {
  const suffix = randomUUID().slice(0, 8);
  const [row] = await t.db
    .insert(clients)
    .values({
      orgId,
      name: values.name ?? `Client ${suffix}`,
      code: values.code ?? `C-${suffix}`,
      groupId: values.groupId ?? null,
    })
    .returning();
  if (!row) throw new Error('client not created');
  return row;
}

export async function putOnTeam(t: TTestApp, orgId: string, clientId: string, memberId: string) {
  await t.db.insert(clientTeam).values({ orgId, clientId, memberId });
}

export async function logRows(t: TTestApp, orgId: string, recordId: string) {
  return t.db
    .select()
    .from(systemLog)
    .where(and(eq(systemLog.orgId, orgId), eq(systemLog.recordId, recordId)))
    .orderBy(systemLog.at);
}

export const page = { page: 1, pageSize: 50 };
