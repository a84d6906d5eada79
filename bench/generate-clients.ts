import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { TDb } from '../src/server/db/client';
import { arr, rng } from './generate-util';

export type TClientBook = { clients: number; groups: number; services: number; engagements: number };

export const FIRST = [
  'Aarav',
  'Priya',
  'Rohan',
  'Ananya',
  'Vikram',
  'Meera',
  'Arjun',
  'Kavya',
  'Rahul',
  'Isha',
  'Sanjay',
  'Neha',
  'Karan',
  'Pooja',
  'Amit',
  'Divya',
  'Suresh',
  'Lakshmi',
  'Nikhil',
  'Sneha',
];
export const LAST = [
  'Mehta',
  'Sharma',
  'Iyer',
  'Reddy',
  'Patel',
  'Gupta',
  'Nair',
  'Rao',
  'Kapoor',
  'Joshi',
  'Banerjee',
  'Menon',
  'Kulkarni',
  'Desai',
  'Chopra',
  'Bhat',
  'Pillai',
  'Agarwal',
  'Shah',
  'Verma',
];
export const FIRM_WORDS = [
  'Textiles',
  'Exports',
  'Logistics',
  'Foods',
  'Pharma',
  'Infotech',
  'Builders',
  'Traders',
  'Motors',
  'Chemicals',
];
const FIRM_SUFFIX = ['Pvt Ltd', 'LLP', '& Co', 'Enterprises', 'Industries'];
const TYPES = ['individual', 'company', 'partnership', 'llp', 'proprietor', 'trust', 'huf'] as const;
const TAGS = ['gst', 'audit', 'nri', 'priority', 'startup', 'retainer'];
const SERVICES = [
  'GST Return',
  'Income Tax Return',
  'TDS Return',
  'Statutory Audit',
  'Bookkeeping',
  'Payroll',
  'ROC Filing',
  'Tax Audit',
];
const FREQUENCIES = ['monthly', 'quarterly', 'yearly', 'half_yearly', 'one_time'] as const;
const BATCH = 5_000;

const pick = <T>(list: readonly T[], random: () => number): T =>
  list[Math.floor(random() * list.length)] as T;

/**
 * A firm's book of clients: groups, clients with searchable names and tax ids, a service catalogue
 * and engagements, bulk-inserted as column arrays (one statement per batch).
 */
export async function generateClientBook(
  db: TDb,
  orgId: string,
  memberIds: string[],
  book: TClientBook,
  seed: number,
) {
  const random = rng(seed * 7919);
  const groupIds = Array.from({ length: book.groups }, () => uuidv7());
  if (groupIds.length) {
    await db.execute(sql`
      insert into client_groups (id, org_id, name)
      select id, ${orgId}::uuid, name from unnest(${arr(groupIds)}::uuid[], ${arr(groupIds.map((_, i) => `${pick(LAST, random)} Family ${i + 1}`))}::text[]) as t(id, name)`);
  }
  const serviceIds = Array.from({ length: book.services }, () => uuidv7());
  if (serviceIds.length) {
    const names = serviceIds.map(
      (_, i) => `${SERVICES[i % SERVICES.length]} ${Math.floor(i / SERVICES.length) + 1}`,
    );
    await db.execute(sql`
      insert into services (id, org_id, name, code, frequency, default_fee)
      select id, ${orgId}::uuid, name, code, frequency, 5000
      from unnest(${arr(serviceIds)}::uuid[], ${arr(names)}::text[], ${arr(names.map((_, i) => `SVC${i + 1}`))}::text[],
        ${arr(names.map((_, i) => FREQUENCIES[i % FREQUENCIES.length] ?? 'yearly'))}::text[]) as t(id, name, code, frequency)`);
  }
  const clientIds: string[] = [];
  for (let done = 0; done < book.clients; done += BATCH) {
    const n = Math.min(BATCH, book.clients - done);
    const c = { id: [] as string[], code: [] as string[], name: [] as string[], type: [] as string[] };
    const d = { group: [] as string[], email: [] as string[], taxIds: [] as string[], tags: [] as string[] };
    for (let k = 0; k < n; k++) {
      const i = done + k;
      const type = pick(TYPES, random);
      const person = `${pick(FIRST, random)} ${pick(LAST, random)}`;
      const name =
        type === 'individual' || type === 'huf'
          ? person
          : `${pick(LAST, random)} ${pick(FIRM_WORDS, random)} ${pick(FIRM_SUFFIX, random)}`;
      const id = uuidv7();
      clientIds.push(id);
      c.id.push(id);
      c.code.push(`C${String(i + 1).padStart(6, '0')}`);
      c.name.push(name);
      c.type.push(type);
      d.group.push(random() < 0.3 && groupIds.length ? pick(groupIds, random) : '');
      d.email.push(`client${i + 1}@example.test`);
      d.taxIds.push(JSON.stringify([{ kind: 'PAN', value: `ABCDE${String(i).padStart(4, '0')}F` }]));
      d.tags.push(random() < 0.4 ? `{${pick(TAGS, random)}}` : '{}');
    }
    await db.execute(sql`
      insert into clients (id, org_id, code, name, type, group_id, email, tax_ids, tags)
      select id, ${orgId}::uuid, code, name, type, nullif(group_id, '')::uuid, email, tax_ids::jsonb, tags::text[]
      from unnest(${arr(c.id)}::uuid[], ${arr(c.code)}::text[], ${arr(c.name)}::text[], ${arr(c.type)}::text[],
        ${arr(d.group)}::text[], ${arr(d.email)}::text[], ${arr(d.taxIds)}::text[], ${arr(d.tags)}::text[])
        as t(id, code, name, type, group_id, email, tax_ids, tags)`);
  }
  // Each client's team: one member, spread over the firm.
  for (let done = 0; done < clientIds.length; done += BATCH) {
    const slice = clientIds.slice(done, done + BATCH);
    await db.execute(sql`
      insert into client_team (org_id, client_id, member_id, responsibility)
      select ${orgId}::uuid, client_id, member_id, 'Manager'
      from unnest(${arr(slice)}::uuid[], ${arr(slice.map(() => pick(memberIds, random)))}::uuid[]) as t(client_id, member_id)`);
  }
  // Engagements: distinct (client, service) pairs, at most one per pair.
  const pairs = new Set<string>();
  while (pairs.size < Math.min(book.engagements, clientIds.length * serviceIds.length)) {
    pairs.add(`${pick(clientIds, random)}|${pick(serviceIds, random)}`);
  }
  const all = [...pairs];
  for (let done = 0; done < all.length; done += BATCH) {
    const slice = all.slice(done, done + BATCH).map((p) => p.split('|'));
    await db.execute(sql`
      insert into client_services (id, org_id, client_id, service_id, start_date, fee)
      select id, ${orgId}::uuid, client_id, service_id, '2025-04-01', 5000
      from unnest(${arr(slice.map(() => uuidv7()))}::uuid[], ${arr(slice.map((p) => p[0] ?? ''))}::uuid[],
        ${arr(slice.map((p) => p[1] ?? ''))}::uuid[]) as t(id, client_id, service_id)`);
  }
  return { clientIds, groupIds, serviceIds };
}
