// npx tsx bench/automations.ts [--engine pglite|postgres] [--rules 200] [--calls 300]
// Issue 41's speed target: evaluating the firm's rules for one event (the rules of the event's kind
// found by index and parsed, their trigger matched, the project's client, group, tags and members
// read once, every condition checked) ≤ 5 ms of server time at 200 rules per firm. The firm's rules
// are spread over the trigger kinds, each with conditions; the event is a project entering a stage.
// PostgreSQL gets a fresh database (BENCH_PG_URL) dropped afterwards.

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { TRIGGER_KINDS } from '../src/domain/automations';
import { openPglite, openPostgres, type TDatabase } from '../src/server/db/client';
import { automationRules } from '../src/server/db/schema';
import { evaluate } from '../src/server/features/automations';
import { createTestApp } from '../src/server/test/app';
import { seedClient } from '../src/server/test/fixtures';
import { createDatabase, dropDatabase } from '../src/server/test/templates';
import { load, quantile } from './stats';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite' },
    rules: { type: 'string', default: '200' },
    calls: { type: 'string', default: '300' },
  },
});
const RULES = Number(args.rules);
const CALLS = Number(args.calls);
const WARMUP = 20;

async function openDatabase(): Promise<{ database: TDatabase; drop: () => Promise<void> }> {
  if (args.engine === 'pglite') return { database: await openPglite(), drop: async () => {} };
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_automations_${randomBytes(4).toString('hex')}`;
  await createDatabase(url, name);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return { database: await openPostgres(target.toString()), drop: () => dropDatabase(url, name) };
}

const { database, drop } = await openDatabase();
const t = await createTestApp({}, { database });
try {
  const firm = await t.seedFirm('Bench Automations');
  const api = t.client(firm.owner.token);
  const client = await seedClient(t, firm.org.id, { name: 'Bench client' });
  await t.db.execute(sql`update clients set tags = '{vip}', type = 'company' where id = ${client.id}`);
  const { id: templateId } = await api.projectTemplates.create.mutate({ name: 'ITR' });
  const stages = ['Waiting on client', 'Preparation', 'Review', 'Filed', 'Billed'];
  await api.stages.set.mutate({ templateId, stages: stages.map((name) => ({ name })) });
  const project = await api.projects.create.mutate({
    clientId: client.id,
    name: 'ITR 2026',
    templateId,
    ownerId: firm.staff.id,
    memberIds: [firm.owner.id],
  });
  await t.db.insert(automationRules).values(
    Array.from({ length: RULES }, (_, i) => {
      const kind = TRIGGER_KINDS[i % TRIGGER_KINDS.length] ?? 'project.created';
      const trigger =
        kind === 'project.stage_entered'
          ? { kind, stageName: stages[Math.floor(i / TRIGGER_KINDS.length) % stages.length] }
          : { kind };
      return {
        orgId: firm.org.id,
        name: `Rule ${i}`,
        enabled: true,
        triggerKind: kind,
        trigger,
        conditions: [
          { kind: 'clientType', types: i % 2 ? ['individual', 'company'] : ['trust'] },
          { kind: 'clientTag', tag: 'vip' },
          { kind: 'assignee', memberIds: [firm.staff.id] },
        ],
        actions: [
          { kind: 'moveStage', stageName: 'Review' },
          { kind: 'notifyMembers', owner: true, memberIds: [], message: 'Moved' },
        ],
        ownerId: firm.owner.id,
      };
    }),
  );
  const event = {
    orgId: firm.org.id,
    kind: 'project.stage_entered',
    data: { stageName: 'Filed' },
    projectId: project.id,
    clientId: client.id,
  };
  const times: number[] = [];
  let matched = 0;
  // The process's CPU over the timed calls: on a shared machine the wall time counts the queue for
  // the cores; CPU a call is the work itself (PGlite's database included, PostgreSQL's not).
  let cpu = process.cpuUsage();
  for (let i = 0; i < WARMUP + CALLS; i++) {
    if (i === WARMUP) cpu = process.cpuUsage();
    const start = performance.now();
    const result = await evaluate(t.db, event);
    const ms = performance.now() - start;
    if (i >= WARMUP) times.push(ms);
    matched = result.rules.length;
  }
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / CALLS;
  const ofKind = Math.ceil(RULES / TRIGGER_KINDS.length);
  console.log(
    `engine ${args.engine}, ${RULES} rules (${ofKind} of the event's kind), ${CALLS} evaluations, ${matched} matched; load ${load()}`,
  );
  console.log(
    `evaluate one event: p50 ${quantile(times, 0.5).toFixed(2)} ms, p95 ${quantile(times, 0.95).toFixed(2)} ms, CPU ${cpuMs.toFixed(2)} ms a call`,
  );
} finally {
  await t.close();
  await drop();
}
