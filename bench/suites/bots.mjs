// Benchmark: GET /api/bots/available with 100 000 characters, on PGlite and PostgreSQL.
// Run alone with `node bench/suites/bots.mjs`, or from bench/run.mjs via `run(ctx)`.
// It starts the built server (npm run build first), fills the database with 100 000
// characters, then times sequential requests (first pages, cursor pages, every filter);
// then, on a server with the guest cache off, searches (`q`: words, a typo, several words,
// Chinese, with the filters) and, as their baseline in the same run, the plain first pages.
// BENCH_BOTS_PART=search times the searches only.
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
const PART = process.env.BENCH_BOTS_PART ?? 'all';
const SEARCH_REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 1000);

// Characters described in words: 60 occupations, 40 places, 30 pastimes (an occupation is
// shared by about 1 700 characters); one in ten written in Spanish, German, Russian or Chinese.
const OCCUPATIONS = `doctor astronaut pilot florist chef detective painter librarian nurse teacher baker sailor
  architect dancer singer pianist violinist lawyer journalist photographer surfer climber gardener
  barista bartender mechanic firefighter paramedic veterinarian astronomer biologist chemist
  historian novelist poet actress tailor jeweller potter glassblower carpenter blacksmith fisher
  beekeeper winemaker sommelier brewer courier smuggler knight witch vampire android hacker
  engineer geologist volcanologist diver ranger`.split(/\s+/);
const PLACES = `Paris Tokyo Seville Berlin Lisbon Kyoto Oslo Naples Prague Vienna Havana Cairo Mumbai Seoul
  Sydney Montreal Dublin Edinburgh Istanbul Marrakesh Reykjavik Helsinki Krakow Budapest Athens
  Valparaiso Lima Nairobi Hanoi Bangkok Shanghai Moscow Odessa Tbilisi Zurich Geneva Florence
  Venice Amsterdam Copenhagen`.split(/\s+/);
const PASTIMES = `jazz chess tea rain poetry cats gardening cinema vinyl astronomy sailing hiking painting
  cooking baking dancing karaoke photography football tennis swimming knitting pottery video-games
  history opera coffee wine theatre comics`.split(/\s+/);
const array = (words) => `array[${words.map((w) => `'${w}'`).join(',')}]`;

/** The fill (exported for the EXPLAIN of docs/characters.md "Search"). */
export const FILL_SQL = `
insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, created_at)
select 'bench-' || g, 'Bench ' || g, 18 + (g % 40),
       case g % 10
         when 1 then 'Una ' || o || ' de ' || p || ' a quien le encanta ' || h || '.'
         when 2 then 'Eine ' || o || ' aus ' || p || ', die ' || h || ' liebt.'
         when 3 then 'Персонаж из города ' || p || ': ' || o || ', обожает ' || h || '.'
         when 4 then '一位来自' || p || '的' || o || '，喜欢宇航员和' || h || '。'
         else 'A ' || o || ' from ' || p || ' who loves ' || h || ', number ' || g || '.'
       end,
       'Hi! Shall we talk about ' || h || '?',
       case when g % 2 = 0 then array['anime'] else array['realistic'] end,
       case when g % 10 = 0 then 'private' else 'public' end,
       case when g % 17 = 0 then 'pending' else 'approved' end,
       g % 5 = 0, now() - (g || ' seconds')::interval
from generate_series(1, ${ROWS}) as g,
     lateral (select (${array(OCCUPATIONS)})[1 + g % ${OCCUPATIONS.length}] as o,
                     (${array(PLACES)})[1 + (g / 7) % ${PLACES.length}] as p,
                     (${array(PASTIMES)})[1 + (g / 11) % ${PASTIMES.length}] as h) as words;
analyze bots;`;

/** The searches timed: common and rare words, several words, a typo, other languages, nothing found. */
export const SEARCHES = [
  'doctor',
  'astronaut',
  'jazz',
  'doctor paris',
  'pilot who loves chess',
  'astronuat',
  'volcanolgist kyoto',
  'médica',
  'Ärztin',
  'врач',
  '宇航员',
  'bench 4242',
  'zeppelin',
];
const SEARCH_FILTERS = ['', 'official', 'custom,anime', 'realistic'];

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

const timed = async (url) => {
  const t0 = performance.now();
  const res = await fetch(url);
  await res.json();
  if (!res.ok) throw new Error(`status ${res.status} for ${url}`);
  return performance.now() - t0;
};
const summary = (times) => {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1), n: times.length };
};

