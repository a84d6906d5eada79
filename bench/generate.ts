import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { ALL_PERMISSIONS } from '../src/domain/permissions';
import type { TDb } from '../src/server/db/client';
import { members, orgs, roles } from '../src/server/db/schema';
import { generateClientBook, type TClientBook } from './generate-clients';
import { arr, rng } from './generate-util';
import { generateWork, type TWorkBook } from './generate-work';

/**
 * Data for benchmarks: a few small firms and one large firm. Later features add their tables here
 * (clients, tasks, documents, ...) so every benchmark runs against the same shape of firm.
 */
export type TFirmSize = {
  name: string;
  members: number;
  systemLogRows: number;
  book?: TClientBook;
  /** Projects and tasks; needs the book's clients. */
  work?: TWorkBook;
};

export const DEFAULT_FIRMS: TFirmSize[] = [
  {
    name: 'Large & Co',
    members: 200,
    systemLogRows: 200_000,
    book: { clients: 20_000, groups: 200, services: 40, engagements: 60_000 },
    work: { projects: 60_000, tasks: 500_000 },
  },
  { name: 'Small One', members: 5, systemLogRows: 2_000 },
  { name: 'Small Two', members: 8, systemLogRows: 3_000 },
  { name: 'Small Three', members: 3, systemLogRows: 1_000 },
];

export type TGeneratedFirm = { orgId: string; name: string; owner: { memberId: string; sub: string } };

const YEAR_MS = 365 * 24 * 3600 * 1000;
const BATCH = 10_000;
const ACTIONS = ['create', 'update', 'delete', 'sign_in', 'export'] as const;
const RECORD_TYPES = ['client', 'task', 'project', 'document', 'member', 'reminder', 'invoice'] as const;

export async function generateFirms(db: TDb, firms = DEFAULT_FIRMS): Promise<TGeneratedFirm[]> {
  const out: TGeneratedFirm[] = [];
  for (const [i, firm] of firms.entries()) out.push(await generateFirm(db, firm, i + 1));
  // Fresh bulk data has no planner statistics or visibility map yet; autovacuum gives production both.
  await db.execute(sql`vacuum analyze`);
  return out;
}

/** The firms a kept bench database already holds (same order as generateFirms), or null if it has none. */
export async function findFirms(db: TDb, firms = DEFAULT_FIRMS): Promise<TGeneratedFirm[] | null> {
  const out: TGeneratedFirm[] = [];
  for (const firm of firms) {
    const result = await db.execute(sql`
      select o.id as org_id, m.id as member_id, m.sub from orgs o
      join members m on m.org_id = o.id and m.is_owner
      where o.name = ${firm.name} order by m.created_at limit 1`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
      org_id: string;
      member_id: string;
      sub: string;
    }[];
    const [row] = rows;
    if (!row) return null;
    out.push({ orgId: row.org_id, name: firm.name, owner: { memberId: row.member_id, sub: row.sub } });
  }
  return out;
}

async function generateFirm(db: TDb, firm: TFirmSize, seed: number): Promise<TGeneratedFirm> {
  const [org] = await db.insert(orgs).values({ name: firm.name }).returning({ id: orgs.id });
  if (!org) throw new Error('org not created');
  const [owner, staff] = await db
    .insert(roles)
    .values([
      { orgId: org.id, name: 'Owner', permissions: [...ALL_PERMISSIONS] },
      { orgId: org.id, name: 'Staff', permissions: ['clients.view', 'tasks.view', 'systemLog.view'] },
    ])
    .returning({ id: roles.id });
  if (!owner || !staff) throw new Error('roles not created');
  const people = Array.from({ length: firm.members }, (_, n) => ({
    orgId: org.id,
    sub: randomUUID(),
    email: `member${n}@${seed}.bench.test`,
    firstName: `First${n}`,
    lastName: `Last${n}`,
    roleId: n === 0 ? owner.id : staff.id,
    isOwner: n === 0,
    isVerified: true,
  }));
  const rows = await db.insert(members).values(people).returning({ id: members.id, sub: members.sub });
  const memberIds = rows.map((r) => r.id);
  const first = rows[0];
  if (!first?.sub) throw new Error('members not created');
  await insertSystemLog(db, org.id, memberIds, firm.systemLogRows, seed);
  if (firm.book) await generateClientBook(db, org.id, memberIds, firm.book, seed);
  if (firm.work) await generateWork(db, org.id, firm.work);
  return { orgId: org.id, name: firm.name, owner: { memberId: first.id, sub: first.sub } };
}

/** Rows spread over the past year, inserted as column arrays: one statement per 10,000 rows. */
async function insertSystemLog(db: TDb, orgId: string, memberIds: string[], total: number, seed: number) {
  const random = rng(seed);
  const now = Date.now();
  for (let done = 0; done < total; done += BATCH) {
    const n = Math.min(BATCH, total - done);
    const cols = { id: [] as string[], actor: [] as string[], action: [] as string[], type: [] as string[] };
    const more = { recordId: [] as string[], summary: [] as string[], at: [] as string[] };
    for (let k = 0; k < n; k++) {
      const at = now - Math.floor(random() * YEAR_MS);
      const action = ACTIONS[Math.floor(random() * ACTIONS.length)] ?? 'update';
      const type = RECORD_TYPES[Math.floor(random() * RECORD_TYPES.length)] ?? 'client';
      const recordId = `R-${Math.floor(random() * 50_000)}`;
      cols.id.push(uuidv7({ msecs: at }));
      cols.actor.push(memberIds[Math.floor(random() * memberIds.length)] ?? '');
      cols.action.push(action);
      cols.type.push(type);
      more.recordId.push(recordId);
      more.summary.push(`${action} ${type} ${recordId}`);
      more.at.push(new Date(at).toISOString());
    }
    await db.execute(sql`
      insert into system_log (id, org_id, actor_kind, actor_member_id, action, record_type, record_id, summary, at)
      select id, ${orgId}::uuid, 'member', actor, action, record_type, record_id, summary, at
      from unnest(${arr(cols.id)}::uuid[], ${arr(cols.actor)}::uuid[], ${arr(cols.action)}::text[],
        ${arr(cols.type)}::text[], ${arr(more.recordId)}::text[], ${arr(more.summary)}::text[],
        ${arr(more.at)}::timestamptz[]) as t(id, actor, action, record_type, record_id, summary, at)`);
  }
}
