import { count, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../src/server/db/client';
import { idpUsers, orgs } from '../../src/server/db/schema';
import type { TStorage } from '../../src/server/files/storage';
import { usernameKey } from '../../src/server/idp/users';
import { generateClientBook } from '../generate-clients';
import { generateWork } from '../generate-work';
import { createDemoCatalogue, createDemoEngagements } from './catalogue';
import { createDemoActivity, createDemoComments } from './extras';
import { createDemoOrg, createDemoPeople, DEMO_PASSWORD, type TDemoPerson } from './people';
import { createDemoPortalUsers, type TDemoPortalUser } from './portal';
import { createDemoDocuments, createDemoReminders } from './reminders-documents';

// The demo firm, one function per area so later features (reminders, documents, …) add theirs:
// people → clients → catalogue → engagements → work → conversations → activity → portal users.

export class DemoRefusedError extends Error {}

export type TDemoOptions = {
  /** The identity provider's pool name (the part of IDP_USER_POOL_ID after '_'): it enters SRP. */
  poolName: string;
  /** Add another demo firm to a database that already has a firm. */
  force?: boolean;
  size?: { clients: number; groups: number; projects: number; tasks: number; comments: number };
  /** Where the demo's files go (DATA_DIR/files or S3); without it the firm gets no documents. */
  storage?: TStorage;
};

export type TDemoResult = {
  orgId: string;
  firmName: string;
  password: string;
  people: TDemoPerson[];
  owner: TDemoPerson;
  staff: TDemoPerson;
  /** Active client users; they sign in at /clientportal/auth/login with a mailed code. */
  portalUsers: TDemoPortalUser[];
  counts: { clients: number; engagements: number; projects: number; tasks: number };
};

export const DEMO_SIZE = { clients: 300, groups: 25, projects: 900, tasks: 6000, comments: 250 };

/** A firm number whose addresses nobody holds yet: 1 is sharma-associates.test, 2 sharma-associates-2.test… */
async function freeFirmNumber(db: TDb, from: number) {
  for (let n = from; ; n++) {
    const domain = n === 1 ? 'sharma-associates.test' : `sharma-associates-${n}.test`;
    const [taken] = await db
      .select({ id: idpUsers.id })
      .from(idpUsers)
      .where(eq(idpUsers.usernameKey, usernameKey(`meera@${domain}`)));
    if (!taken) return { n, domain };
  }
}

export async function fillDemo(db: TDb, options: TDemoOptions): Promise<TDemoResult> {
  const [existing] = await db.select({ n: count() }).from(orgs);
  const firms = Number(existing?.n ?? 0);
  if (firms > 0 && !options.force) {
    throw new DemoRefusedError(
      `This database already has ${firms} firm${firms === 1 ? '' : 's'}: run with --force to add another demo firm beside ${firms === 1 ? 'it' : 'them'}.`,
    );
  }
  const size = options.size ?? DEMO_SIZE;
  const { n, domain } = await freeFirmNumber(db, firms + 1);
  const firmName = n === 1 ? 'Sharma & Associates' : `Sharma & Associates ${n}`;

  const { orgId, roleIds } = await createDemoOrg(db, firmName);
  const people = await createDemoPeople(db, options.poolName, orgId, roleIds, domain);
  const owner = people.find((p) => p.role === 'Owner');
  const staff = people.find((p) => p.role === 'Staff');
  if (!owner || !staff) throw new Error('demo people missing');
  // Clients are shared among everyone but the owner, so each staff member has a book of their own.
  const team = people.filter((p) => p.role !== 'Owner').map((p) => p.memberId);
  await generateClientBook(
    db,
    orgId,
    team,
    { clients: size.clients, groups: size.groups, services: 0, engagements: 0 },
    n,
  );
  const catalogue = await createDemoCatalogue(db, orgId, { Manager: roleIds.Manager, Staff: roleIds.Staff });
  await createDemoEngagements(db, orgId, catalogue);
  await generateWork(db, orgId, { projects: size.projects, tasks: size.tasks });
  await createDemoComments(db, orgId, size.comments);
  await createDemoActivity(db, orgId, owner.memberId);
  const portalUsers = await createDemoPortalUsers(db, orgId, owner.memberId, domain);
  await createDemoReminders(db, orgId, people);
  if (options.storage) await createDemoDocuments(db, options.storage, orgId, owner.memberId);

  const counted = await db.execute(sql`select
    (select count(*) from clients where org_id = ${orgId}::uuid)::int as clients,
    (select count(*) from client_services where org_id = ${orgId}::uuid)::int as engagements,
    (select count(*) from projects where org_id = ${orgId}::uuid)::int as projects,
    (select count(*) from tasks where org_id = ${orgId}::uuid)::int as tasks`);
  const rows = (
    Array.isArray(counted) ? counted : (counted as { rows: unknown[] }).rows
  ) as TDemoResult['counts'][];
  const counts = rows[0] ?? { clients: 0, engagements: 0, projects: 0, tasks: 0 };
  return { orgId, firmName, password: DEMO_PASSWORD, people, owner, staff, portalUsers, counts };
}
