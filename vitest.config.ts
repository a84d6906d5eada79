import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const alias = {
  '@domain': path.resolve(import.meta.dirname, 'src/domain'),
  '@web': path.resolve(import.meta.dirname, 'src/web'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['src/domain/**/*.test.ts', 'src/web/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
        plugins: [react()],
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['src/server/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two files at once: each spends most of its time in its own database (PGlite in the
          // worker, or the PostgreSQL server), so two workers use both cores.
          maxWorkers: 2,
          globalSetup: ['src/server/test/global-setup.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll is how these tests wait for the screen to catch up with a change; its 1 s
          // default is shorter than a refetch takes when the machine is busy.
          expect: { poll: { timeout: 10_000 } },
          // One browser and one server per file, one file at a time: on a 2-core machine two at once
          // starved each other into timeouts.
          maxWorkers: 1,
          // The files share one worker's module cache, so the server and Playwright are imported
          // once rather than per file (about 3 s a file). Safe here: no test mocks a module, and the
          // only module-level state, the jobs registry, is used by the one app that runs jobs. The
          // integration suite stays isolated: its workers would run other files' periodic jobs.
          isolate: false,
          globalSetup: ['src/server/test/global-setup.ts'],
        },
      },
    ],
  },
});
