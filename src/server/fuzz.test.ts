import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AMZ_JSON, OPERATIONS } from './idp/endpoint';
import { createTestApp, type TTestApp } from './test/app';
import {
  describeInput,
  EVIL_STRINGS,
  evilString,
  evilValue,
  FUZZ_RUNS,
  FUZZ_SEED,
  procedureInputArb,
  type TIdPool,
  type TSchema,
} from './test/fuzz';
import { signedUpUser } from './test/idp-user';
import { seedPortalUser } from './test/portal';
import { seedFirmWithRoles } from './test/seeded-firm';
import { idsIn, PNG, seedTenancyFirm, snapshotFirm, type TTenancyFirm } from './test/tenancy';
import { appRouter } from './trpc/router';

// The fuzz suite (issue 16): every tRPC procedure (read from the router), every Fastify route (read
// from the route table as it is built) and every identity-provider operation (read from OPERATIONS)
// gets generated and mutated input — NUL, lone surrogates, far dates, huge and negative numbers,
// NaN/Infinity, wrong types, deep nesting, long strings, extra keys, another firm's ids — over the
// real HTTP endpoint. The property: never a 5xx (nor INTERNAL_SERVER_ERROR), /api/health still ok
// after each batch, and firm B (the firm nobody calls as) unchanged.
//
// `npm test` runs FUZZ_RUNS (30) cases per target with FUZZ_SEED (1616); `npm run fuzz -- --runs 2000
// --seed N` runs longer. A failure names the target, fast-check's shrunk input, the server's logged
// cause and the seed and path to replay it with (the fixture's ids are new each run, so a replay
// regenerates the same shapes with fresh ids).
//
// Fixture-destroying procedures (DESTRUCTIVE below) run last, each on a firm of its own.

// Fastify's route table, as the staff matrix reads it, and the server's error log (the cause of a 500:
// the tRPC adapter logs it with the procedure, the HTTP error handler with the request).
const ROUTE_TABLE = vi.hoisted(() => [] as { method: string; url: string }[]);
type TLogged = { message?: string; code?: string; stack?: string; type?: string };
const SERVER_ERRORS = vi.hoisted(() => [] as { msg?: string; err?: TLogged }[]);
vi.mock('fastify', async (importOriginal) => {
  const mod = await importOriginal<typeof import('fastify')>();
  const original = mod.default;
  const wrapped = ((options: Parameters<typeof original>[0]) => {
    const app = original({
      ...(options as object),
      logger: {
        level: 'error',
        stream: {
          write(line: string) {
            try {
              SERVER_ERRORS.push(JSON.parse(line));
            } catch {
              SERVER_ERRORS.push({ msg: line });
            }
          },
        },
      },
    } as Parameters<typeof original>[0]);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) ROUTE_TABLE.push({ method, url: route.url });
    });
    return app;
  }) as typeof original;
  return { ...mod, default: wrapped, fastify: wrapped };
});

// ---------------------------------------------------------------------------------------------------
// Known 500s that no branch fixes yet: procedure (or route, or IdP operation) + cause. Each entry's
// witness is replayed by its own test, which fails when the entry stops failing, so the list only
// shrinks. A fuzz case whose 500 matches an entry (target and cause) passes; any other 500 fails.
type TAllowed = { target: string; cause: RegExp; why: string; witness: () => Promise<TOutcome> };
const ALLOW_LIST: TAllowed[] = [];

// ---------------------------------------------------------------------------------------------------

type TProcedureDef = { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: TSchema[] } };
const procedures = appRouter._def.procedures as unknown as Record<string, TProcedureDef>;
const ALL_PROCEDURES = Object.keys(procedures).sort();

/**
 * Procedures that would break the shared fixture for the cases after them: signing the owner out,
 * handing the firm to someone else, deactivating a member or changing roles (the owner's own
 * included), or requiring MFA with no grace (the owner has no authenticator). Each runs after
 * everything else, on a firm of its own built for it.
 */
