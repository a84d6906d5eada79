// npm run bench [-- --duration 10 --engine pglite|postgres --profile --case text --firm small --database name --pglite-dir dir]
// Starts bench/server.ts in a child process per engine and loads it from here with autocannon.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import superjson from 'superjson';
import { summariseProfile } from './profile';
import {
  BENCH_FIRMS,
  BENCH_INPUT,
  KNOBS,
  queryPath,
  SINGLE_CASES,
  type TBenchFirm,
  type TKnob,
  type TServerCommand,
  type TServerReady,
} from './protocol';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    engine: { type: 'string', multiple: true },
    profile: { type: 'boolean', default: false },
    /** Only the single cases whose name contains this (the system-log pairs are skipped). */
    case: { type: 'string' },
    /** Only this firm's system-log pair (small, large, …), and no single case unless --case says. */
    firm: { type: 'string' },
    /** PostgreSQL: use this database and keep it; the firms are generated only if it has none. */
    database: { type: 'string' },
    /** PGlite: the same with this directory. */
    'pglite-dir': { type: 'string' },
    /**
     * turns (PGlite: the event-loop turn before each statement, db/client.ts) or batching (the staff
     * check's lookup and the rate limit's count shared by the calls of one turn): the small firm's
     * bare route and systemLog.list, and tasks.list, each with it on and off, slices interleaved on,
     * off, off, on in the one server (issue 42).
     */
    compare: { type: 'string' },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = 10;
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'info';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const resultsDir = path.resolve(import.meta.dirname, 'results');

type TCase = {
  engine: string;
  firm: TBenchFirm;
  name: string;
  reqPerSec: number;
  requests: number;
  cpuPerReq: number;
  p50: number;
  p99: number;
  errors: number;
  /** One connection, one request at a time: the latency of a lone request (single cases only). */
  alone?: { p50: number; p99: number };
};

const trpcPath = queryPath('systemLog.list', BENCH_INPUT);

async function main() {
  const engines = args.engine ?? ['pglite', 'postgres'];
  const cases: TCase[] = [];
  for (const engine of engines) {
    if (engine === 'pglite') cases.push(...(await withPglite((env) => benchEngine('pglite', env))));
    else if (engine === 'postgres')
      cases.push(...(await withPostgres((env) => benchEngine('postgres', env))));
    else throw new Error(`unknown engine ${engine}`);
  }
  printTable(cases);
}

