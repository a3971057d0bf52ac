import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { DATABASE_FREE_TESTS } from './apps/server/test/database-free.ts';

/**
 * Unit, route and component tests, one project per workspace. The server project runs on
 * PGlite by default and on PostgreSQL with TEST_DB=postgres (scripts/test.mjs does both).
 * Browser journeys have their own config in e2e/. How the tests are organised and kept fast:
 * docs/testing.md.
 */
export default defineConfig({
  test: {
    // Two files at a time, even on two cores: one worker kept about 0.75 of a core busy (it
    // waits on databases, timers and the fakes' sockets; docs/testing.md "Why it is fast"). At
    // most four: each server worker holds the app's modules and its databases. The PostgreSQL
    // pass too (its test pools close idle connections: scripts/test.mjs).
    maxWorkers: Math.min(4, Math.max(2, os.availableParallelism() - 1)),
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // The PostgreSQL pass runs only the files that use a database (test/database-free.ts).
          exclude:
            process.env.TEST_DB === 'postgres'
              ? [...configDefaults.exclude, ...DATABASE_FREE_TESTS]
              : configDefaults.exclude,
          environment: 'node',
          globalSetup: ['./test/global-setup.ts'],
          setupFiles: ['./test/setup.ts'],
          // One worker goes through the files with the app's modules loaded once, instead of a
          // fresh process importing them again for every file (docs/testing.md).
          isolate: false,
          // Generous: a test that builds apps (PGlite copies, the job queue) may wait on a busy
          // machine; speed is measured by the benchmarks, never by a test's timeout.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
          // A file's first test imports its lazy routes and texts: on a loaded machine that
          // alone can pass vitest's default 5 s. Speed is the benchmarks' to measure.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