const DESTRUCTIVE = new Set([
  'auth.logout',
  'team.transferOwnership',
  'team.deactivate',
  'team.changeRole',
  'roles.update',
  'roles.delete',
  'settings.updateMfaPolicy',
  'clientPortalAuth.logout',
]);
const isPortal = (p: string) => p.startsWith('clientPortal');
/** A target's batch grows with the runs (`npm run fuzz -- --runs 2000`); so does its time limit. */
const TIMEOUT = 30_000 + FUZZ_RUNS * 250;

type TOutcome = { status: number; code: string; message: string };

let t: TTestApp;
let dataDir: string;
let A: TTenancyFirm;
let B: TTenancyFirm;
let pool: TIdPool;
/** Firm A's ids by table (each row's first uuid is its id): a route's `:id` takes the right kind. */
let idsByTable: Record<string, string[]>;

function call(client: unknown, procedurePath: string, input: unknown): Promise<unknown> {
  let node = client as Record<string, unknown>;
  for (const part of procedurePath.split('.')) node = node[part] as Record<string, unknown>;
  const procedure = node as unknown as {
    query(i: unknown): Promise<unknown>;
    mutate(i: unknown): Promise<unknown>;
  };
  return procedures[procedurePath]?._def.type === 'query' ? procedure.query(input) : procedure.mutate(input);
}

const DEEP = `${'['.repeat(3000)}${']'.repeat(3000)}`;
/**
 * JSON with bigints as text, for bodies sent without superjson; nesting deeper than the test's own
 * stack becomes 3,000 nested arrays in that place, which is what such a client would send.
 */
function toJson(value: unknown, deep: () => string = () => DEEP): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return deep();
  }
}

/** A path segment or query value as a client that does not care would encode it (lone surrogates too). */
function encodeLoose(text: string): string {
  return [...text]
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return '%ED%A0%80';
      }
    })
    .join('');
}

/**
 * A procedure call as the browser makes it (the tRPC client, superjson). An input superjson refuses
 * to serialise on the client (a `__proto__` key, nesting deeper than its recursion) is sent as the
 * wire format by hand instead, so the server's parsing meets it all the same.
 */
async function callProcedure(
  client: unknown,
  headers: Record<string, string>,
  procedurePath: string,
  input: unknown,
): Promise<TOutcome> {
  let serialisable = true;
  try {
    superjson.serialize(input);
  } catch {
    serialisable = false;
  }
  if (serialisable) {
    const first = await outcome(call(client, procedurePath, input));
    // A pooled connection the server closed after an earlier answer (a 431 for a long URL closes it):
    // the request never reached the server, so it is sent once more on a fresh connection.
    return first.status === 0 ? outcome(call(client, procedurePath, input)) : first;
  }
  const json = toJson({ json: input }, () => `{"json":${DEEP}}`);
  const query = procedures[procedurePath]?._def.type === 'query';
  return rawFetch(
    query ? `/api/trpc/${procedurePath}?input=${encodeURIComponent(json)}` : `/api/trpc/${procedurePath}`,
    {
      method: query ? 'GET' : 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: query ? undefined : json,
    },
  );
}

/** The HTTP status and tRPC code of a call; a network error (the server gone) is status 0. */
async function outcome(p: Promise<unknown>): Promise<TOutcome> {
  try {
    await p;
    return { status: 200, code: 'ok', message: '' };
  } catch (error) {
    const e = error as {
      data?: { code?: string; httpStatus?: number };
      meta?: { response?: { status?: number } };
      message?: string;
      cause?: unknown;
    };
    const status = e.data?.httpStatus ?? e.meta?.response?.status ?? 0;
    return { status, code: e.data?.code ?? `HTTP ${status}`, message: String(e.message ?? error) };
  }
}