async function withPglite(run: (env: Record<string, string>) => Promise<TCase[]>) {
  const kept = args['pglite-dir'];
  if (kept) return run({ BENCH_PGLITE_DIR: path.resolve(kept), BENCH_REUSE: '1' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
  try {
    return await run({ BENCH_PGLITE_DIR: path.join(dir, 'db') });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function withPostgres(run: (env: Record<string, string>) => Promise<TCase[]>) {
  const kept = args.database;
  const name = kept ?? `bench_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`create database "${name}"`);
  } catch (error) {
    const exists = kept && (error as { code?: string }).code === '42P04';
    if (!exists) {
      console.log(
        `PostgreSQL at ${new URL(PG_URL).host} not available (${(error as Error).message}): skipped`,
      );
      return [];
    }
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  if (kept) return run({ BENCH_DATABASE_URL: url.toString(), BENCH_REUSE: '1' });
  try {
    return await run({ BENCH_DATABASE_URL: url.toString() });
  } finally {
    await admin(`drop database if exists "${name}" with (force)`);
  }
}

async function benchEngine(engine: string, env: Record<string, string>): Promise<TCase[]> {
  const logFile = path.join(os.tmpdir(), `bench-server-${engine}-${process.pid}.log`);
  const log = fs.openSync(logFile, 'w');
  const child = fork(path.join(import.meta.dirname, 'server.ts'), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, LOG_LEVEL },
    stdio: ['ignore', log, 'inherit', 'ipc'],
  });
  try {
    const ready = await nextMessage<TServerReady>(child, 'ready');
    console.log(`${engine}: generated the firms in ${(ready.generateMs / 1000).toFixed(1)} s`);
    const base = `http://127.0.0.1:${ready.port}`;
    const cases: TCase[] = [];
    if (args.compare) return await compare(child, base, ready.tokens, engine, args.compare as TKnob);
    const firms = args.firm ? BENCH_FIRMS.filter((f) => f === args.firm) : BENCH_FIRMS;
    for (const firm of args.case === undefined ? firms : []) {
      const auth = { authorization: `Bearer ${ready.tokens[firm]}` };
      const bare = { url: `${base}/bench/system-log/${firm}`, headers: {} };
      const trpc = { url: `${base}${trpcPath}`, headers: auth };
      await checkSameRows(bare, trpc);
      for (const target of [bare, trpc]) await load(target, WARMUP);
      // Two halves in the order bare, tRPC, tRPC, bare: a machine busy with something else for part
      // of the run then weighs on both cases alike.
      const slices = new Map<TTarget, TSlice[]>([
        [bare, []],
        [trpc, []],
      ]);
      for (const target of [bare, trpc, trpc, bare])
        slices.get(target)?.push(await slice(child, target, DURATION / 2));
      cases.push({ engine, firm, name: 'bare Fastify route', ...combine(slices.get(bare) ?? []) });
      cases.push({ engine, firm, name: 'tRPC systemLog.list', ...combine(slices.get(trpc) ?? []) });
      if (args.profile) {
        await profile(child, bare, `${engine}-${firm}-bare`);
        await profile(child, trpc, `${engine}-${firm}-trpc`);
      }
    }
    for (const single of chosenCases()) {
      const target = {
        url: `${base}${queryPath(single.procedure, single.input)}`,
        headers: { authorization: `Bearer ${ready.tokens[single.firm]}` },
      };
      await checkAnswers(target);
      await load(target, WARMUP);
      const loaded = combine([await slice(child, target, DURATION)]);
      // Under 10 connections p50 is about 10 / throughput (Little's law): on two cores it measures the
      // whole stack's cost per request. A lone request's latency is what one person waits.
      const alone = await load(target, DURATION / 2, 1);
      cases.push({
        engine,
        firm: single.firm,
        name: single.name,
        ...loaded,
        alone: { p50: alone.p50, p99: alone.p99 },
      });
      if (args.profile) await profile(child, target, `${engine}-${single.firm}-${single.procedure}`);
    }
    return cases;
  } finally {
    child.send({ type: 'close' } satisfies TServerCommand);
    await new Promise((resolve) => child.once('exit', resolve));
    fs.closeSync(log);
    const lines = fs.readFileSync(logFile, 'utf8').split('\n').length - 1;
    console.log(`${engine}: the server wrote ${lines} log lines at LOG_LEVEL=${LOG_LEVEL}`);
    fs.rmSync(logFile, { force: true });
  }
}

/** The same targets with a knob on and off, interleaved (--compare turns|batching). */
async function compare(
  child: ChildProcess,
  base: string,
  tokens: Record<TBenchFirm, string>,
  engine: string,
  knob: TKnob,
): Promise<TCase[]> {
  if (!KNOBS.includes(knob)) throw new Error(`--compare ${knob}: one of ${KNOBS.join(', ')}`);
  const tasks = SINGLE_CASES.find((c) => c.procedure === 'tasks.list');
  const targets: { firm: TBenchFirm; name: string; target: TTarget }[] = [
    {
      firm: 'small',
      name: 'bare Fastify route',
      target: { url: `${base}/bench/system-log/small`, headers: {} },
    },
    {
      firm: 'small',
      name: 'tRPC systemLog.list',
      target: { url: `${base}${trpcPath}`, headers: { authorization: `Bearer ${tokens.small}` } },
    },
  ];
  if (tasks)
    targets.push({
      firm: tasks.firm,
      name: tasks.name,
      target: {
        url: `${base}${queryPath(tasks.procedure, tasks.input)}`,
        headers: { authorization: `Bearer ${tokens[tasks.firm]}` },
      },
    });
  // Every slice of every target and setting, in an order that is its own mirror image (and twice):
  // load from elsewhere that comes and goes weighs on each alike.
  const order: { index: number; on: boolean }[] = [];
  for (const on of [true, false])
    for (let index = 0; index < targets.length; index++) order.push({ index, on });
  const rounds = [...order, ...order.slice().reverse()];
  const slices = new Map<string, TSlice[]>();
  for (const { target } of targets) await load(target, WARMUP);
  for (const { index, on } of [...rounds, ...rounds]) {
    const target = targets[index];
    if (!target) continue;
    await command(child, { type: 'knob', name: knob, on }, 'knob');
    const key = `${index} ${on}`;
    slices.set(key, [...(slices.get(key) ?? []), await slice(child, target.target, DURATION / 4)]);
  }
  await command(child, { type: 'knob', name: knob, on: true }, 'knob');
  const cases: TCase[] = [];
  for (const on of [true, false])
    targets.forEach(({ firm, name }, index) => {
      cases.push({
        engine,
        firm,
        name: `${name}, ${knob} ${on ? 'on' : 'off'}`,
        ...combine(slices.get(`${index} ${on}`) ?? []),
      });
    });
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  return cases;
}

const chosenCases = () =>
  args.case === undefined
    ? args.firm
      ? []
      : SINGLE_CASES
    : SINGLE_CASES.filter((c) => c.name.includes(args.case ?? ''));

type TTarget = { url: string; headers: Record<string, string> };

type TSlice = Awaited<ReturnType<typeof load>> & { seconds: number; cpuMicros: number };

/** A stretch of load, with the CPU time the server child spent on it. */
async function slice(child: ChildProcess, target: TTarget, seconds: number): Promise<TSlice> {
  const before = await command<{ usage: NodeJS.CpuUsage }>(child, { type: 'cpu' }, 'cpu');
  const result = await load(target, seconds);
  const after = await command<{ usage: NodeJS.CpuUsage }>(child, { type: 'cpu' }, 'cpu');
  const cpuMicros = after.usage.user + after.usage.system - before.usage.user - before.usage.system;
  return { ...result, seconds, cpuMicros };
}

/** Throughput and CPU over all slices; latency percentiles are the mean of the slices'. */
function combine(slices: TSlice[]) {
  const sum = (f: (s: TSlice) => number) => slices.reduce((total, s) => total + f(s), 0);
  const requests = sum((s) => s.requests);
  return {
    reqPerSec: requests / sum((s) => s.seconds),
    requests,
    p50: sum((s) => s.p50) / slices.length,
    p99: sum((s) => s.p99) / slices.length,
    cpuPerReq: sum((s) => s.cpuMicros) / requests,
    errors: sum((s) => s.errors),
  };
}

/** A separate, unmeasured run with the server child sampling its CPU (the sampler costs time). */
async function profile(child: ChildProcess, target: TTarget, name: string) {
  await command(child, { type: 'profile-start' }, 'profiling');
  const result = await load(target, DURATION);
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${name}.cpuprofile`);
  await command(child, { type: 'profile-stop', file }, 'profiled');
  console.log(
    `\n${name}: ${Math.round(result.reqPerSec)} req/s, CPU profile ${path.relative(process.cwd(), file)}`,
  );
  console.log(summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')), result.requests, 20));
}

/** Both routes must answer the same page, or the comparison means nothing. */
async function checkSameRows(bareTarget: TTarget, trpcTarget: TTarget) {
  const bare = await (await fetch(bareTarget.url)).json();
  const response = await fetch(trpcTarget.url, { headers: trpcTarget.headers });
  const [first] = await response.json();
  const trpc = superjson.deserialize<{ rows: { id: string }[]; total: number }>(first?.result?.data);
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id).join();
  const rows = trpc?.rows ?? [];
  if (rows.length !== 50 || ids(rows) !== ids(bare.rows) || trpc?.total !== bare.total) {
    throw new Error(`the routes disagree: ${response.status} ${JSON.stringify(first).slice(0, 300)}`);
  }
}

/** A case that answers an error measures nothing: stop before loading it. */
async function checkAnswers(target: TTarget) {
  const response = await fetch(target.url, { headers: target.headers });
  const [first] = await response.json();
  if (response.status !== 200 || !first?.result) {
    throw new Error(
      `${target.url.slice(0, 120)} answered ${response.status}: ${JSON.stringify(first).slice(0, 300)}`,
    );
  }
}

async function load(target: TTarget, seconds: number, connections = CONNECTIONS) {
  const result = await autocannon({ ...target, connections, duration: seconds });
  const errors = result.errors + result.timeouts + result.non2xx;
  const { p50, p99 } = result.latency;
  return { reqPerSec: result.requests.average, requests: result.requests.total, p50, p99, errors };
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { type: string }) => {
      if (msg.type !== type) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(msg as T);
    };
    const onExit = (code: number) => reject(new Error(`the server child exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function command<T = unknown>(child: ChildProcess, msg: TServerCommand, reply: string) {
  const answered = nextMessage<T>(child, reply);
  child.send(msg);
  return answered;
}

function printTable(cases: TCase[]) {
  console.log(
    `\nsystemLog.list page 1 (50 rows, with the total); large firm: 200,000 log rows, small: 2,000.`,
  );
  console.log(`autocannon ${CONNECTIONS} connections, ${DURATION} s per case after ${WARMUP} s warm-up;`);
  console.log(
    `server LOG_LEVEL=${LOG_LEVEL}. ratio = tRPC / bare, in req/s and in server CPU per request.\n`,
  );
  for (const single of chosenCases()) console.log(`${single.name}: ${single.target}.`);
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  console.log('');
  console.log(
    '| engine | firm | case | req/s | p50 ms | p99 ms | server CPU µs/req | errors | ratio | CPU ratio | alone p50 / p99 ms |',
  );
  console.log('|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const c of cases) {
    // --compare names each case with its variant after a comma: compare like with like.
    const variant = (name: string) => name.split(', ')[1] ?? '';
    const bare = cases.find(
      (b) =>
        b.engine === c.engine &&
        b.firm === c.firm &&
        b.name.startsWith('bare') &&
        variant(b.name) === variant(c.name),
    );
    const other = bare && c !== bare && c.name.includes('systemLog');
    const ratio = other ? (c.reqPerSec / bare.reqPerSec).toFixed(2) : '';
    const cpuRatio = other ? (bare.cpuPerReq / c.cpuPerReq).toFixed(2) : '';
    const row = [c.engine, c.firm, c.name, Math.round(c.reqPerSec), c.p50.toFixed(0), c.p99.toFixed(0)];
    const alone = c.alone ? `${c.alone.p50.toFixed(0)} / ${c.alone.p99.toFixed(0)}` : '';
    console.log(`| ${[...row, Math.round(c.cpuPerReq), c.errors, ratio, cpuRatio, alone].join(' | ')} |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
