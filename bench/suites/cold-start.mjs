// Cold start on an existing database: the built server is started once on a fresh data
// directory (creating and migrating the PGlite database), stopped, and started again on the
// same directory; the second start is the one a restart or a deploy pays.
export const name = 'cold-start';
export const description = 'restart of the built server on an existing PGlite database';
export const order = 10;

const TARGET_MS = 2000;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** @param {{ startServer: Function, makeDataDir: Function, log: Function }} ctx */
export async function run({ startServer, makeDataDir, log }) {
  const restarts = Math.max(1, Number(process.env.BENCH_COLD_RESTARTS ?? 3));
  const dataDir = makeDataDir('reverie-bench-');
  const fs = await import('node:fs');
  try {
    const first = await startServer({ dataDir, pollMs: 10, waitIdle: false });
    log(`first start (new database): ${Math.round(first.readyMs)} ms to /api/health, startup_ms ${first.startupMs}`);
    await first.stop({ removeData: false });

    const starts = [];
    for (let i = 0; i < restarts; i++) {
      const server = await startServer({ dataDir, pollMs: 10, waitIdle: false });
      starts.push({ readyMs: server.readyMs, startupMs: server.startupMs });
      await server.stop({ removeData: false });
    }
    const second = starts[0];
    log(`restarts: ${starts.map((s) => `${Math.round(s.readyMs)} ms`).join(', ')}`);
    return [
      { label: 'second start: spawn → /api/health 200', value: second.readyMs, unit: 'ms', target: { max: TARGET_MS } },
      {
        label: 'second start: logged startup_ms',
        value: second.startupMs ?? NaN,
        unit: 'ms',
        target: { max: TARGET_MS },
        note: 'config → listening, inside the process',
      },
      {
        label: `median of ${restarts} restarts: spawn → health`,
        value: median(starts.map((s) => s.readyMs)),
        unit: 'ms',
      },
      {
        label: 'first start (new database): spawn → health',
        value: first.readyMs,
        unit: 'ms',
        note: 'PGlite initdb + migrations + seed',
      },
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