/** The server's logged cause of the 5xx answers since `mark`. */
function causesSince(mark: number): string {
  // A failed query's message carries the whole statement: the database's error is the last
  // "caused by" of the stack; where it happened, the first frame in the server's own code.
  return SERVER_ERRORS.slice(mark)
    .map((l) => {
      const stack = l.err?.stack ?? '';
      const root = [...stack.matchAll(/caused by: (.*)/g)].pop()?.[1] ?? l.err?.message ?? l.msg ?? '';
      const where = stack.match(/src\/server\/([\w/.-]+:\d+)/)?.[1];
      return `${root.split('\n')[0]}${where ? ` (at ${where})` : ''}`;
    })
    .join(' | ')
    .slice(0, 400);
}

const isServerError = (o: TOutcome) =>
  o.status >= 500 || o.status === 0 || o.code === 'INTERNAL_SERVER_ERROR';

/** Every failure the suite saw, for the summary at the end (and the report). */
const FAILURES: string[] = [];
const ALLOWED_SEEN = new Set<TAllowed>();

/**
 * Runs a property over `arb` for `target`: a case fails on a 5xx unless the allow-list names the
 * target and the logged cause. Answers the failure (shrunk input, cause, replay) or null.
 */
async function fuzz<T>(
  target: string,
  arb: fc.Arbitrary<T>,
  send: (input: T) => Promise<TOutcome>,
  runs = FUZZ_RUNS,
) {
  let lastCause = '';
  const details = await fc.check(
    fc.asyncProperty(arb, async (input) => {
      const mark = SERVER_ERRORS.length;
      const got = await send(input);
      if (!isServerError(got)) return true;
      lastCause = causesSince(mark) || got.message;
      const allowed = ALLOW_LIST.find((a) => a.target === target && a.cause.test(lastCause));
      if (allowed) {
        ALLOWED_SEEN.add(allowed);
        return true;
      }
      throw new Error(`${got.status} ${got.code}: ${lastCause}`);
    }),
    // FUZZ_PATH (with FUZZ_SEED and `-t` naming the one target) replays a reported failure.
    {
      seed: FUZZ_SEED,
      numRuns: runs,
      endOnFailure: false,
      ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
    },
  );
  if (!details.failed) return null;
  const message =
    `${target}: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\n` +
    `  shrunk input: ${describeInput(details.counterexample?.[0])}\n` +
    `  replay: FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath} npx vitest run --project integration src/server/fuzz.test.ts -t '${target}'`;
  FAILURES.push(message);
  return message;
}

async function healthy() {
  const res = await fetch(`${t.url}/api/health`);
  return res.status;
}

const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);

/** A batch: the property over a target, then the server healthy and firm B untouched. */
async function batch(target: string, run: () => Promise<string | null>) {
  const before = await snapshotFirm(t, B.org.id);
  const failure = await run();
  expect(await healthy(), `${target}: /api/health after the batch`).toBe(200);
  expect(changedTables(before, await snapshotFirm(t, B.org.id)), `${target}: firm B’s rows changed`).toEqual(
    [],
  );
  expect(failure).toBeNull();
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fuzz-'));
  t = await createTestApp({ DATA_DIR: dataDir, VAULT_KEYS: `k1:${randomBytes(32).toString('base64')}` });
  A = await seedTenancyFirm(t, 'Alphaz');
  B = await seedTenancyFirm(t, 'Bravoz');
  const own = [...idsIn(await snapshotFirm(t, A.org.id))];
  const other = [...idsIn(await snapshotFirm(t, B.org.id))].slice(0, 40);
  pool = { own, other };
  idsByTable = Object.fromEntries(
    Object.entries(await snapshotFirm(t, A.org.id)).map(([table, rows]) => [
      table,
      rows
        .split('\n')
        .flatMap(
          (row) => row.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)?.[0] ?? [],
        ),
    ]),
  );
}, 180_000);
afterAll(async () => {
  await t?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  if (FAILURES.length) console.error(`fuzz failures (seed ${FUZZ_SEED}):\n${FAILURES.join('\n')}`);
});

type TCaller = { client: unknown; headers: Record<string, string> };
const ownerOf = (token: string): TCaller => ({
  client: t.client(token),
  headers: { authorization: `Bearer ${token}` },
});
const portalOf = (p: { client: unknown; token: string }): TCaller => ({
  client: p.client,
  headers: { cookie: `practice_portal_session=${p.token}` },
});

