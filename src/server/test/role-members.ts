import { randomUUID } from 'node:crypto';
import { SEEDED_ROLES } from '../../domain/permissions';
import { members, roles } from '../db/schema';
import type { TTestApp } from './app';

export type TRoleMember = { role: string; id: string; email: string; isOwner: boolean; token: string };

/**
 * A firm's members, one per seeded role (Owner, Admin, Manager, Staff) with the seeded permissions,
 * for permission-matrix tests. The seeded firm's owner is the Owner.
 */
export async function membersForSeededRoles(
  t: TTestApp,
  firm: Awaited<ReturnType<TTestApp['seedFirm']>>,
): Promise<TRoleMember[]> {
  const out: TRoleMember[] = [{ role: 'Owner', ...firm.owner, isOwner: true }];
  for (const seeded of SEEDED_ROLES.filter((r) => r.name !== 'Owner')) {
    const [role] = await t.db
      .insert(roles)
      .values({
        orgId: firm.org.id,
        name: `Seeded ${seeded.name}`,
        permissions: [...seeded.permissions],
        assignedClientsOnly: seeded.assignedClientsOnly ?? false,
      })
      .returning();
    if (!role) throw new Error('role not created');
    const sub = randomUUID();
    const [member] = await t.db
      .insert(members)
      .values({
        orgId: firm.org.id,
        sub,
        email: `${seeded.name.toLowerCase()}-${sub}@example.test`,
        firstName: seeded.name,
        lastName: 'Member',
        roleId: role.id,
        isVerified: true,
      })
      .returning();
    if (!member) throw new Error('member not created');
    out.push({
      role: seeded.name,
      id: member.id,
      email: member.email,
      isOwner: false,
      token: await t.tokenFor(sub),
    });
  }
  return out;
}
