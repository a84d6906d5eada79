import os from 'node:os';

/** The q-quantile of the measured values (nearest rank), as every bench reports p50 and p95. */
export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** The load average beside a figure: a shared machine inflates every one of them. */
export const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