function procedureBatch(procedurePath: string, caller: () => TCaller, idPool: () => TIdPool) {
  return batch(procedurePath, () =>
    fuzz(
      procedurePath,
      procedureInputArb(procedures[procedurePath]?._def.inputs ?? [], idPool()),
      (input) => {
        const { client, headers } = caller();
        return callProcedure(client, headers, procedurePath, input);
      },
    ),
  );
}

describe('tRPC procedures, fuzzed through /api/trpc', () => {
  it('reads every procedure from the router', () => {
    expect(ALL_PROCEDURES.length).toBeGreaterThan(150);
    expect(
      [...DESTRUCTIVE].filter((p) => !procedures[p]),
      'DESTRUCTIVE names a gone procedure',
    ).toEqual([]);
  });

  describe.each(ALL_PROCEDURES.filter((p) => !DESTRUCTIVE.has(p)))('%s', (procedurePath) => {
    it(
      'never answers 5xx; health ok; firm B unchanged',
      async () => {
        const caller = isPortal(procedurePath) ? () => portalOf(A.portal) : () => ownerOf(A.owner.token);
        await procedureBatch(procedurePath, caller, () => pool);
        // The shared fixture still works: a procedure that breaks it belongs in DESTRUCTIVE.
        expect((await outcome(t.client(A.owner.token).account.get.query())).code, 'the owner’s session').toBe(
          'ok',
        );
        expect(
          (await outcome(A.portal.client.clientPortalProfile.me.query())).code,
          'the portal session',
        ).toBe('ok');
      },
      TIMEOUT,
    );
  });
});

