// Uploads under a burst (issue 27): 50 users each send a 4.9 MB photo at the same moment
// (POST /api/bot/create, multipart) while /api/health is polled and the server's resident
// memory sampled. Once with the picture work bounded as configured by default (IMAGE_CONCURRENCY,
// IMAGE_QUEUE) and once nearly unbounded (the baseline: 16 at once, 1 000 waiting), in the same run.
import fs from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { get } from './catalogue-burst.mjs';

export const name = 'upload-burst';
export const description = '50 concurrent 4.9 MB photo uploads; /api/health p99 and memory growth meanwhile';
export const order = 26;

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 50);
const HEALTH_EVERY_MS = 20;

const percentile = (values, p) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** Resident memory of a process, in MB (Linux). */
const rssMb = (pid) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};

function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** 50 accounts, each signed in from its own address (the per-address sign-up limits). */
async function accounts(baseUrl, count) {
  const tokens = [];
  for (let i = 0; i < count; i++) {
    const email = `burst-${i}-${randomBytes(3).toString('hex')}@example.test`;
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': `198.19.1.${i + 1}` };
    const password = 'burst-password-1';
    const registered = await post(
      `${baseUrl}/api/register`,
      headers,
      JSON.stringify({ username: `burst${i}${randomBytes(2).toString('hex')}`, email, password, age_confirmed: true }),
    );
    if (registered.status !== 201) throw new Error(`sign-up ${registered.status}: ${registered.body}`);
    const login = await post(`${baseUrl}/api/token`, headers, JSON.stringify({ email, password }));
    if (login.status !== 200) throw new Error(`log-in ${login.status}: ${login.body}`);
    tokens.push(JSON.parse(login.body).access);
  }
  return tokens;
}

function form(photo) {
  const boundary = `----burst${randomBytes(8).toString('hex')}`;
  const field = (name, value) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(field('name', 'Burst') + field('age', '30') + field('description', 'A photo sent in a burst.')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    photo,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

async function measure(startServer, log, label, env, photo) {
  const server = await startServer({
    env: {
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      // The picture judge's models would add ≈ 330 MB of their own; it runs in its worker thread
      // behind the same queue. Measured here: the server's own handling of the uploads.
      IMAGE_MODERATION: 'none',
      IMAGE_MODERATION_NONE_ACKNOWLEDGED: 'true',
      // No catalogue needed: a faster first start.
      SEED_ON_START: 'false',
      ...env,
    },
    pollMs: 50,
    timeoutMs: 300_000,
  });
  try {
    const tokens = await accounts(server.url, UPLOADS);
    const pid = server.child.pid;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const health = [];
    let running = true;
    const healthLoop = (async () => {
      while (running) {
        const at = performance.now();
        health.push(await get(agent, `${server.url}/api/health`, {}, at));
        const wait = HEALTH_EVERY_MS - (performance.now() - at);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    const started = performance.now();
    const { body, type } = form(photo);
    const results = await Promise.all(
      tokens.map(async (token, i) => {
        const at = performance.now();
        const response = await post(
          `${server.url}/api/bot/create`,
          { authorization: `Bearer ${token}`, 'content-type': type, 'x-forwarded-for': `198.19.2.${i + 1}` },
          body,
        ).catch(() => ({ status: 0 }));
        return { status: response.status, ms: performance.now() - at };
      }),
    );
    const wall = performance.now() - started;
    running = false;
    await healthLoop;
    clearInterval(sampler);
    agent.destroy();
    const created = results.filter((r) => r.status === 201);
    const busy = results.filter((r) => r.status === 503).length;
    const figures = {
      created: created.length,
      busy,
      other: results.length - created.length - busy,
      p50: percentile(
        created.map((r) => r.ms),
        50,
      ),
      healthP99: percentile(
        health.map((r) => r.ms),
        99,
      ),
      growth: peak - before,
      wall,
    };
    log(
      `${label}: ${figures.created} created, ${busy} × 503 busy, ${figures.other} other; created p50 ${figures.p50.toFixed(0)} ms; ` +
        `health p99 ${figures.healthP99.toFixed(1)} ms (${health.length} polls); RSS ${before.toFixed(0)} → ${peak.toFixed(0)} MB; ${wall.toFixed(0)} ms in all`,
    );
    return figures;
  } finally {
    await server.stop();
  }
}

/** @param {{ startServer: Function, log: Function }} ctx */
export async function run({ startServer, log }) {
  // An incompressible PNG of ≈ 4.9 MB (random pixels), under the 5 MB limit.
  const side = 1275;
  const photo = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  log(`photo: ${(photo.length / 1e6).toFixed(2)} MB`);
  const bounded = await measure(startServer, log, 'bounded (defaults)', {}, photo);
  const baseline = await measure(
    startServer,
    log,
    'baseline (16 at once, 1 000 waiting)',
    { IMAGE_CONCURRENCY: '16', IMAGE_QUEUE: '1000' },
    photo,
  );
  return [
    { label: '/api/health p99 during the uploads', value: bounded.healthP99, unit: 'ms', target: { max: 100 } },
    { label: 'memory growth (RSS peak − before)', value: bounded.growth, unit: 'MB', target: { max: 300 } },
    { label: 'uploads created / answered 503', value: bounded.created, unit: `created, ${bounded.busy} × 503` },
    { label: 'created upload p50', value: bounded.p50, unit: 'ms' },
    { label: '/api/health p99 (baseline)', value: baseline.healthP99, unit: 'ms' },
    { label: 'memory growth (baseline)', value: baseline.growth, unit: 'MB' },
    { label: 'uploads created (baseline)', value: baseline.created, unit: `created, ${baseline.busy} × 503` },
    { label: 'created upload p50 (baseline)', value: baseline.p50, unit: 'ms' },
  ];
}
