// Throughput of the cheapest route, GET /api/health: the server's floor (Fastify, plugins,
// hooks), measured with autocannon in this process against the built server.
import autocannon from 'autocannon';

export const name = 'health-rps';
export const description = 'GET /api/health with autocannon (10 s, 50 connections)';
export const order = 20;

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;

function load(url, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration });
}

/** @param {{ startServer: Function, log: Function }} ctx */
export async function run({ startServer, log }) {
  // Request logging at the default `info` level costs a JSON line per request; the figure
  // of record is taken at `warn`, the second line shows what default logging costs.
  const measurements = [];
  for (const level of ['warn', 'info']) {
    const server = await startServer({ env: { LOG_LEVEL: level }, pollMs: 50 });
    try {
      await load(`${server.url}/api/health`, 1); // warm-up: JIT, connection pools
      const result = await load(`${server.url}/api/health`, DURATION_S);
      const bad = result.non2xx + result.errors + result.timeouts;
      log(`LOG_LEVEL=${level}: ${result.requests.total} requests, ${bad} not 2xx/errors/timeouts`);
      if (bad > 0)
        throw new Error(
          `${bad} failed requests (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
        );
      const suffix = level === 'warn' ? '' : ' (LOG_LEVEL=info)';
      measurements.push(
        { label: `requests per second${suffix}`, value: result.requests.average, unit: 'req/s' },
        { label: `latency p50${suffix}`, value: result.latency.p50, unit: 'ms' },
        { label: `latency p99${suffix}`, value: result.latency.p99, unit: 'ms' },
      );
    } finally {
      await server.stop();
    }
  }
  return measurements;
}