describe('the tRPC transport itself (raw requests to /api/trpc)', () => {
  const paths = fc.oneof(
    fc.constantFrom(...ALL_PROCEDURES),
    fc.constantFrom(
      'no.such',
      '',
      'clients.list,clients.get',
      '__proto__',
      'clients',
      '%00',
      'a'.repeat(6000),
    ),
  );
  const bodies = fc.oneof(
    fc.constantFrom(
      '',
      'null',
      '{',
      '[]',
      '{"json":',
      '{"json":{"clientId":"x"},"meta":{"values":{"clientId":["Date"]}}}',
      '{"json":{"a":"x"},"meta":{"values":{"a":["bigint"]}}}',
      '{"json":{"a":"x"},"meta":{"values":{"a":["class","Nope"]}}}',
      '{"json":{"a":"x"},"meta":{"values":{"a":["custom","Nope"]}}}',
      '{"json":{"a":[1]},"meta":{"values":{"a":["map"]}}}',
      '{"json":{"a":{}},"meta":{"values":{"a":["set"]}}}',
      '{"json":{"a":"1"},"meta":{"values":{"a":["number"]}}}',
      '{"json":{"a":"x"},"meta":{"values":{"a":["regexp"]}}}',
      '{"json":{"a":"x"},"meta":{"referentialEqualities":{"a":["a.b.c"]}}}',
      '{"json":{},"meta":{"values":{"__proto__.polluted":["Date"]}}}',
      '{"0":{"json":null},"1":{"json":null}}',
      `{"json":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      '\u0000',
    ),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ json: v })),
    fc.string({ unit: 'binary', maxLength: 60 }),
  );
  const requests = fc.record({
    path: paths,
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
    batch: fc.boolean(),
    body: bodies,
    contentType: fc.constantFrom(
      'application/json',
      'text/plain',
      'multipart/form-data',
      'application/x-www-form-urlencoded',
      '',
    ),
  });

  it(
    'never answers 5xx to malformed envelopes, superjson meta or paths',
    async () => {
      await batch('ALL /api/trpc/:path (raw)', () =>
        fuzz(
          'ALL /api/trpc/:path',
          requests,
          async (r) => {
            const query = new URLSearchParams();
            if (r.batch) query.set('batch', '1');
            if (r.method === 'GET') query.set('input', r.body);
            const res = await rawFetch(
              `/api/trpc/${encodeURIComponent(r.path).replace(/%2C/g, ',')}?${query}`,
              {
                method: r.method,
                headers: {
                  authorization: `Bearer ${A.owner.token}`,
                  ...(r.contentType ? { 'content-type': r.contentType } : {}),
                },
                body: r.method === 'GET' ? undefined : r.body,
              },
            );
            return res;
          },
          FUZZ_RUNS * 20,
        ),
      );
    },
    TIMEOUT * 5,
  );
});

/** A request; a client-side refusal (a header fetch will not send) counts as a 400 of our own. */
async function rawFetch(url: string, init: RequestInit, retry = true): Promise<TOutcome> {
  let res: Response;
  try {
    res = await fetch(`${t.url}${url}`, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (error instanceof TypeError && !cause)
      return { status: 400, code: 'client refused', message: error.message };
    // Once more on a fresh connection (see callProcedure); twice is the server's doing.
    if (retry) return rawFetch(url, init, false);
    return {
      status: 0,
      code: `network: ${cause?.code ?? ''}`,
      message: `${error} ${cause?.code ?? ''} ${(cause as Error | undefined)?.message ?? ''}`,
    };
  }
  const text = await res.text();
  return { status: res.status, code: `HTTP ${res.status}`, message: text.slice(0, 200) };
}

// ---------------------------------------------------------------------------------------------------
// Plain HTTP routes, from Fastify's table.

function routeKeys() {
  const keys = new Set<string>();
  for (const { method, url } of ROUTE_TABLE) {
    if (!url.startsWith('/api') || method === 'HEAD' || url.startsWith('/api/trpc')) continue;
    keys.add(`${method} ${url}`);
  }
  return [...keys].sort();
}

const BOUNDARY = 'fuzzBoundary16';
/** Multipart bodies a broken or hostile client sends. */
const multipartBodies: { name: string; contentType: string; body: () => Uint8Array | string }[] = [
  { name: 'missing boundary', contentType: 'multipart/form-data', body: () => `--${BOUNDARY}\r\n` },
  {
    name: 'truncated',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: () =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhel`,
  },
  {
    name: 'field before file',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: () =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${PNG.toString('latin1')}\r\n--${BOUNDARY}--\r\n`,
  },
  {
    name: 'fields without file',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: () =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--${BOUNDARY}--\r\n`,
  },
  {
    name: 'two files, odd names',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: () =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="\u0000../x\ud800.csv"\r\n\r\nClient code,Client name\r\n\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${'n'.repeat(5000)}"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
  },
  {
    name: 'empty file name and no parts',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: () => `--${BOUNDARY}--\r\n`,
  },
  {
    name: 'wrong boundary',
    contentType: 'multipart/form-data; boundary=other',
    body: () =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
  },
  { name: 'json', contentType: 'application/json', body: () => '{"file":"x"}' },
  { name: 'garbage', contentType: 'application/octet-stream', body: () => randomBytes(300) },
  {
    name: 'csv with NUL and surrogate',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: () =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\n\r\nClient code,Client name,Email\r\nA\u0000B,\ud800x,${'y'.repeat(9000)}\r\n"unterminated\r\n--${BOUNDARY}--\r\n`,
  },
];

function routeRequestArb(key: string) {
  const [method = 'GET', url = '/'] = key.split(' ');
  // The ids a parameter likely wants: the tables named like it or the segment before it
  // (`documents/:id` → documents, `folders/:id` → document_folders, `:clientId` → clients).
  const segments = url.split('/');
  const params = segments.flatMap((part, i) => (part.startsWith(':') || part === '*' ? [i] : []));
  const likely = (i: number) => {
    const words = [segments[i]?.replace(/^:|Id$/g, ''), segments[i - 1]]
      .filter((w): w is string => !!w && w !== 'id' && w !== '*')
      .map((w) => w.replace(/s$/, ''));
    const ids = Object.entries(idsByTable)
      .filter(([table]) => words.some((w) => table.includes(w)))
      .flatMap(([, ids]) => ids);
    return ids.length ? ids : pool.own;
  };
  const segmentAt = (i: number) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...likely(i)), weight: 6 },
      { arbitrary: fc.constantFrom(...pool.own), weight: 1 },
      { arbitrary: fc.constantFrom(...pool.other), weight: 1 },
      { arbitrary: evilString.map((s) => encodeLoose(s.slice(0, 300))), weight: 2 },
      { arbitrary: fc.constantFrom('%', '%zz', '%00', '..', '%2e%2e', 'a%2Fb', 'x'.repeat(6000)), weight: 1 },
    );
  const queryValue = fc.oneof(
    fc.constantFrom('2147483648', '-1', '0', '1.5', '1e309', 'NaN', '99999999999999999999', '0x10'),
    fc.constantFrom(...pool.own),
    fc.constantFrom(...pool.other),
    evilString.map((s) => encodeLoose(s.slice(0, 300))),
    fc.constantFrom('%', '%zz', '', '[]', 'a&b'),
  );
  // The routes' own query fields (folderId, taskId, clientId, version, v for the logo) and others.
  const queryKey = fc.constantFrom(
    'folderId',
    'taskId',
    'clientId',
    'version',
    'v',
    'search',
    'status',
    'groupId',
    'page',
    'pageSize',
    'sort',
    'id',
    '__proto__',
    'folderId[]',
  );
  const query = fc
    .array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
  const headers = fc.record(
    {
      range: fc.constantFrom(
        'bytes=0-1',
        'bytes=abc',
        'bytes=-5',
        'bytes=99999999999999999999-',
        'bytes=5-1',
        'bytes=0-1,2-3',
      ),
      'if-none-match': fc.constantFrom('*', '"x"', 'W/"\u00ff"'),
      'if-modified-since': fc.constantFrom('not a date', FAR_HTTP_DATE),
      'accept-encoding': fc.constantFrom('gzip;q=abc', 'br, x, *;q=0'),
      authorization: fc.constantFrom(
        'Bearer',
        'Bearer x.y.z',
        'Basic Zm9vOmJhcg==',
        `Bearer ${'a'.repeat(9000)}`,
      ),
      cookie: fc.constantFrom('practice_portal_session=', 'practice_portal_session=%zz', 'a=b; a=c'),
      'x-forwarded-for': fc.constantFrom('not-an-ip', '::1, 999.1.1.1'),
      'content-length-hint': fc.constant('x'),
    },
    { requiredKeys: [] },
  );
  const body = fc.constantFrom(...multipartBodies);
  return fc
    .record({
      path: fc.tuple(...params.map(segmentAt)),
      query,
      headers,
      body,
      auth: fc.constantFrom('caller', 'caller', 'caller', 'none'),
      method: fc.constantFrom(method, method, method, 'PUT'),
    })
    .map((r) => {
      let i = 0;
      const pathText = url.replace(/:[A-Za-z]+|\*/g, () => r.path[i++] as string);
      return { ...r, url: `${pathText}${r.query ? `?${r.query}` : ''}`, template: url };
    });
}
const FAR_HTTP_DATE = 'Sat, 13 Sep 275760 00:00:00 GMT';

