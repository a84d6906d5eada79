import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const alias = {
  '@domain': path.resolve(import.meta.dirname, 'src/domain'),
  '@web': path.resolve(import.meta.dirname, 'src/web'),
};

const integration: TestProjectInlineConfiguration['test'] = {
  include: ['src/server/**/*.test.ts', 'bench/**/*.test.ts'],
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Two files at once: each spends most of its time in its own database (PGlite in the worker,
  // or the PostgreSQL server), so two workers use both cores. INTEGRATION_WORKERS changes it
  // (scripts/test-integration.mjs: the PostgreSQL run).
  maxWorkers: Number(process.env.INTEGRATION_WORKERS) || 2,
  globalSetup: ['src/server/test/global-setup.ts'],
};

// Integration files that need a module cache of their own: they mock fastify to read its route
// table (staff-matrix, fuzz), or register job kinds and periodic jobs that other files' job
// workers would otherwise run (jobs).
const ISOLATED = [
  'src/server/fuzz.test.ts',
  'src/server/auth/staff-matrix.test.ts',
  'src/server/jobs/jobs.test.ts',
];

/**
 * Vitest runs a project's files after those of the projects named before it, so the isolated
 * integration files (the fuzzer and the staff matrix, minutes each) would start last and leave one
 * worker alone with them at the end. They start first instead, and the short files fill the other
 * worker around them.
 */
class IsolatedFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => ISOLATED.findIndex((p) => f.moduleId.endsWith(p));
    const rank = (f: TestSpecification) => (first(f) === -1 ? ISOLATED.length : first(f));
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

/**
 * Integration files a run leaves out, comma-separated (scripts/test-integration.mjs names the ones
 * the PostgreSQL run would only repeat). A project's own include and exclude are what pick its files:
 * vitest's --exclude on the command line did not take them out of a project.
 */
const SKIPPED = (process.env.INTEGRATION_SKIP ?? '').split(',').filter(Boolean);

const UNIT = ['src/domain/**/*.test.ts', 'src/web/**/*.test.{ts,tsx}'];
// Unit files that need a module cache of their own: one stubs the browser's globals and mocks a
// module; the DOM tests rely on Testing Library's cleanup, which registers itself once per import.
const UNIT_ISOLATED = ['src/web/lib/trpc.test.ts', 'src/web/**/*.test.tsx'];

export default defineConfig({
  resolve: { alias },
  test: {
    sequence: { sequencer: IsolatedFirst },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: UNIT,
          exclude: UNIT_ISOLATED,
          environment: 'node',
          // Shared module cache, as in the integration suite: these files neither mock modules, stub
          // globals nor render into a DOM (fake timers are put back by each test).
          isolate: false,
        },
        plugins: [react()],
      },
      {
        resolve: { alias },
        test: { name: 'unit-isolated', include: UNIT_ISOLATED, environment: 'node' },
        plugins: [react()],
      },
      {
        resolve: { alias },
        test: {
          ...integration,
          name: 'integration',
          exclude: [...ISOLATED, ...SKIPPED],
          // The files share each worker's module cache, so the server is imported once per worker
          // rather than once per file (about 3 s a file, more than half of the suite's time). Safe
          // for these files: none mocks a module or registers a job kind of its own, and each
          // closes the databases and servers it opens.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: { ...integration, name: 'integration-isolated', include: ISOLATED, exclude: SKIPPED },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll is how these tests wait for the screen to catch up with a change; its 1 s
          // default is shorter than a refetch takes when the machine is busy.
          expect: { poll: { timeout: 10_000 } },
          // One browser and one server per file, two files at a time: on this 2-core machine the suite
          // took 625 s so against about 1,030 s one at a time (each file waits on its browser and
          // server much of the time). The longest flows (hosted sign-in, about 60 s with two at once)
          // have the longer timeout below. E2E_WORKERS=1 runs them one by one.
          maxWorkers: Number(process.env.E2E_WORKERS) || 2,
          // In CI a failed browser test runs once more: on a busy 2-core machine a screen can miss
          // a timing the test waits on. Each failure still prints the page it saw
          // (tests/e2e/support/browser.ts), so a flake shows in the log even when the retry passes.
          retry: process.env.CI ? 1 : 0,
          // The files share one worker's module cache, so the server and Playwright are imported
          // once rather than per file (about 3 s a file). Safe here: no test mocks a module, and the
          // only module-level state, the jobs registry, is used by the one app that runs jobs. The
          // integration suite's job tests stay isolated: their workers would run other files' jobs.
          isolate: false,
          globalSetup: ['src/server/test/global-setup.ts'],
        },
      },
    ],
  },
});
