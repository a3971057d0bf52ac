// Benchmark: GET /api/bots/available with 100 000 characters, on PGlite and PostgreSQL.
// Run alone with `node bench/suites/bots.mjs`, or from bench/run.mjs via `run(ctx)`.
// It starts the built server (npm run build first), fills the database with 100 000
// characters, then times sequential requests (first pages, cursor pages, every filter).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require_ = (await import('node:module')).createRequire(path.join(root, 'apps/server/package.json'));
const ROWS = Number(process.env.BENCH_BOTS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const FILL_SQL = `
insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, created_at)
select 'bench-' || g, 'Bench ' || g, 18 + (g % 40), 'A benchmark character, number ' || g || '.', 'Hi!',
       case when g % 2 = 0 then array['anime'] else array['realistic'] end,
       case when g % 10 = 0 then 'private' else 'public' end,
       case when g % 17 = 0 then 'pending' else 'approved' end,
       g % 5 = 0, now() - (g || ' seconds')::interval
from generate_series(1, ${ROWS}) as g;
analyze bots;`;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function startServer(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SEED_ON_START: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000',
      WEB_DIST_DIR: '',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => process.env.BENCH_DEBUG && console.error('server exit', code, signal));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      if ((await fetch(`${url}/api/ready`)).ok)
        return { url, stop: () => new Promise((r) => (child.kill('SIGTERM'), child.once('exit', r))) };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Sequential requests: first pages, then following the cursor, across every filter. */
async function measure(url) {
  const filters = ['', 'official', 'custom', 'anime', 'realistic', 'official,anime', 'custom,realistic'];
  const times = [];
  const byFilter = {};
  // Warm up.
  for (let i = 0; i < 50; i++) await (await fetch(`${url}/api/bots/available?size=30`)).json();
  let cursor = null;
  for (let i = 0; i < REQUESTS; i++) {
    const tags = filters[Math.floor(i / 10) % filters.length];
    const q = new URLSearchParams({
      size: cursor ? '15' : '30',
      ...(tags ? { tags } : {}),
      ...(cursor ? { c: cursor } : {}),
    });
    const t0 = performance.now();
    const res = await fetch(`${url}/api/bots/available?${q}`);
    const body = await res.json();
    const ms = performance.now() - t0;
    times.push(ms);
    (byFilter[`${tags || 'all'}${cursor ? '+c' : ''}`] ??= []).push(ms);
    if (!res.ok) throw new Error(`status ${res.status}`);
    // Ten pages deep, then start again with another filter.
    cursor = i % 10 === 9 ? null : body.next_param;
  }
  times.sort((a, b) => a - b);
  if (process.env.BENCH_DEBUG)
    for (const [k, v] of Object.entries(byFilter)) {
      v.sort((a, b) => a - b);
      console.log(k.padEnd(24), 'p50', percentile(v, 50).toFixed(1), 'p99', percentile(v, 99).toFixed(1));
    }
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1), n: times.length };
}

async function benchPglite(log) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-bench-'));
  try {
    // First start migrates the embedded database; then fill it while the server is down.
    const first = await startServer({ DATA_DIR: dataDir });
    await first.stop();
    const { PGlite } = await import(pathToFileURL(require_.resolve('@electric-sql/pglite')).href);
    const db = await PGlite.create(path.join(dataDir, 'pglite'));
    const t0 = performance.now();
    await db.exec(FILL_SQL);
    await db.close();
    log(`pglite: inserted ${ROWS} characters in ${Math.round(performance.now() - t0)} ms`);
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      return await measure(server.url);
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchPostgres(log) {
  const postgres = (await import(pathToFileURL(require_.resolve('postgres')).href)).default;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  try {
    await admin`select 1`;
  } catch {
    log(`postgres: not reachable at ${PG_ADMIN_URL}, skipped`);
    await admin.end();
    return null;
  }
  const name = `reverie_bench_${randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-bench-'));
  await admin.unsafe(`create database ${name}`);
  try {
    const env = { DATA_DIR: dataDir, DATABASE_URL: withDatabase(PG_ADMIN_URL, name) };
    const first = await startServer(env);
    await first.stop();
    const sql = postgres(withDatabase(PG_ADMIN_URL, name), { max: 1, onnotice: () => {} });
    const t0 = performance.now();
    await sql.unsafe(FILL_SQL);
    await sql.end();
    log(`postgres: inserted ${ROWS} characters in ${Math.round(performance.now() - t0)} ms`);
    const server = await startServer(env);
    try {
      return await measure(server.url);
    } finally {
      await server.stop();
    }
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const name = 'bots';
export const description = 'GET /api/bots/available p50/p99 with 100 000 characters, PGlite and PostgreSQL';
export const order = 45;

/** Runs the suite: `GET /api/bots/available` p50/p99 per database, as bench/run.mjs measurements. */
export async function run(ctx = {}) {
  const log = ctx.log ?? ((line) => console.log(line));
  if (!fs.existsSync(path.join(root, 'apps/server/dist/server.js')))
    throw new Error('build the server first: npm run build');
  const fmt = (r) =>
    `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, max ${r.max.toFixed(2)} ms (${r.n} requests)`;
  const measurements = [];
  const add = (label, r) => {
    log(`GET /api/bots/available, ${ROWS} characters, ${label}: ${fmt(r)}`);
    measurements.push(
      { label: `${label}: bots/available p50`, value: r.p50, unit: 'ms' },
      { label: `${label}: bots/available p99`, value: r.p99, unit: 'ms', target: { max: 20 }, note: `${r.n} requests` },
    );
  };
  add('PGlite', await benchPglite(log));
  const postgres = await benchPostgres(log);
  if (postgres) add('PostgreSQL', postgres);
  return measurements;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
