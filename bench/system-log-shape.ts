// npx tsx bench/system-log-shape.ts [pglite-dir]  (a directory kept by `npm run bench -- --engine pglite --pglite-dir …`)
// Issue 42, "PGlite got slower per request": the bare route's SQL is listSystemLog's own, so this
// times today's listSystemLog beside a query of the shape it had on 22 Nov 2026 (the log's columns,
// the member's name, an uncapped count), in one process on the same data: CPU and wall a call.
import { sql } from 'drizzle-orm';
import { ZSystemLogListInput } from '../src/domain/system-log';
import { openPglite } from '../src/server/db/client';
import { listSystemLog } from '../src/server/features/system-log';
import { findFirms } from './generate';
import { BENCH_INPUT } from './protocol';

const database = await openPglite(process.argv[2] ?? 'data/bench-pglite');
const firms = await findFirms(database.db);
const small = firms?.[1];
if (!small) throw new Error('no firms');
const input = ZSystemLogListInput.parse(BENCH_INPUT);
const scope = { orgId: small.orgId, memberId: small.owner.memberId, assignedClientsOnly: false };
const simple = () =>
  Promise.all([
    database.db.execute(sql`select l.id, l.at, l.action, l.record_type, l.record_id, l.summary, l.actor_member_id,
      trim(m.first_name || ' ' || m.last_name) as actor_name
      from system_log l left join members m on m.org_id = l.org_id and m.id = l.actor_member_id
      where l.org_id = ${small.orgId} order by l.at desc, l.id desc limit 50`),
    database.db.execute(sql`select count(*) from system_log where org_id = ${small.orgId}`),
  ]);
const cases: [string, () => Promise<unknown>][] = [
  ['current listSystemLog', () => listSystemLog(database.db, scope, input)],
  ['the 22 Nov shape', simple],
];
for (const round of [1, 2])
  for (const [name, f] of cases) {
    for (let i = 0; i < 30; i++) await f();
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < 200; i++) await f();
    const used = process.cpuUsage(cpu);
    console.log(
      round,
      name,
      ((performance.now() - start) / 200).toFixed(2),
      'ms wall,',
      ((used.user + used.system) / 200 / 1000).toFixed(2),
      'ms CPU',
    );
  }
await database.close();