/**
 * On a server with the guest cache off: searches (every search with every filter, first pages,
 * and one page further for a third of them), and the plain first pages as their baseline.
 */
async function measureSearch(url) {
  for (let i = 0; i < 30; i++)
    await timed(`${url}/api/bots/available?${new URLSearchParams({ q: SEARCHES[i % SEARCHES.length] })}`);
  const search = [];
  const plain = [];
  const bySearch = {};
  for (let i = 0; i < SEARCH_REQUESTS; i++) {
    const q = SEARCHES[i % SEARCHES.length];
    const tags = SEARCH_FILTERS[Math.floor(i / SEARCHES.length) % SEARCH_FILTERS.length];
    const params = new URLSearchParams({ q, size: '30', ...(tags ? { tags } : {}) });
    const ms = await timed(`${url}/api/bots/available?${params}`);
    search.push(ms);
    (bySearch[q] ??= []).push(ms);
    if (i % 3 === 0) {
      const first = await (await fetch(`${url}/api/bots/available?${params}`)).json();
      if (first.next_param) search.push(await timed(`${url}/api/bots/available?${params}&c=${first.next_param}`));
    }
    plain.push(
      await timed(`${url}/api/bots/available?${new URLSearchParams({ size: '30', ...(tags ? { tags } : {}) })}`),
    );
  }
  if (process.env.BENCH_DEBUG)
    for (const [k, v] of Object.entries(bySearch)) {
      v.sort((a, b) => a - b);
      console.log(k.padEnd(24), 'p50', percentile(v, 50).toFixed(1), 'p99', percentile(v, 99).toFixed(1));
    }
  return { search: summary(search), plain: summary(plain) };
}

/** The timings of one database: the catalogue (cache as configured), then searches with the cache off. */
async function measureAll(env) {
  const results = {};
  if (PART !== 'search') {
    const server = await startServer(env);
    try {
      results.catalogue = await measure(server.url);
    } finally {
      await server.stop();
    }
  }
  const server = await startServer({ ...env, CATALOGUE_CACHE_S: '0' });
  try {
    Object.assign(results, await measureSearch(server.url));
  } finally {
    await server.stop();
  }
  return results;
}

async function benchPglite(log) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-bench-'));
  try {
    // First start migrates the embedded database; then fill it while the server is down.
    const first = await startServer({ DATA_DIR: dataDir });
    await first.stop();
    const { PGlite } = await import(pathToFileURL(require_.resolve('@electric-sql/pglite')).href);
    const { pg_trgm } = await import(pathToFileURL(require_.resolve('@electric-sql/pglite/contrib/pg_trgm')).href);
    const db = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } });
    const t0 = performance.now();
    await db.exec(FILL_SQL);
    await db.close();
    log(`pglite: inserted ${ROWS} characters in ${Math.round(performance.now() - t0)} ms`);
    return await measureAll({ DATA_DIR: dataDir });
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
    return await measureAll(env);
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const name = 'bots';
export const description =
  'GET /api/bots/available p50/p99 with 100 000 characters, PGlite and PostgreSQL: pages, and searches against uncached first pages';
export const order = 45;

/** Runs the suite: `GET /api/bots/available` p50/p99 per database, as bench/run.mjs measurements. */
export async function run(ctx = {}) {
  const log = ctx.log ?? ((line) => console.log(line));
  if (!fs.existsSync(path.join(root, 'apps/server/dist/server.js')))
    throw new Error('build the server first: npm run build');
  const fmt = (r) =>
    `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, max ${r.max.toFixed(2)} ms (${r.n} requests)`;
  const measurements = [];
  const add = (label, results) => {
    const r = results.catalogue;
    if (r) {
      log(`GET /api/bots/available, ${ROWS} characters, ${label}: ${fmt(r)}`);
      measurements.push(
        { label: `${label}: bots/available p50`, value: r.p50, unit: 'ms' },
        {
          label: `${label}: bots/available p99`,
          value: r.p99,
          unit: 'ms',
          target: { max: 20 },
          note: `${r.n} requests`,
        },
      );
    }
    log(`  first pages, cache off (baseline), ${label}: ${fmt(results.plain)}`);
    log(`  searches (q), cache off, ${label}: ${fmt(results.search)}`);
    measurements.push(
      { label: `${label}: first pages, cache off (baseline) p99`, value: results.plain.p99, unit: 'ms' },
      { label: `${label}: search p50`, value: results.search.p50, unit: 'ms' },
      {
        label: `${label}: search p99`,
        value: results.search.p99,
        unit: 'ms',
        target: { max: 10 },
        note: `${results.search.n} requests`,
      },
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
