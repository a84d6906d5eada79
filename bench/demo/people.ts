import { eq } from 'drizzle-orm';
import { SEEDED_ROLES } from '../../src/domain/permissions';
import type { TDb } from '../../src/server/db/client';
import { idpUsers, members, orgs, roles } from '../../src/server/db/schema';
import { createUser } from '../../src/server/idp/users';

/** Every demo account signs in with this password (it meets the identity provider's policy). */
export const DEMO_PASSWORD = 'Practice#2026';

export type TDemoPerson = {
  memberId: string;
  email: string;
  name: string;
  role: 'Owner' | 'Admin' | 'Manager' | 'Staff';
};

const PEOPLE: Array<{ first: string; last: string; role: TDemoPerson['role']; designation: string }> = [
  { first: 'Meera', last: 'Sharma', role: 'Owner', designation: 'Managing Partner' },
  { first: 'Arjun', last: 'Kapoor', role: 'Admin', designation: 'Practice Administrator' },
  { first: 'Priya', last: 'Iyer', role: 'Manager', designation: 'Tax Manager' },
  { first: 'Vikram', last: 'Desai', role: 'Manager', designation: 'Audit Manager' },
  { first: 'Rohan', last: 'Nair', role: 'Staff', designation: 'Senior Accountant' },
  { first: 'Kavya', last: 'Reddy', role: 'Staff', designation: 'Accountant' },
  { first: 'Sanjay', last: 'Rao', role: 'Staff', designation: 'Article Assistant' },
  { first: 'Neha', last: 'Joshi', role: 'Staff', designation: 'Article Assistant' },
];

/** The firm with the seeded roles, as onboarding creates it. */
export async function createDemoOrg(db: TDb, name: string) {
  const [org] = await db
    .insert(orgs)
    .values({
      name,
      legalName: `${name} LLP`,
      country: 'IN',
      timeZone: 'Asia/Kolkata',
      currency: 'INR',
      fiscalYearStartMonth: 4,
      city: 'Mumbai',
      region: 'Maharashtra',
      taxIds: [{ kind: 'PAN', value: 'AAKFS1234Q' }],
    })
    .returning({ id: orgs.id });
  if (!org) throw new Error('firm not created');
  const created = await db
    .insert(roles)
    .values(SEEDED_ROLES.map((role) => ({ orgId: org.id, ...role, permissions: [...role.permissions] })))
    .returning({ id: roles.id, name: roles.name });
  const roleIds = Object.fromEntries(created.map((r) => [r.name, r.id])) as Record<
    TDemoPerson['role'],
    string
  >;
  return { orgId: org.id, roleIds };
}

/**
 * The firm's people, each a confirmed user of the embedded identity provider with a verified email
 * and the demo password, so the printed credentials sign in through the real login screen.
 * `domain` keeps a second demo firm's addresses apart from the first's.
 */
export async function createDemoPeople(
  db: TDb,
  poolName: string,
  orgId: string,
  roleIds: Record<TDemoPerson['role'], string>,
  domain: string,
): Promise<TDemoPerson[]> {
  const out: TDemoPerson[] = [];
  for (const person of PEOPLE) {
    const email = `${person.first.toLowerCase()}@${domain}`;
    const user = await createUser(db, {
      poolName,
      username: email,
      password: DEMO_PASSWORD,
      attributes: { email, given_name: person.first, family_name: person.last },
      status: 'CONFIRMED',
    });
    await db.update(idpUsers).set({ emailVerified: true }).where(eq(idpUsers.id, user.id));
    const [member] = await db
      .insert(members)
      .values({
        orgId,
        sub: user.id,
        email,
        firstName: person.first,
        lastName: person.last,
        designation: person.designation,
        roleId: roleIds[person.role],
        isOwner: person.role === 'Owner',
        isVerified: true,
        status: 'active',
      })
      .returning({ id: members.id });
    if (!member) throw new Error('member not created');
    out.push({ memberId: member.id, email, name: `${person.first} ${person.last}`, role: person.role });
  }
  return out;
}
