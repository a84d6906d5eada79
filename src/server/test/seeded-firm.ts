import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SEEDED_ROLES } from '../../domain/permissions';
import { members, roles } from '../db/schema';
import type { TTestApp } from './app';

export type TSeededRoleName = 'Owner' | 'Admin' | 'Manager' | 'Staff';

/**
 * seedFirm() with every seeded role as onboarding creates it (Owner, Admin, Manager, Staff) and one
 * signed-in member holding each: the cast of a permission-matrix test.
 */
export async function seedFirmWithRoles(t: TTestApp, name = 'Firm') {
  const firm = await t.seedFirm(name);
  const seeded = (roleName: string) => {
    const role = SEEDED_ROLES.find((r) => r.name === roleName);
    if (!role) throw new Error(`no seeded role ${roleName}`);
    return role;
  };
  const staffSeed = seeded('Staff');
  await t.db
    .update(roles)
    .set({
      description: staffSeed.description,
      permissions: [...staffSeed.permissions],
      assignedClientsOnly: true,
    })
    .where(eq(roles.id, firm.roles.staff.id));
  const extra = await t.db
    .insert(roles)
    .values(
      ['Admin', 'Manager'].map((roleName) => {
        const role = seeded(roleName);
        return {
          orgId: firm.org.id,
          name: role.name,
          description: role.description,
          permissions: [...role.permissions],
        };
      }),
    )
    .returning();
  const byName = Object.fromEntries(extra.map((r) => [r.name, r]));
  const memberOf = async (roleName: 'Admin' | 'Manager') => {
    const sub = randomUUID();
    const role = byName[roleName];
    if (!role) throw new Error('role missing');
    const [member] = await t.db
      .insert(members)
      .values({
        orgId: firm.org.id,
        sub,
        email: `${roleName.toLowerCase()}-${sub}@example.test`,
        firstName: roleName === 'Admin' ? 'Ada' : 'Manu',
        lastName: roleName,
        roleId: role.id,
        isVerified: true,
      })
      .returning();
    if (!member) throw new Error('member not created');
    return { ...member, token: await t.tokenFor(sub) };
  };
  const admin = await memberOf('Admin');
  const manager = await memberOf('Manager');
  return {
    ...firm,
    roles: {
      ...firm.roles,
      admin: byName.Admin as NonNullable<(typeof byName)[string]>,
      manager: byName.Manager as NonNullable<(typeof byName)[string]>,
    },
    admin,
    manager,
    /** A signed-in member per seeded role. */
    members: { Owner: firm.owner, Admin: admin, Manager: manager, Staff: firm.staff } as Record<
      TSeededRoleName,
      { id: string; token: string }
    >,
  };
}
