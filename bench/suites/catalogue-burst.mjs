// The public catalogue under a burst (issue 27): GET /api/bots/available at a fixed arrival
// rate (open loop: a request leaves on schedule whether or not the earlier ones were answered,
// and its latency counts from that schedule) from many addresses, each under its per-address
// budget, while /api/health is polled. Once with the guest catalogue's cache off (the
// baseline) and once with it on, in the same run.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { cpuSeconds, waitIdle } from '../support/process-idle.mjs';

export const name = 'catalogue-burst';
export const description = 'GET /api/bots/available at 1 000 req/s for 5 s from 50 addresses; /api/health meanwhile';
export const order = 25;

const RATE = Number(process.env.BENCH_BURST_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_BURST_SECONDS ?? 5);
const ADDRESSES = Number(process.env.BENCH_BURST_ADDRESSES ?? 50);
const HEALTH_EVERY_MS = 20;
/** A request not answered this long after its scheduled time is given up (counted as failed). */
const TIMEOUT_MS = 10_000;
/** Another build's server (bench/README.md: comparing two builds); the app's own by default. */
const ENTRY = process.env.BENCH_BURST_ENTRY || undefined;
/** A folder: the server writes a CPU profile of the measured burst there (warm-up left out). */
const CPU_PROF_DIR = process.env.BENCH_BURST_CPU_PROF || undefined;
/** `cache`: only the cached run (no baseline with the cache off). */
const ONLY = process.env.BENCH_BURST_ONLY;

const percentile = (values, p) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** One GET; resolves with {status, ms} (status 0: error or timeout), ms from `scheduledAt`. */
export function get(agent, url, headers, scheduledAt, options = {}) {
  return new Promise((resolve) => {
    let done = false;
    const finish = (status) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      resolve({ status, ms: performance.now() - scheduledAt });
    };
    const request = http.request(url, { agent, headers, method: options.method ?? 'GET' }, (response) => {
      response.resume();
      response.on('end', () => finish(response.statusCode));
      response.on('error', () => finish(0));
    });
    const deadline = setTimeout(
      () => {
        finish(0);
        request.destroy(new Error('timeout'));
      },
      Math.max(1, scheduledAt + TIMEOUT_MS - performance.now()),
    );
    request.on('error', () => finish(0));
    request.end(options.body);
  });
}

/** The burst: RATE requests per second for SECONDS, address i % ADDRESSES each; health polled meanwhile. */
export async function burst(baseUrl, { rate = RATE, seconds = SECONDS, addresses = ADDRESSES } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const total = rate * seconds;
  const started = performance.now();
  const pending = [];
  const health = [];
  let healthRunning = true;
  const healthLoop = (async () => {
    while (healthRunning) {
      const at = performance.now();
      health.push(await get(healthAgent, `${baseUrl}/api/health`, {}, at));
      const wait = HEALTH_EVERY_MS - (performance.now() - at);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  for (let i = 0; i < total; i++) {
    const scheduledAt = started + (i * 1000) / rate;
    const wait = scheduledAt - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const address = `198.18.${Math.floor((i % addresses) / 250)}.${((i % addresses) % 250) + 1}`;
    pending.push(
      get(
        agent,
        `${baseUrl}/api/bots/available`,
        { 'x-forwarded-for': address, 'accept-encoding': 'br, gzip' },
        scheduledAt,
      ),
    );
  }
  const results = await Promise.all(pending);
  healthRunning = false;
  await healthLoop;
  agent.destroy();
  healthAgent.destroy();
  const ok = results.filter((r) => r.status === 200);
  return {
    sent: total,
    ok: ok.length,
    limited: results.filter((r) => r.status === 429).length,
    failed: results.filter((r) => r.status !== 200 && r.status !== 429).length,
    p50: percentile(
      results.map((r) => r.ms),
      50,
    ),
    p99: percentile(
      results.map((r) => r.ms),
      99,
    ),
    healthP99: percentile(
      health.map((r) => r.ms),
      99,
    ),
    healthMax: Math.max(...health.map((r) => r.ms)),
    healthPolls: health.length,
  };
}

async function measure(startServer, log, cacheSeconds) {
  const profile = CPU_PROF_DIR
    ? {
        NODE_OPTIONS: `--import ${path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/server-cpu-profile.mjs')}`,
        BENCH_CPU_PROF_DIR: CPU_PROF_DIR,
        BENCH_CPU_PROF_FROM: 'signal',
      }
    : {};
  const server = await startServer({
    entry: ENTRY,
    env: { LOG_LEVEL: 'warn', TRUST_PROXY: 'true', CATALOGUE_CACHE_S: String(cacheSeconds), ...profile },
    pollMs: 50,
    // The first start seeds the catalogue (drawn pictures): slow on a busy machine.
    timeoutMs: 300_000,
  });
  try {
    // Warm-up: JIT, the first page read once.
    await burst(server.url, { rate: 50, seconds: 1, addresses: 5 });
    await waitIdle(server.child.pid, log);
    if (CPU_PROF_DIR) process.kill(server.child.pid, 'SIGWINCH'); // bench/support/server-cpu-profile.mjs starts sampling
    const cpuBefore = cpuSeconds(server.child.pid);
    const figures = await burst(server.url);
    // The server's own CPU time per request of the burst (health polls included): what the
    // request path costs, much less sensitive to the machine's load than the latencies.
    if (cpuBefore !== null)
      figures.cpuMsPerRequest = ((cpuSeconds(server.child.pid) - cpuBefore) * 1000) / figures.sent;
    log(
      `cache ${cacheSeconds ? 'on' : 'off'}: ${figures.ok}/${figures.sent} 200, ${figures.limited} 429, ${figures.failed} failed; ` +
        `p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms; health p99 ${figures.healthP99.toFixed(1)} ms ` +
        `(max ${figures.healthMax.toFixed(1)} ms, ${figures.healthPolls} polls); ` +
        `server CPU ${figures.cpuMsPerRequest?.toFixed(3) ?? '?'} ms a request; load ${os.loadavg()[0].toFixed(2)}`,
    );
    return figures;
  } finally {
    await server.stop();
  }
}

/** @param {{ startServer: Function, log: Function }} ctx */
export async function run({ startServer, log }) {
  // The cache first: the baseline may leave the machine busy for a while.
  const cached = await measure(startServer, log, 60);
  const note = `${RATE} req/s for ${SECONDS} s from ${ADDRESSES} addresses`;
  const cachedFigures = [
    { label: 'burst p50 (cache)', value: cached.p50, unit: 'ms', note },
    { label: 'burst p99 (cache)', value: cached.p99, unit: 'ms', target: { max: 100 }, note },
    { label: '/api/health p99 during the burst (cache)', value: cached.healthP99, unit: 'ms', target: { max: 100 } },
    { label: 'burst answered 200 (cache)', value: cached.ok, unit: `of ${cached.sent}` },
    ...(cached.cpuMsPerRequest === undefined
      ? []
      : [{ label: 'server CPU a request (cache)', value: cached.cpuMsPerRequest, unit: 'ms' }]),
  ];
  if (ONLY === 'cache') return cachedFigures;
  const baseline = await measure(startServer, log, 0);
  return [
    ...cachedFigures,
    { label: 'burst p50 (baseline, cache off)', value: baseline.p50, unit: 'ms' },
    { label: 'burst p99 (baseline, cache off)', value: baseline.p99, unit: 'ms' },
    { label: '/api/health p99 during the burst (baseline)', value: baseline.healthP99, unit: 'ms' },
    { label: 'burst answered 200 (baseline)', value: baseline.ok, unit: `of ${baseline.sent}` },
  ];
}