describe('plain HTTP routes, fuzzed', () => {
  it('reads the routes from Fastify’s table', () => {
    expect(routeKeys().length).toBeGreaterThan(10);
  });

  // Known once the app is built: the table is filled by buildApp in beforeAll.
  it(
    'never answers 5xx to any route (bad multipart, odd paths and queries, bad headers)',
    async () => {
      const keys = routeKeys();
      const failed: string[] = [];
      for (const key of keys) {
        await batch(key, () =>
          fuzz(key, routeRequestArb(key), async (r) => {
            const callerHeaders: Record<string, string> = r.template.startsWith('/api/clientportal')
              ? { cookie: `practice_portal_session=${A.portal.token}` }
              : { authorization: `Bearer ${A.owner.token}` };
            const headers: Record<string, string> = {
              ...(r.auth === 'caller' ? callerHeaders : {}),
              ...r.headers,
            };
            const hasBody = r.method !== 'GET' && r.method !== 'HEAD';
            if (hasBody) headers['content-type'] = r.body.contentType;
            return rawFetch(r.url, {
              method: r.method,
              headers,
              body: hasBody ? (r.body.body() as BodyInit) : undefined,
            });
          }),
        ).catch((error: Error) => failed.push(`${key}: ${error.message}`));
      }
      expect(failed).toEqual([]);
    },
    TIMEOUT * 10,
  );
});

