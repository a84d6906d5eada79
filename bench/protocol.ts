// What bench/run.ts (the load generator) and bench/server.ts (the server child) say to each other.

/** The page every case asks for: page 1 of the large firm's system log, 50 rows, newest first. */
export const BENCH_INPUT = { page: 1, pageSize: 50 } as const;

/** The first page of the large firm's clients for a search term and a filter (issue 5's target). */
export const CLIENTS_BENCH_INPUT = { page: 1, pageSize: 50, search: 'mehta', type: 'company' } as const;

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

export type TServerCommand =
  | { type: 'cpu' }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'close' };
