// What bench/run.ts (the load generator) and bench/server.ts (the server child) say to each other.

import superjson from 'superjson';

/**
 * A query as the web app's httpBatchLink sends it: one call in a batch, superjson-encoded input
 * (bench/run.ts and bench/scale.ts time this request).
 */
export const queryPath = (procedure: string, input?: unknown) =>
  `/api/trpc/${procedure}?batch=1&input=${encodeURIComponent(
    JSON.stringify({ 0: input === undefined ? {} : superjson.serialize(input) }),
  )}`;

/** The page every case asks for: page 1 of the large firm's system log, 50 rows, newest first. */
export const BENCH_INPUT = { page: 1, pageSize: 50 } as const;

/** The first page of the large firm's clients for a search term and a filter (issue 5's target). */
export const CLIENTS_BENCH_INPUT = { page: 1, pageSize: 50, search: 'mehta', type: 'company' } as const;

/**
 * Cases that load one procedure for one firm (the system log's pair of routes is apart). Adding a
 * case is one entry here: run.ts measures each after the pairs, and prints its target.
 */
export type TSingleCase = {
  name: string;
  firm: TBenchFirm;
  procedure: string;
  input?: unknown;
  target: string;
};

export const SINGLE_CASES: TSingleCase[] = [
  {
    name: 'tRPC clients.list (search + filter)',
    firm: 'large',
    procedure: 'clients.list',
    input: CLIENTS_BENCH_INPUT,
    target:
      '20,000 clients, search "mehta" + type filter: p50 < 10 ms and p99 < 30 ms on PostgreSQL, p99 < 100 ms on PGlite',
  },
  {
    name: 'tRPC tasks.list (two filters + sort)',
    firm: 'large',
    procedure: 'tasks.list',
    input: {
      view: 'all',
      status: ['IN_PROGRESS'],
      priority: ['high'],
      sort: { field: 'dueDate', dir: 'asc' },
      pageSize: 25,
    },
    target:
      '500,000 tasks, status + priority, by due date: p50 < 10 ms and p99 < 30 ms on PostgreSQL, p99 < 100 ms on PGlite',
  },
  {
    name: 'tRPC dashboard.summary',
    firm: 'large',
    procedure: 'dashboard.summary',
    target: "the owner's home page over 500,000 tasks and 60,000 projects: counts under 50 ms",
  },
];

/** The large firm (200,000 log rows) and a small one (2,000), each with its owner's access token. */
export const BENCH_FIRMS = ['large', 'small'] as const;
export type TBenchFirm = (typeof BENCH_FIRMS)[number];

export type TServerReady = {
  type: 'ready';
  port: number;
  tokens: Record<TBenchFirm, string>;
  generateMs: number;
  engine: string;
};

/** What bench/run.ts --compare can turn off in the server: PGlite's turn, call batching. */
export const KNOBS = ['turns', 'batching'] as const;
export type TKnob = (typeof KNOBS)[number];

export type TServerCommand =
  | { type: 'cpu' }
  | { type: 'knob'; name: TKnob; on: boolean }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'close' };