// ---------------------------------------------------------------------------------------------------
// The identity provider's operations: POST /api/idp with X-Amz-Target.

const IDP_FIELDS = [
  'ClientId',
  'Username',
  'Password',
  'PreviousPassword',
  'ProposedPassword',
  'AccessToken',
  'RefreshToken',
  'Token',
  'AuthFlow',
  'AuthParameters',
  'ChallengeName',
  'ChallengeResponses',
  'Session',
  'ConfirmationCode',
  'Code',
  'UserAttributes',
  'UserAttributeNames',
  'AttributeName',
  'DeviceKey',
  'DeviceName',
  'DeviceSecretVerifierConfig',
  'DeviceRememberedStatus',
  'Limit',
  'PaginationToken',
  'ClientMetadata',
  'ValidationData',
  'SecretHash',
] as const;

function idpBodyArb(tokens: string[], identity: string[]) {
  const value = fc.oneof(
    { arbitrary: fc.constantFrom(...tokens), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        'USER_PASSWORD_AUTH',
        'USER_SRP_AUTH',
        'REFRESH_TOKEN_AUTH',
        'PASSWORD_VERIFIER',
        'DEVICE_SRP_AUTH',
        'NEW_PASSWORD_REQUIRED',
        'remembered',
      ),
      weight: 2,
    },
    {
      arbitrary: fc.constantFrom('fuzz@example.test', ...identity),
      weight: 2,
    },
    {
      arbitrary: fc.dictionary(
        fc.constantFrom(
          'USERNAME',
          'PASSWORD',
          'SRP_A',
          'REFRESH_TOKEN',
          'SECRET_HASH',
          'DEVICE_KEY',
          'PASSWORD_CLAIM_SIGNATURE',
          'PASSWORD_CLAIM_SECRET_BLOCK',
          'TIMESTAMP',
          'NEW_PASSWORD',
        ),
        fc.oneof(evilString, fc.constantFrom('ff', '0', 'A'.repeat(1024), ...tokens)),
        { maxKeys: 4 },
      ),
      weight: 2,
    },
    {
      arbitrary: fc.array(
        fc.record(
          {
            Name: fc.oneof(
              fc.constantFrom('email', 'given_name', 'phone_number', 'sub', 'custom:x'),
              evilString,
            ),
            Value: fc.oneof(evilString, fc.string()),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
      weight: 1,
    },
    {
      arbitrary: fc.record({ Salt: evilString, PasswordVerifier: evilString }, { requiredKeys: [] }),
      weight: 1,
    },
    { arbitrary: evilValue, weight: 4 },
  );
  return fc.record(
    {
      ...Object.fromEntries(IDP_FIELDS.map((f) => [f, value])),
      ClientId: fc.oneof(
        { arbitrary: fc.constant(t.config.idp.clientId), weight: 5 },
        { arbitrary: value, weight: 1 },
      ),
    },
    { requiredKeys: ['ClientId'] },
  );
}

describe('identity-provider operations, fuzzed through POST /api/idp', () => {
  it('reads every operation from OPERATIONS', () => {
    expect(Object.keys(OPERATIONS).length).toBeGreaterThan(15);
  });

  it.each(Object.keys(OPERATIONS).sort())(
    '%s never answers 5xx',
    async (operation) => {
      // A user of its own, signed up and in over the wire (its tokens, name and password in the
      // values), so the operations get past "who is this" and no call signs the fixture's people out.
      const email = `fuzz-${operation.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`;
      const user = await signedUpUser(
        { endpoint: `${t.url}/api/idp`, clientId: t.config.idp.clientId, outboxDir: t.config.mail.outboxDir },
        { email, password: 'Ledger#2026' },
      );
      const tokens = [user.AccessToken, user.IdToken, user.RefreshToken, 'x.y.z', 'A'.repeat(43)];
      const arb = fc.oneof(
        {
          arbitrary: idpBodyArb(tokens, [email, 'Ledger#2026', 'Ledger#2027']).map((b) =>
            toJson(b, () => `{"ClientId":"${t.config.idp.clientId}","Username":${DEEP}}`),
          ),
          weight: 8,
        },
        {
          arbitrary: fc.constantFrom(
            '',
            '{',
            '[]',
            'null',
            '"x"',
            `${'['.repeat(4000)}`,
            '{"ClientId":"\u0000"}',
            '\ud800',
          ),
          weight: 1,
        },
        { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 1 },
      );
      await batch(`POST /api/idp ${operation}`, () =>
        fuzz(
          `idp:${operation}`,
          fc.tuple(arb, fc.constantFrom(AMZ_JSON, AMZ_JSON, AMZ_JSON, 'application/json', 'text/plain')),
          ([body, contentType]) =>
            rawFetch('/api/idp', {
              method: 'POST',
              headers: {
                'content-type': contentType,
                'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
              },
              body,
            }),
        ),
      );
    },
    TIMEOUT,
  );

  it('never answers 5xx to an odd X-Amz-Target', async () => {
    await batch('POST /api/idp (target)', () =>
      fuzz(
        'idp:target',
        fc.oneof(
          evilString,
          fc.constantFrom(
            'AWSCognitoIdentityProviderService.',
            'AWSCognitoIdentityProviderService.__proto__',
            'AWSCognitoIdentityProviderService.constructor',
            'AWSCognitoIdentityProviderService.hasOwnProperty',
            'AWSCognitoIdentityProviderService.toString',
          ),
        ),
        (target) =>
          rawFetch('/api/idp', {
            method: 'POST',
            headers: { 'content-type': AMZ_JSON, 'x-amz-target': target.slice(0, 8000) },
            body: '{}',
          }),
      ),
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// The fixture-destroying procedures, last, each on its own firm (its owner, its ids).

describe('destructive procedures, each on a firm of its own', () => {
  it.each([...DESTRUCTIVE].sort())(
    '%s never answers 5xx; health ok; firm B unchanged',
    async (procedurePath) => {
      const firm = await seedFirmWithRoles(t, `Fuzz ${procedurePath}`);
      const portal = await seedPortalUser(t, { orgId: firm.org.id, clientIds: [] });
      const own = [...idsIn(await snapshotFirm(t, firm.org.id))];
      const caller = isPortal(procedurePath) ? () => portalOf(portal) : () => ownerOf(firm.owner.token);
      await procedureBatch(procedurePath, caller, () => ({ own, other: pool.other }));
    },
    TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------------

describe('the allow-list', () => {
  it.runIf(ALLOW_LIST.length > 0).each(ALLOW_LIST.map((a) => [`${a.target} — ${a.cause}`, a] as const))(
    '%s still fails (remove the entry when it is fixed)',
    async (_name, entry) => {
      const mark = SERVER_ERRORS.length;
      const got = await entry.witness();
      expect(isServerError(got), `${entry.target} no longer fails: remove it from ALLOW_LIST`).toBe(true);
      expect(causesSince(mark) || got.message).toMatch(entry.cause);
    },
  );
  it('has only entries for targets that exist', () => {
    expect(EVIL_STRINGS.length).toBeGreaterThan(0);
    expect(
      ALLOW_LIST.filter(
        (a) => !a.target.includes(' ') && !a.target.startsWith('idp:') && !procedures[a.target],
      ),
    ).toEqual([]);
  });
});
