import { eq } from 'drizzle-orm';
import type { TDb } from '../../src/server/db/client';
import { idpUsers } from '../../src/server/db/schema';
import { createUser } from '../../src/server/idp/users';
import type { TSession } from './session';

// The firm and its people, as the product makes them: each person has an account at the identity
// provider (signed up, email confirmed, the demo password); the owner signs in and creates the firm
// on the onboarding form and fills in its profile, then invites the others, who open the link in
// the invitation and join.

/** Every demo account signs in with this password (it meets the identity provider's policy). */
export const DEMO_PASSWORD = 'Practice#2026';

export type TDemoPerson = {
  memberId: string;
  email: string;
  name: string;
  role: 'Owner' | 'Admin' | 'Manager' | 'Staff';
};

const PEOPLE: Array<{ first: string; last: string; role: TDemoPerson['role'] }> = [
  { first: 'Meera', last: 'Sharma', role: 'Owner' },
  { first: 'Arjun', last: 'Kapoor', role: 'Admin' },
  { first: 'Priya', last: 'Iyer', role: 'Manager' },
  { first: 'Vikram', last: 'Desai', role: 'Manager' },
  { first: 'Rohan', last: 'Nair', role: 'Staff' },
  { first: 'Kavya', last: 'Reddy', role: 'Staff' },
  { first: 'Sanjay', last: 'Rao', role: 'Staff' },
  { first: 'Neha', last: 'Joshi', role: 'Staff' },
];

/**
 * The people's accounts, as signing up and confirming the email leaves them. `domain` keeps a
 * second demo firm's addresses apart from the first's.
 */
export async function createDemoAccounts(db: TDb, poolName: string, domain: string) {
  const accounts = [];
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
    accounts.push({ ...person, email });
  }
  return accounts;
}

/** The firm made on the onboarding form by its owner, its profile filled in, its team invited and joined. */
export async function openDemoFirm(
  session: TSession,
  accounts: Awaited<ReturnType<typeof createDemoAccounts>>,
  firmName: string,
) {
  const [owner, ...team] = accounts;
  if (!owner) throw new Error('no demo owner');
  const boss = await session.as(owner.email, DEMO_PASSWORD);
  const firm = await boss.api.onboarding.createFirm({
    firmName,
    firstName: owner.first,
    lastName: owner.last,
    country: 'IN',
    timeZone: 'Asia/Kolkata',
    currency: 'INR',
    fiscalYearStartMonth: 4,
  });
  session.forFirm(firm.orgId);
  boss.refresh();
  await boss.api.settings.update({
    name: firmName,
    legalName: `${firmName} LLP`,
    addressLine1: '402, Dalamal House',
    addressLine2: 'Nariman Point',
    city: 'Mumbai',
    region: 'Maharashtra',
    postalCode: '400021',
    country: 'IN',
    timeZone: 'Asia/Kolkata',
    currency: 'INR',
    fiscalYearStartMonth: 4,
    taxIds: [
      { kind: 'PAN', value: 'AAKFS1234Q' },
      { kind: 'GSTIN', value: '27AAKFS1234Q1Z5' },
    ],
  });
  const roles = new Map((await boss.api.team.roles()).map((r) => [r.name, r.id]));
  const people: TDemoPerson[] = [
    { memberId: firm.memberId, email: owner.email, name: `${owner.first} ${owner.last}`, role: owner.role },
  ];
  const sessions = new Map([[firm.memberId, boss]]);
  for (const person of team) {
    const roleId = roles.get(person.role);
    if (!roleId) throw new Error(`no ${person.role} role`);
    await boss.api.team.invite({ email: person.email, roleId });
    const link = (await session.deliverMail()).find((m) => m.to === person.email)?.notes?.link;
    if (!link) throw new Error(`no invitation reached ${person.email}`);
    const invited = await session.as(person.email, DEMO_PASSWORD);
    const joined = await invited.api.invites.accept({ key: new URL(link).pathname.split('/').at(-1) ?? '' });
    invited.refresh();
    sessions.set(joined.memberId, invited);
    people.push({
      memberId: joined.memberId,
      email: person.email,
      name: `${person.first} ${person.last}`,
      role: person.role,
    });
  }
  return {
    orgId: firm.orgId,
    people,
    /** Everyone, signed in. */
    sessions,
    roleIds: { Manager: roles.get('Manager'), Staff: roles.get('Staff') },
  };
}
