/**
 * Whether calls of one event-loop turn share a statement (the staff check's lookup, the rate
 * limit's count) and the rate limit reserves a busy caller's calls a few at a time
 * (http/rate-limit-lease.ts). Always on in the product; bench/run.ts --compare batching turns it
 * off in its server to measure both ways in one run (bench/README.md, issue 42).
 */
export const callBatching = { on: true };
