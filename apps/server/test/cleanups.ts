/**
 * Clean-ups of what test/helpers.ts made (apps, databases), the newest first. `test/setup.ts`
 * runs them after every test file's last test: a setup file runs once per file, also when the
 * worker goes on to the next file with its modules still loaded (`isolate: false`,
 * docs/testing.md), and helpers called inside a test (where `afterAll` would not register) are
 * cleaned up too.
 */
export const cleanups: (() => Promise<unknown>)[] = [];

/** Closes what the helpers made for the current test file. */
export async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}
