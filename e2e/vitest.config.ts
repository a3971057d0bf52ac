// The browser journeys: `npx vitest run --config e2e/vitest.config.ts` from the repository
// root. One server per edition is shared by every file (global setup); files run one at a
// time because they share the machine's Chromium and CPU.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default defineConfig({
  root,
  test: {
    name: 'e2e',
    root,
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: false,
    // Building the app and a first PGlite start can take a while on a cold machine.
    hookTimeout: 240_000,
    testTimeout: 120_000,
    teardownTimeout: 30_000,
    retry: 0,
    // expect.poll waits as long as a Playwright action does (the contexts' default): its own
    // default of 1 s fails a first render on a loaded machine.
    expect: { poll: { timeout: 20_000, interval: 100 } },
  },
});
