import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from './test/server-process';

// The server as an operator runs it: a separate process, configured by the environment.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-main-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const start = (env: Record<string, string>) => startServerProcess(env, children);

describe('the server process', () => {
  it('stops at start-up with one line naming a bad variable', async () => {
    const server = start({ DATA_DIR: dataDir, GTM_ID: 'GTM-lower' });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe('Invalid configuration: GTM_ID: GTM_ID must match GTM-[0-9A-Z]+');
  });

  it('serves, refuses a second process on the same data directory, and shuts down cleanly', async () => {
    const first = start({ DATA_DIR: dataDir });
    const url = await first.listening;
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ status: 'ok', database: 'pglite' });

    const second = start({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/is in use by process \d+/);

    // Ready for a load balancer; fetch keeps the connection open afterwards (idle keep-alive).
    expect(await (await fetch(`${url}/api/ready`)).json()).toEqual({ status: 'ready' });
    const stopping = Date.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Nothing was in flight: no grace period is waited out, keep-alive or not.
    expect(Date.now() - stopping).toBeLessThan(1000);
    expect(first.output()).toContain('shutting down');

    // The database was closed cleanly: the same directory opens again.
    const again = start({ DATA_DIR: dataDir });
    const url2 = await again.listening;
    expect((await fetch(`${url2}/api/health`)).status).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    // Three server processes, each compiling with tsx and opening PGlite: beyond the suite's 30 s
    // when another test file shares the two cores.
  }, 120_000);
});
