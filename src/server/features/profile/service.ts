import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { roleGrants } from '../../../domain/roles';
import type { TExecutor } from '../../db/client';
import { members, orgs, roles } from '../../db/schema';

/** The signed-in staff user as the web app, analytics and the chat widget need it (SPEC.md §3). */
export async function getProfile(db: TExecutor, scope: { orgId: string; memberId: string }) {
  const [row] = await db
    .select({
      id: members.id,
      email: members.email,
      firstName: members.firstName,
      lastName: members.lastName,
      picture: members.picture,
      isOwner: members.isOwner,
      isVerified: members.isVerified,
      orgId: orgs.id,
      orgName: orgs.name,
      orgTimeZone: orgs.timeZone,
      orgCountry: orgs.country,
      orgCurrency: orgs.currency,
      orgFiscalYearStartMonth: orgs.fiscalYearStartMonth,
      roleId: roles.id,
      roleName: roles.name,
      permissions: roles.permissions,
    })
    .from(members)
    .innerJoin(orgs, eq(orgs.id, members.orgId))
    .innerJoin(roles, and(eq(roles.orgId, members.orgId), eq(roles.id, members.roleId)))
    .where(and(eq(members.orgId, scope.orgId), eq(members.id, scope.memberId)))
    .limit(1);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  return {
    id: row.id,
    fullName: `${row.firstName} ${row.lastName}`.trim() || row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    picture: row.picture,
    isOwner: row.isOwner,
    isVerified: row.isVerified,
    org: {
      id: row.orgId,
      name: row.orgName,
      timeZone: row.orgTimeZone,
      country: row.orgCountry,
      currency: row.orgCurrency,
      /** The month (1-12) the firm's fiscal year starts: a statement opens on the year so far. */
      fiscalYearStartMonth: row.orgFiscalYearStartMonth,
    },
    role: { id: row.roleId, name: row.roleName },
    permissions: row.isOwner ? ['*'] : roleGrants({ name: row.roleName, permissions: row.permissions }),
  };
}
export type TProfile = Awaited<ReturnType<typeof getProfile>>;
