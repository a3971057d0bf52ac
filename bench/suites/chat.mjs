// Chat streaming: what the server adds on top of the model (issue 12's hot-path targets).
//
// The built server talks to a fake OpenAI-compatible model inside this process: every reply is
// N tokens, each token its own `data:` chunk, written as fast as the socket takes them (the
// burst), or each in its own write `trickleMs` apart as a model produces them (the trickled
// parts), or one every `intervalMs` until told to end; N and the pace live in a mutable state
// object that each phase sets. The same fake, asked directly by the same client code, is the baseline of
// every figure, measured in the same run.
//
// On PostgreSQL (BENCH_DATABASE_URL, default the local server; a fresh database per run,
// dropped afterwards; skipped with a note when unreachable):
//  1. added time to first token: one user, 200 sends one after another after 20 warm-up
//     sends, request → first `delta` event, each minus the median of the same figure straight
//     from the fake (request → first content chunk, 200 requests); p50 and p99;
//  2. throughput: 50 concurrent clients, each with its own user and chat, send in a loop for
//     BENCH_DURATION_S (10 s) with 64-token replies, each read to its final `bot_message`;
//     the same 50 clients then ask the fake alone for as long; the ratio of the two rates. Over
//     the server's run, the CPU time (/proc/<pid>/stat) of the server and of the database's
//     PostgreSQL backends per reply. The same clients then go through a plain proxy peer that
//     saves nothing (bench/support/plain-proxy.mjs, its own process): its added time to first
//     token and its rate, for reference;
//  2b. parts 1 and 2 again through a second server on the same database with REDIS_URL set
//     (BENCH_REDIS_URL, default the local Redis; `none` or unreachable skips it): the limits'
//     counts on Redis as a cluster runs them; the CPU of the PostgreSQL backends and of the
//     local redis-server per reply; informational;
//  3. server CPU per streamed token: the server process's utime+stime (/proc/<pid>/stat) over
//     K replies of 64 tokens and K of 1000 tokens (BENCH_CHAT_CPU_REPLIES, 60; 10 at a time);
//     the slope (CPU difference ÷ token difference);
//  4. a long chat: 10 000 messages inserted into one chat with SQL, then 60 sends there and 60
//     in a new chat, interleaved (A B B A …); the ratio of their median added times to first
//     token.
// Then, trickled (issue 25; BENCH_CHAT_TRICKLE_MS, 5 ms between two tokens of a reply, `0`
// skips it), in 10 new chats that each hold 700 messages (inserted with SQL) — the fake's
// socket without Nagle, so that the server reads one token per read:
//  T1. added time to first token: 100 sends one at a time (BENCH_CHAT_TRICKLE_SENDS) after 10
//      warm-ups, each right after a request straight to the fake (its median is subtracted);
//  T2. server CPU per token: the slope between 200 replies of 64 tokens and 60 of 1000, 10 at a
//      time; the plain proxy's the same way (the floor of one read and one write per token),
//      and the read floor's (bench/support/read-floor.mjs: a process that only reads the
//      fake's streams, the least any Node server spends per token); both also one at a time;
//  T3. server + PostgreSQL CPU per 64-token reply, over T2's 64-token replies.
//  The CPU the server and PostgreSQL spend with nothing to do (measured for 10 s first) is
//  taken off T2 and T3, since a trickled reply lasts long enough for it to count.
// On PGlite (the default database; the users are inserted while the server is stopped, since
// only one process can open PGlite):
//  5. `/api/health` latency while 200 users each have a reply streaming, trickled by the fake
//     (one token every 50 ms per stream); `/api/health` is polled every 20 ms meanwhile. The
//     target applies to the 10 s after the last stream's first token (all 200 open); then the
//     fake ends the replies. The whole window with the 200 sends' start and end is shown too;
//  6. memory per open stream: the server's resident memory before the 200 sends and once all
//     200 are open, divided by 200 — an estimate (the garbage collector moves it).
// BENCH_CHAT_ONLY=postgres|pglite runs one half, `trickled` only T1–T3 (`trickled-ttft` only T1); BENCH_CHAT_CPU_PROF=<dir>
// makes every server write a CPU profile there on exit (bench/support/server-cpu-profile.mjs; with
// `trickled`, sampled from the start of T1 only).
// BENCH_CHAT_COMPARE=<another build's apps/server/dist/server.js> (with `trickled-ttft`) starts that
// build's server on the same database too and takes T1's sends in turns with it: a before/after
// under the same load.
import http from 'node:http';
import { execSync, fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { accessToken, insertSession, withScratchDatabase } from '../support/postgres.mjs';
import { streamPost } from '../support/stream-post.mjs';
import { median, percentile } from '../support/stats.mjs';

export const name = 'chat';
export const description =
  'chat hot path: added time to first token, throughput vs the model, CPU per token, long chats, health under 200 streams';
export const order = 70;

const DURATION_MS = Number(process.env.BENCH_DURATION_S ?? 10) * 1000;
const TTFT_SENDS = 200;
const TTFT_WARMUP = 20;
const CONCURRENCY = 50;
const SHORT_TOKENS = 64;
const LONG_TOKENS = 1000;
const CPU_REPLIES = Number(process.env.BENCH_CHAT_CPU_REPLIES ?? 60);
const CPU_CONCURRENCY = 10;
const LONG_CHAT_MESSAGES = 10_000;
const LONG_CHAT_SENDS = 60;
const OPEN_STREAMS = 200;
const TRICKLE_MS = 50;
const TRICKLE_S = 10;
const HEALTH_EVERY_MS = 20;
/**
 * The trickled parts (issue 25): the delay between two tokens of one reply, in ms; `0` skips
 * them. 5 ms is 200 tokens/s per stream, above the 20–100 of real models, and far longer than
 * the server needs per token (≈ 10–30 µs with the wake-up), so it still reads one token per
 * read — a longer delay changes no per-token figure — while 1 000-token replies take 5 s.
 */
const TRICKLE_TOKEN_MS = Number(process.env.BENCH_CHAT_TRICKLE_MS ?? 5);
/** Whether the trickled parts' chats are remembered (memory extraction after each turn). */
const REMEMBER = process.env.BENCH_CHAT_REMEMBER !== 'false';

/** The chats of the trickled parts hold this many messages before the first send. */
const HISTORY_MESSAGES = 700;
/** 64-token replies the plain proxy and the read floor serve one at a time (as T1's sends). */
const ALONE_REPLIES = 20;
/** Sends of the trickled time to first token (after TRICKLE_WARMUP), each paired with one to the fake. */
const TRICKLE_SENDS = Number(process.env.BENCH_CHAT_TRICKLE_SENDS ?? 100);
const TRICKLE_WARMUP = 10;
/** 64-token replies whose CPU is measured in the trickled mode (/proc counts 10 ms ticks). */
const TRICKLE_SHORT_REPLIES = 200;
/** How long the server's and PostgreSQL's CPU with nothing to do is measured (their background). */
const IDLE_MS = 10_000;
/**
 * `postgres` or `pglite` runs only that half; `trickled` only the trickled parts on PostgreSQL
 * (for profiling: BENCH_CHAT_CPU_PROF=<dir>, then the profile covers those parts alone).
 */
const ONLY = process.env.BENCH_CHAT_ONLY;
/** Redis for the variant with shared limits on Redis (parts 1–2 again); `none` skips it. */
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn(item, worker)` over `items` with at most `limit` at a time (`worker` < `limit`). */
async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async (_, worker) => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i], worker);
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------------
// The fake model

const WORDS = ['the', 'moon', 'was', 'bright', 'and', 'she', 'smiled', 'softly', 'at', 'him', 'while', 'rain'];
const chunkOf = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
/** Token i's chunk, made once: the fake should cost as little as possible. */
const TOKEN_CHUNKS = Array.from({ length: 64 }, (_, i) => chunkOf({ content: ` ${WORDS[i % WORDS.length]}` }));
const END_CHUNKS = chunkOf({}, 'stop') + 'data: [DONE]\n\n';

/**
 * An OpenAI-compatible `/chat/completions` that streams `state.tokens` tokens per reply, each in
 * its own write: at once (`state.trickleMs` 0, the burst), or one every `state.trickleMs` as a
 * model produces them (then the end after the last token's delay); with `state.intervalMs` > 0
 * it trickles one token every interval (one shared ticker) until `endTrickles()`.
 */
function startFakeModel() {
  const state = { tokens: SHORT_TOKENS, intervalMs: 0, trickleMs: 0, requests: 0 };
  const trickling = new Set();
  let ticker = null;
  const tick = () => {
    for (const stream of trickling) {
      if (stream.res.destroyed) trickling.delete(stream);
      else stream.res.write(TOKEN_CHUNKS[stream.sent++ % TOKEN_CHUNKS.length]);
    }
  };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.requests++;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (state.intervalMs > 0) {
        trickling.add({ res, sent: 0 });
        ticker ??= setInterval(tick, state.intervalMs);
        return;
      }
      if (state.trickleMs > 0) {
        trickle(res, state.tokens, state.trickleMs);
        return;
      }
      for (let i = 0; i < state.tokens; i++) res.write(TOKEN_CHUNKS[i % TOKEN_CHUNKS.length]);
      res.end(END_CHUNKS);
    });
  });
  // Each write its own segment at once (no Nagle): a trickled token must reach the server alone.
  server.on('connection', (socket) => socket.setNoDelay(true));
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        state,
        /** Ends every trickled reply (they trickle until then) and stops the ticker. */
        endTrickles() {
          clearInterval(ticker);
          ticker = null;
          for (const stream of trickling) stream.res.end(END_CHUNKS);
          trickling.clear();
        },
        close: () => {
          clearInterval(ticker);
          server.closeAllConnections();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}

/**
 * Writes `tokens` chunks to `res`, the first at once and each next one `delayMs` later, each its
 * own `res.write` (its own timer, so never corked with another), then the finish and `[DONE]`.
 */
function trickle(res, tokens, delayMs) {
  let sent = 0;
  const next = () => {
    if (res.destroyed) return;
    if (sent === tokens) res.end(END_CHUNKS);
    else {
      res.write(TOKEN_CHUNKS[sent++ % TOKEN_CHUNKS.length]);
      setTimeout(next, delayMs);
    }
  };
  next();
}

// The client: `streamPost` (bench/support/stream-post.mjs).

const FAKE_REQUEST = {
  model: 'bench-model',
  stream: true,
  max_tokens: 2000,
  messages: [
    { role: 'system', content: 'You are a character in a role-play chat.' },
    { role: 'user', content: 'Hello, how are you?' },
  ],
};
const askFake = (fake) => streamPost(`${fake.url}/chat/completions`, {}, FAKE_REQUEST, '"content"');

/** One send through the server, read to its final `bot_message` (state done). */
const send = (baseUrl, user, chatId, options = {}) =>
  streamPost(
    `${baseUrl}/api/chat/${chatId}/messages`,
    { authorization: `Bearer ${user.token}` },
    { client_id: randomUUID(), text: 'Hello, how are you?' },
    'event: delta',
    { ...options, check: (tail) => tail.includes('"state":"done"') },
  );

async function api(baseUrl, pathname, token, body) {
  const res = await fetch(`${baseUrl}${pathname}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

// ---------------------------------------------------------------------------------------------
// Users, sessions, chats

/**
 * Inserts `count` users, each with a live session (a refresh-token family, as a log-in makes),
 * and signs their access tokens with the server's secret and the session's `sid`.
 * `query(text, params)` runs one statement (PGlite or postgres-js).
 */
async function insertUsers(query, secret, count) {
  const users = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const suffix = id.slice(0, 8);
    await query(
      `insert into users (id, username, email, password_hash, name, age, is_email_confirmed)
       values ($1, $2, $3, '!bench', $4, 30, true)`,
      [id, `bench_${suffix}`, `bench_${suffix}@example.test`, `Bench ${i}`],
    );
    const sid = await insertSession(query, id);
    const token = await accessToken(secret, id, { sid });
    users.push({ id, token, chats: [] });
  }
  return users;
}

/** Opens `each` chats through the API for every user (with the first available character). */
async function openChats(baseUrl, users, each = 1) {
  const bots = await api(baseUrl, '/api/bots/available?size=5');
  const botID = bots.results[0].id;
  await pool(users, 10, async (user) => {
    for (let c = 0; c < each; c++) user.chats.push((await api(baseUrl, '/api/chat/create', user.token, { botID })).id);
  });
}

/** With `profileFromSignal`, a profiled server samples from its first SIGWINCH on (not its start). */
function serverEnv(fake, secret, { profileFromSignal = false } = {}) {
  return {
    JWT_SECRET: secret,
    LOG_LEVEL: 'warn',
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fake.url,
    LLM_MODEL: 'bench-model',
    LLM_MAX_TOKENS: '2000',
    CHAT_MESSAGES_PER_MINUTE: '100000000',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...(process.env.BENCH_CHAT_CPU_PROF
      ? {
          NODE_OPTIONS: `--import ${path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/server-cpu-profile.mjs')}`,
          BENCH_CPU_PROF_DIR: process.env.BENCH_CHAT_CPU_PROF,
          ...(profileFromSignal ? { BENCH_CPU_PROF_FROM: 'signal' } : {}),
        }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The server process

const CLK_TCK = (() => {
  try {
    return Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process, in microseconds. */
function cpuMicros(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
}

/** Resident memory of a process, in bytes. */
function residentBytes(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** utime + stime of processes (µs): those gone since are left out. */
function cpuOfAll(pids) {
  let total = 0;
  for (const pid of pids)
    try {
      total += cpuMicros(pid);
    } catch {
      // the process ended
    }
  return total;
}

/** The PostgreSQL backends serving a database (their pids, for their CPU time). */
async function backendPids(sql, dbName) {
  const rows = await sql`select pid from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid()`;
  return rows.map((row) => row.pid);
}

/** The CPU time (µs) of each backend serving a database, now. */
async function backendCpu(sql, dbName) {
  return new Map((await backendPids(sql, dbName)).map((pid) => [pid, cpuOfAll([pid])]));
}

/**
 * The CPU time (µs) the backends serving a database spent since `before` (a `backendCpu`):
 * those started since count whole, those that ended since count nothing more (their last
 * moments are lost; subtracting their earlier total instead made whole figures negative).
 */
async function backendCpuSince(sql, dbName, before) {
  let total = 0;
  for (const [pid, micros] of await backendCpu(sql, dbName)) total += micros - (before.get(pid) ?? 0);
  return total;
}

/** The plain proxy peer (bench/support/plain-proxy.mjs) in its own process, in front of the fake. */
function startPlainProxy(fake) {
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/plain-proxy.mjs'), [], {
    env: { ...process.env, PROXY_UPSTREAM: `${fake.url}/chat/completions`, NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', ({ port }) =>
      resolve({ url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill('SIGTERM') }),
    );
  });
}

/**
 * The send floor (bench/support/send-floor.mjs) on the bench's database, asking the fake: the
 * least a send's first token costs on this machine.
 */
function startSendFloor(fake, databaseUrl) {
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/send-floor.mjs'), [], {
    env: {
      ...process.env,
      FLOOR_UPSTREAM: `${fake.url}/chat/completions`,
      FLOOR_DATABASE_URL: databaseUrl,
      NODE_OPTIONS: '',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', ({ port }) =>
      resolve({ url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill('SIGTERM') }),
    );
  });
}

/**
 * The read floor (bench/support/read-floor.mjs) in its own process: `read(tokens, replies,
 * concurrency)` has it read that many trickled replies from the fake and resolves when done.
 */
function startReadFloor(fake) {
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/read-floor.mjs'), [], {
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', () =>
      resolve({
        pid: child.pid,
        read: (tokens, replies, concurrency) =>
          new Promise((done, failed) => {
            fake.state.tokens = tokens;
            child.once('message', (answer) => (answer.error ? failed(new Error(answer.error)) : done(answer)));
            child.send({ url: `${fake.url}/chat/completions`, body: FAKE_REQUEST, replies, concurrency });
          }),
        stop: () => child.kill('SIGTERM'),
      }),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: parts 1–4

async function onPostgres(startServer, log, url, { burst, trickled }) {
  const fake = await startFakeModel();
  const secret = randomBytes(32).toString('hex');
  const server = await startServer({
    env: { ...serverEnv(fake, secret, { profileFromSignal: !burst }), DATABASE_URL: url },
  });
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  const pid = server.child.pid;
  const dbName = new URL(url).pathname.slice(1);
  const proxy = await startPlainProxy(fake);
  // Another build's server on the same database (T1 only, `trickled-ttft`): its time to first
  // token measured in turns with this one's.
  const compared =
    process.env.BENCH_CHAT_COMPARE && ONLY === 'trickled-ttft'
      ? await startServer({
          entry: process.env.BENCH_CHAT_COMPARE,
          env: { ...serverEnv(fake, secret), DATABASE_URL: url },
        })
      : null;
  try {
    const users = await insertUsers((text, params) => sql.unsafe(text, params), secret, CONCURRENCY);
    await openChats(server.url, users, 1);
    users[0].chats.push(
      (await api(server.url, '/api/chat/create', users[0].token, { botID: await firstBot(server.url) })).id,
    );
    log(`PostgreSQL: ${users.length} users with a chat each`);
    const profileFromSignal = Boolean(process.env.BENCH_CHAT_CPU_PROF) && !burst;
    const context = {
      startServer,
      log,
      url,
      fake,
      secret,
      server,
      sql,
      pid,
      dbName,
      proxy,
      users,
      profileFromSignal,
      compared,
    };
    const results = [];
    if (burst) results.push(...(await burstParts(context)));
    if (trickled) results.push(...(await trickledParts(context)));
    return results;
  } finally {
    proxy.stop();
    await sql.end().catch(() => {});
    await compared?.stop();
    await server.stop();
    await fake.close();
  }
}

/** Parts 1–4: the fake writes each reply at once. */
async function burstParts({ startServer, log, url, fake, secret, server, sql, pid, dbName, proxy, users }) {
  // 1. Added time to first token.
  fake.state.tokens = SHORT_TOKENS;
  const direct = [];
  for (let i = 0; i < TTFT_SENDS + TTFT_WARMUP; i++) {
    const { first } = await askFake(fake);
    if (i >= TTFT_WARMUP) direct.push(first);
  }
  const through = [];
  const ttftRequestsBefore = fake.state.requests;
  for (let i = 0; i < TTFT_SENDS + TTFT_WARMUP; i++) {
    const { first } = await send(server.url, users[0], users[0].chats[0]);
    if (i >= TTFT_WARMUP) through.push(first);
  }
  // Each send's added time: its time to first token minus the fake's median one. (Subtracting
  // the fake's p99 from the server's would let a hiccup of the machine in the fake's tail hide
  // the server's.)
  const ttftRequests = fake.state.requests - ttftRequestsBefore;
  const directP50 = median(direct);
  const added = through.map((ms) => ms - directP50);
  log(
    `PostgreSQL: first token p50/p99 through the server ${median(through).toFixed(2)}/${percentile(through, 0.99).toFixed(2)} ms, from the fake ${directP50.toFixed(2)}/${percentile(direct, 0.99).toFixed(2)} ms`,
  );

  // 2. Throughput, 50 concurrent streams of 64-token replies: the fake alone, then the server.
  const loop = async (fn) => {
    let done = 0;
    const started = performance.now();
    const deadline = started + DURATION_MS;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, i) => {
        while (performance.now() < deadline) {
          await fn(i);
          done++;
        }
      }),
    );
    return done / ((performance.now() - started) / 1000);
  };
  const fakeRate = await loop(() => askFake(fake));
  // CPU time of the server and of the PostgreSQL backends over the server's run: per reply,
  // less sensitive to what else runs on the machine than the rates.
  let replies = 0;
  const dbCpuBefore = await backendCpu(sql, dbName);
  const serverCpuBefore = cpuMicros(pid);
  const serverRate = await loop(async (i) => {
    await send(server.url, users[i], users[i].chats[0]);
    replies++;
  });
  await sleep(100);
  const serverCpuPerReply = (cpuMicros(pid) - serverCpuBefore) / replies;
  const dbCpuPerReply = (await backendCpuSince(sql, dbName, dbCpuBefore)) / replies;
  // The plain proxy peer, the same 50 clients (time to first token, 200 sends one by one; then throughput).
  const proxyAsk = () =>
    streamPost(`${proxy.url}/v1/chat/completions`, {}, FAKE_REQUEST, '"content"', {
      check: (tail) => tail.includes('[DONE]'),
    });
  for (let i = 0; i < TTFT_WARMUP; i++) await proxyAsk();
  const proxyFirst = [];
  for (let i = 0; i < TTFT_SENDS; i++) proxyFirst.push((await proxyAsk()).first);
  let proxied = 0;
  const proxyCpuBefore = cpuMicros(proxy.pid);
  const proxyRate = await loop(async () => {
    await proxyAsk();
    proxied++;
  });
  const proxyCpuPerReply = (cpuMicros(proxy.pid) - proxyCpuBefore) / proxied;
  log(
    `PostgreSQL: ${serverRate.toFixed(0)} replies/s through the server (CPU ${(serverCpuPerReply / 1000).toFixed(2)} ms per reply, PostgreSQL ${(dbCpuPerReply / 1000).toFixed(2)} ms), ${fakeRate.toFixed(0)} from the fake alone, ${proxyRate.toFixed(0)} through a plain proxy (CPU ${(proxyCpuPerReply / 1000).toFixed(2)} ms per reply)`,
  );

  // 2b. Parts 1 and 2 again through a second server on the same database whose limits count
  // on Redis (what a cluster runs with), when Redis answers: informational.
  const withRedis = await redisVariant(startServer, fake, secret, url, users, directP50, fakeRate, sql, dbName, log);

  // 3. CPU per streamed token: K short replies, then K long ones.
  const cpuFor = async (tokens, replies = CPU_REPLIES) => {
    fake.state.tokens = tokens;
    await sleep(300);
    const before = cpuMicros(pid);
    // Each worker sends as its own user: one live reply per chat.
    await pool(Array.from({ length: replies }), CPU_CONCURRENCY, (_, worker) =>
      send(server.url, users[worker], users[worker].chats[0]),
    );
    await sleep(300); // the saves after the final event
    return cpuMicros(pid) - before;
  };
  await cpuFor(LONG_TOKENS, CPU_CONCURRENCY * 2); // warm-up: the long path's code gets compiled
  const cpuShort = await cpuFor(SHORT_TOKENS);
  const cpuLong = await cpuFor(LONG_TOKENS);
  const perToken = (cpuLong - cpuShort) / (CPU_REPLIES * (LONG_TOKENS - SHORT_TOKENS));
  const perReply = cpuShort / CPU_REPLIES - SHORT_TOKENS * perToken;
  fake.state.tokens = SHORT_TOKENS;
  log(`PostgreSQL: server CPU ${perToken.toFixed(1)} µs per token, ${(perReply / 1000).toFixed(2)} ms per reply`);

  // 4. A send in a chat of 10 000 messages vs one in a new chat.
  const [longChat, newChat] = users[0].chats;
  await insertHistory(sql, longChat, users[0].id, LONG_CHAT_MESSAGES);
  await sql`analyze messages`;
  for (let i = 0; i < 10; i++) {
    await send(server.url, users[0], longChat);
    await send(server.url, users[0], newChat);
  }
  const inLong = [];
  const inNew = [];
  const requestsBefore = fake.state.requests;
  // Interleaved A B B A …, with a pause after each send, so that neither chat always follows
  // the other (a send's background work, e.g. the long chat's memory summary, lands on the next).
  for (let i = 0; i < LONG_CHAT_SENDS * 2; i++) {
    const long = i % 4 === 0 || i % 4 === 3;
    const { first } = await send(server.url, users[0], long ? longChat : newChat);
    (long ? inLong : inNew).push(first - directP50);
    await sleep(20);
  }
  // More model requests than sends: background work (memory summaries of the long chat).
  const modelRequests = fake.state.requests - requestsBefore;

  return [
    {
      label: 'PostgreSQL: added time to first token p50',
      value: median(added),
      unit: 'ms',
      target: { max: 3 },
      note: `through the server p50 ${median(through).toFixed(2)} ms, the fake alone p50 ${directP50.toFixed(2)} ms; ${ttftRequests} model requests for ${TTFT_SENDS + TTFT_WARMUP} sends`,
    },
    {
      label: 'PostgreSQL: added time to first token p99',
      value: percentile(added, 0.99),
      unit: 'ms',
      target: { max: 15 },
      note: `through the server p99 ${percentile(through, 0.99).toFixed(2)} ms, the fake alone p50 ${directP50.toFixed(2)} ms, p99 ${percentile(direct, 0.99).toFixed(2)} ms`,
    },
    {
      label: `PostgreSQL: replies/s vs the fake, ${CONCURRENCY} streams`,
      value: serverRate / fakeRate,
      unit: '×',
      target: { min: 0.4 },
      note: `${serverRate.toFixed(0)} replies/s through the server, ${fakeRate.toFixed(0)} from the fake alone, ${SHORT_TOKENS} tokens each`,
    },
    {
      label: `PostgreSQL: server CPU per reply, ${CONCURRENCY} streams`,
      value: serverCpuPerReply / 1000,
      unit: 'ms',
      note: `the server process's CPU time over the throughput run ÷ ${replies} replies of ${SHORT_TOKENS} tokens; PostgreSQL's backends ${(dbCpuPerReply / 1000).toFixed(2)} ms per reply; a plain proxy ${(proxyCpuPerReply / 1000).toFixed(2)} ms`,
    },
    {
      label: `plain proxy: replies/s vs the fake, ${CONCURRENCY} streams`,
      value: proxyRate / fakeRate,
      unit: '×',
      note: `${proxyRate.toFixed(0)} replies/s (no database, no checks: bench/support/plain-proxy.mjs); its added time to first token p50 ${(median(proxyFirst) - directP50).toFixed(2)} ms, p99 ${(percentile(proxyFirst, 0.99) - directP50).toFixed(2)} ms`,
    },
    ...withRedis,
    {
      label: 'PostgreSQL: server CPU per streamed token',
      value: perToken,
      unit: 'µs',
      target: { max: 10 },
      note: `${CPU_REPLIES} replies of ${SHORT_TOKENS} tokens: ${(cpuShort / 1000).toFixed(0)} ms CPU, of ${LONG_TOKENS}: ${(cpuLong / 1000).toFixed(0)} ms; ≈ ${(perReply / 1000).toFixed(2)} ms per reply besides the tokens`,
    },
    {
      label: 'PostgreSQL: 10 000-message chat vs new, added TTFT',
      value: median(inLong) / median(inNew),
      unit: '×',
      target: { max: 1.2 },
      note: `medians ${median(inLong).toFixed(2)} vs ${median(inNew).toFixed(2)} ms, ${LONG_CHAT_SENDS} sends each, interleaved A B B A; ${modelRequests} model requests for ${LONG_CHAT_SENDS * 2} sends`,
    },
  ];
}

/** Inserts `count` done messages into a chat (user and character in turn, a day old), with SQL. */
async function insertHistory(sql, chatId, userId, count) {
  for (let from = 0; from < count; from += 2000) {
    await sql`
      insert into messages (chat_id, user_id, role, kind, text, state, tokens, selected, created_at)
      select ${chatId}::uuid, ${userId}::uuid, case when g % 2 = 0 then 'user' else 'bot' end, 1,
             'Message ' || g || ': ' || repeat('the moon was bright and she smiled softly. ', 3),
             'done', 35, true, now() - interval '1 day' + g * interval '1 second'
      from generate_series(${from + 1}::int, ${Math.min(from + 2000, count)}::int) g`;
  }
}

/**
 * The trickled parts (issue 25): the fake writes each token in its own write, TRICKLE_TOKEN_MS
 * apart, into chats that already hold HISTORY_MESSAGES messages (one new chat for each of
 * CPU_CONCURRENCY users). The fake alone, trickled the same way, is the baseline: its time to
 * first token is asked in turn with the server's sends; the plain proxy's CPU per token is the
 * floor of one read and one write per token in Node.
 */
async function trickledParts({ log, fake, server, url, sql, pid, dbName, proxy, users, profileFromSignal, compared }) {
  const botID = await firstBot(server.url);
  const chats = [];
  for (const user of users.slice(0, CPU_CONCURRENCY)) {
    const chatId = (await api(server.url, '/api/chat/create', user.token, { botID })).id;
    await insertHistory(sql, chatId, user.id, HISTORY_MESSAGES);
    // BENCH_CHAT_REMEMBER=false: the chats are set to "don't remember this chat" (no memory
    // extraction after a turn, nothing of theirs read ahead), to tell the memory work apart.
    if (!REMEMBER) await sql`update chats set remember = false where id = ${chatId}`;
    chats.push({ user, chatId });
  }
  await sql`analyze messages`;
  fake.state.trickleMs = TRICKLE_TOKEN_MS;
  fake.state.tokens = SHORT_TOKENS;
  log(
    `trickled: ${chats.length} chats of ${HISTORY_MESSAGES} messages, a token every ${TRICKLE_TOKEN_MS} ms${REMEMBER ? '' : ', not remembered'}`,
  );
  if (profileFromSignal) process.kill(pid, 'SIGWINCH'); // bench/support/server-cpu-profile.mjs starts sampling

  /** CPU (µs) of the server, of the database's backends (and of the proxy) over `fn`. */
  const cpuOver = async (fn) => {
    await sleep(300);
    const dbBefore = await backendCpu(sql, dbName);
    const startedAt = performance.now();
    const before = { server: cpuMicros(pid), proxy: cpuMicros(proxy.pid) };
    const value = await fn();
    await sleep(300); // the saves after the final event
    const db = await backendCpuSince(sql, dbName, dbBefore);
    const ms = performance.now() - startedAt;
    return { value, ms, server: cpuMicros(pid) - before.server, db, proxy: cpuMicros(proxy.pid) - before.proxy };
  };
  // What the server and PostgreSQL spend with nothing to do (the job queue's polling, the live
  // replies' sweeps, timers), per ms: a trickled reply lasts long enough for it to count (a
  // 1 000-token reply 5 s), so it is taken off every figure below (the raw ones are in the notes).
  const idle = await cpuOver(() => sleep(IDLE_MS));
  const background = { server: idle.server / idle.ms, db: idle.db / idle.ms };
  const net = (cpu) => ({
    ...cpu,
    server: cpu.server - background.server * cpu.ms,
    db: cpu.db - background.db * cpu.ms,
  });

  // Time to first token, one send at a time in the first chat, each after one straight to the
  // fake; with a compared build (BENCH_CHAT_COMPARE), its server's sends in the second chat take
  // turns with these (A B, B A, …), so both see the same load.
  // With `trickled-ttft`, the send floor's (bench/support/send-floor.mjs) in the third chat too.
  const viaServer =
    (url, { user, chatId }) =>
    () =>
      send(url, user, chatId);
  const targets = [viaServer(server.url, chats[0])];
  if (compared) targets.push(viaServer(compared.url, chats[1]));
  const floor = ONLY === 'trickled-ttft' ? await startSendFloor(fake, url) : null;
  if (floor) {
    const { user, chatId } = chats[2];
    targets.push(() =>
      streamPost(`${floor.url}/${chatId}/${user.id}`, {}, { text: 'Hello, how are you?' }, 'event: delta', {
        check: (tail) => tail.includes('[DONE]'),
      }),
    );
  }
  const samples = targets.map(() => ({ direct: [], through: [], deltas: [] }));
  const requestsBefore = fake.state.requests;
  const sequential = await cpuOver(async () => {
    for (let i = 0; i < TRICKLE_WARMUP + TRICKLE_SENDS; i++) {
      // Each target first in turn, so that none always follows the same one.
      for (let j = 0; j < targets.length; j++) {
        const k = (i + j) % targets.length;
        const alone = await askFake(fake);
        const reply = await targets[k]();
        if (i < TRICKLE_WARMUP) continue;
        samples[k].direct.push(alone.first);
        samples[k].through.push(reply.first);
        samples[k].deltas.push(reply.count);
      }
    }
  });
  floor?.stop();
  const [{ direct, through, deltas }] = samples;
  // The fake's own replies were asked in the same window: their requests are not the server's.
  const ttftRequests =
    fake.state.requests - requestsBefore - (TRICKLE_WARMUP + TRICKLE_SENDS) * (2 * targets.length - 1);
  const directP50 = median(direct);
  const added = through.map((ms) => ms - directP50);
  const sequentialSends = TRICKLE_WARMUP + TRICKLE_SENDS;
  log(
    `trickled: first token p50 through the server ${median(through).toFixed(2)} ms, the fake alone ${directP50.toFixed(2)} ms; ${median(deltas)} delta events per ${SHORT_TOKENS}-token reply`,
  );
  const tag = `trickled ${TRICKLE_TOKEN_MS} ms/token, ${HISTORY_MESSAGES}-message chat`;
  const ttftFigure = {
    label: `PostgreSQL ${tag}: added time to first token p50`,
    value: median(added),
    unit: 'ms',
    target: { max: 3 },
    note: `${TRICKLE_SENDS} sends one at a time, each after one to the fake alone: through the server p50 ${median(through).toFixed(2)} ms, p99 ${percentile(through, 0.99).toFixed(2)} ms; the fake alone p50 ${directP50.toFixed(2)} ms, p99 ${percentile(direct, 0.99).toFixed(2)} ms; added p99 ${percentile(added, 0.99).toFixed(2)} ms; ${ttftRequests} model requests for ${sequentialSends} sends`,
  };
  if (ONLY === 'trickled-ttft') {
    const alsoAdded = (other, label, note) => {
      const otherAdded = other.through.map((ms) => ms - median(other.direct));
      return {
        label: `PostgreSQL ${tag}: added time to first token p50, ${label}`,
        value: median(otherAdded),
        unit: 'ms',
        note: `${note}, its sends taking turns with the first figure's: through it p50 ${median(other.through).toFixed(2)} ms, p99 ${percentile(other.through, 0.99).toFixed(2)} ms; the fake alone p50 ${median(other.direct).toFixed(2)} ms; added p99 ${percentile(otherAdded, 0.99).toFixed(2)} ms`,
      };
    };
    const figures = [ttftFigure];
    if (compared) figures.push(alsoAdded(samples[1], 'the compared build', process.env.BENCH_CHAT_COMPARE));
    figures.push(
      alsoAdded(
        samples.at(-1),
        'the send floor',
        'bench/support/send-floor.mjs: bare node:http, one read of the newest messages, then the model asked and one insert at once, the first token written once both answered',
      ),
    );
    return figures;
  }

  // CPU per token: replies of 64 and of 1 000 tokens, 10 at a time, each worker in its own chat.
  const repliesOf = async (tokens, replies) => {
    fake.state.tokens = tokens;
    const counts = [];
    const cpu = await cpuOver(() =>
      pool(Array.from({ length: replies }), chats.length, async (_, worker) =>
        counts.push((await send(server.url, chats[worker].user, chats[worker].chatId)).count),
      ),
    );
    return { ...cpu, replies, counts };
  };
  await repliesOf(LONG_TOKENS, chats.length); // warm-up: the long path's code gets compiled
  const short = await repliesOf(SHORT_TOKENS, TRICKLE_SHORT_REPLIES);
  const long = await repliesOf(LONG_TOKENS, CPU_REPLIES);
  const slope = (a, b) => (b.server / b.replies - a.server / a.replies) / (LONG_TOKENS - SHORT_TOKENS);
  const perToken = slope(net(short), net(long));
  const shortNet = net(short);
  const shortPerReply = (shortNet.server + shortNet.db) / short.replies;
  const sequentialNet = net(sequential);

  // The floor: the plain proxy (one read and one write a token, nothing else), the same replies.
  const proxyReplies = async (tokens, replies, concurrency = chats.length) => {
    fake.state.tokens = tokens;
    const cpu = await cpuOver(() =>
      pool(Array.from({ length: replies }), concurrency, () =>
        streamPost(`${proxy.url}/v1/chat/completions`, {}, FAKE_REQUEST, '"content"', {
          check: (tail) => tail.includes('[DONE]'),
        }),
      ),
    );
    return { ...cpu, server: cpu.proxy, replies };
  };
  const proxyShort = await proxyReplies(SHORT_TOKENS, TRICKLE_SHORT_REPLIES);
  const proxyLong = await proxyReplies(LONG_TOKENS, CPU_REPLIES);
  const proxyPerToken = slope(proxyShort, proxyLong);
  // One at a time, as T1's sends: every token then wakes an idle process.
  const proxyAlone = await proxyReplies(SHORT_TOKENS, ALONE_REPLIES, 1);

  // The read floor: a process that only reads the same trickled replies (the server's HTTP
  // client, one token per read, the SSE lines parsed) and writes nothing anywhere.
  const reader = await startReadFloor(fake);
  let floorShort;
  let floorLong;
  let floorAlone;
  try {
    const floorReplies = async (tokens, replies, concurrency = chats.length) => {
      await sleep(300);
      const before = cpuMicros(reader.pid);
      await reader.read(tokens, replies, concurrency);
      await sleep(100);
      return { server: cpuMicros(reader.pid) - before, replies };
    };
    await floorReplies(LONG_TOKENS, chats.length); // warm-up
    floorShort = await floorReplies(SHORT_TOKENS, TRICKLE_SHORT_REPLIES);
    floorLong = await floorReplies(LONG_TOKENS, CPU_REPLIES);
    floorAlone = await floorReplies(SHORT_TOKENS, ALONE_REPLIES, 1);
  } finally {
    reader.stop();
  }
  const floorPerToken = slope(floorShort, floorLong);
  fake.state.tokens = SHORT_TOKENS;
  fake.state.trickleMs = 0;
  log(
    `trickled: server CPU ${perToken.toFixed(1)} µs per token (plain proxy ${proxyPerToken.toFixed(1)} µs, read floor ${floorPerToken.toFixed(1)} µs); server + PostgreSQL ${(shortPerReply / 1000).toFixed(2)} ms per ${SHORT_TOKENS}-token reply; background ${(background.server * 1000).toFixed(0)} + ${(background.db * 1000).toFixed(0)} µs/s`,
  );

  const ms = (micros) => `${(micros / 1000).toFixed(2)} ms`;
  const perReply = (cpu, replies) => `server ${ms(cpu.server / replies)}, PostgreSQL ${ms(cpu.db / replies)}`;
  const backgroundNote = `with the background taken off (server ${(background.server * 1000).toFixed(0)} µs and PostgreSQL ${(background.db * 1000).toFixed(0)} µs of CPU a second with nothing to do, over ${IDLE_MS / 1000} s)`;
  return [
    {
      label: `PostgreSQL ${tag}: server CPU per streamed token`,
      value: perToken,
      unit: 'µs',
      target: { max: 10 },
      note: `slope of the server's CPU per reply between ${TRICKLE_SHORT_REPLIES} replies of ${SHORT_TOKENS} tokens (${ms(shortNet.server / short.replies)} each) and ${CPU_REPLIES} of ${LONG_TOKENS} (${ms(net(long).server / long.replies)}), ${chats.length} at a time, ${backgroundNote}; raw ${slope(short, long).toFixed(1)} µs; delta events per reply (median) ${median(short.counts)} of ${SHORT_TOKENS}, ${median(long.counts)} of ${LONG_TOKENS}; the plain proxy ${proxyPerToken.toFixed(1)} µs per token`,
    },
    {
      label: `${tag}: read floor, CPU per token of a process that only reads the model`,
      value: floorPerToken,
      unit: 'µs',
      note: `bench/support/read-floor.mjs: node:http with keep-alive as providers/llm/openai.ts, one token per read, the SSE lines split and each data line's JSON parsed, nothing written; one at a time ${ms(floorAlone.server / floorAlone.replies)} per ${SHORT_TOKENS}-token reply; slope between ${TRICKLE_SHORT_REPLIES} replies of ${SHORT_TOKENS} tokens (${ms(floorShort.server / floorShort.replies)} each) and ${CPU_REPLIES} of ${LONG_TOKENS} (${ms(floorLong.server / floorLong.replies)}), ${chats.length} at a time; the plain proxy (one read and one write per token) ${proxyPerToken.toFixed(1)} µs per token`,
    },
    ttftFigure,
    {
      label: `PostgreSQL ${tag}: server + PostgreSQL CPU per ${SHORT_TOKENS}-token reply`,
      value: shortPerReply / 1000,
      unit: 'ms',
      target: { max: 1.5 },
      note: `${TRICKLE_SHORT_REPLIES} replies, ${chats.length} at a time, ${backgroundNote}: ${perReply(shortNet, short.replies)}; raw ${perReply(short, short.replies)}; one at a time (the first-token sends) ${perReply(sequentialNet, sequentialSends)}; the plain proxy ${ms(proxyShort.proxy / TRICKLE_SHORT_REPLIES)}, one at a time ${ms(proxyAlone.proxy / ALONE_REPLIES)}; the read floor ${ms(floorShort.server / floorShort.replies)}, one at a time ${ms(floorAlone.server / floorAlone.replies)}`,
    },
  ];
}

/** Whether Redis answers PING at `url` (a raw RESP exchange; no client library needed). */
async function redisAnswers(url) {
  if (url === 'none') return false;
  const { hostname, port } = new URL(url);
  const net = await import('node:net');
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** The process ids of the local redis-server (its CPU counts with the database's), or none. */
function redisPids() {
  try {
    return execSync('pidof redis-server', { encoding: 'utf8' }).trim().split(/\s+/).map(Number).filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Parts 1 and 2 through a second server on the same database with REDIS_URL set (the limits'
 * counts on Redis, as a cluster runs), stopped afterwards. Informational figures.
 */
async function redisVariant(startServer, fake, secret, url, users, directP50, fakeRate, sql, dbName, log) {
  if (!(await redisAnswers(REDIS_URL))) {
    log(`Redis not reachable at ${REDIS_URL}: the variant with limits on Redis is skipped (BENCH_REDIS_URL)`);
    return [];
  }
  const server = await startServer({ env: { ...serverEnv(fake, secret), DATABASE_URL: url, REDIS_URL } });
  try {
    for (let i = 0; i < TTFT_WARMUP; i++) await send(server.url, users[0], users[0].chats[0]);
    const through = [];
    for (let i = 0; i < TTFT_SENDS; i++) through.push((await send(server.url, users[0], users[0].chats[0])).first);
    const added = through.map((ms) => ms - directP50);
    let replies = 0;
    const redis = redisPids();
    const dbBefore = await backendCpu(sql, dbName);
    const cpuBefore = cpuMicros(server.child.pid);
    const redisBefore = cpuOfAll(redis);
    const started = performance.now();
    const deadline = started + DURATION_MS;
    await Promise.all(
      users.map(async (user) => {
        while (performance.now() < deadline) {
          await send(server.url, user, user.chats[0]);
          replies++;
        }
      }),
    );
    const rate = replies / ((performance.now() - started) / 1000);
    await sleep(100);
    const cpuPerReply = (cpuMicros(server.child.pid) - cpuBefore) / replies;
    const dbPerReply = ((await backendCpuSince(sql, dbName, dbBefore)) + cpuOfAll(redis) - redisBefore) / replies;
    log(
      `PostgreSQL + Redis: first token p50/p99 through the server ${median(through).toFixed(2)}/${percentile(through, 0.99).toFixed(2)} ms; ${rate.toFixed(0)} replies/s (CPU ${(cpuPerReply / 1000).toFixed(2)} ms per reply, PostgreSQL and Redis ${(dbPerReply / 1000).toFixed(2)} ms)`,
    );
    return [
      {
        label: 'PostgreSQL + Redis limits: added time to first token p50',
        value: median(added),
        unit: 'ms',
        note: `p99 ${percentile(added, 0.99).toFixed(2)} ms; a second server on the same database with REDIS_URL (the limits' counts on Redis)`,
      },
      {
        label: `PostgreSQL + Redis limits: replies/s vs the fake, ${CONCURRENCY} streams`,
        value: rate / fakeRate,
        unit: '×',
        note: `${rate.toFixed(0)} replies/s; server CPU ${(cpuPerReply / 1000).toFixed(2)} ms per reply, PostgreSQL's backends and Redis ${(dbPerReply / 1000).toFixed(2)} ms`,
      },
    ];
  } finally {
    await server.stop();
  }
}

async function firstBot(baseUrl) {
  return (await api(baseUrl, '/api/bots/available?size=5')).results[0].id;
}

// ---------------------------------------------------------------------------------------------
// PGlite: parts 5–6

/** Polls /api/health every HEALTH_EVERY_MS until `stop()`; each poll's start time and latency. */
function pollHealth(baseUrl) {
  const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples = [];
  let running = true;
  const get = () =>
    new Promise((resolve, reject) => {
      http
        .get(`${baseUrl}/api/health`, { agent: healthAgent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`health ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  const done = (async () => {
    while (running) {
      const at = performance.now();
      await get();
      samples.push({ at, ms: performance.now() - at });
      await sleep(Math.max(0, HEALTH_EVERY_MS - (performance.now() - at)));
    }
    healthAgent.destroy();
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

async function onPglite(startServer, makeDataDir, log) {
  const fake = await startFakeModel();
  const secret = randomBytes(32).toString('hex');
  const dataDir = makeDataDir('reverie-bench-chat-');
  let server = null;
  try {
    // A first start creates and migrates the database; the users go in while it is stopped.
    server = await startServer({ dataDir, env: serverEnv(fake, secret) });
    await server.stop({ removeData: false });
    server = null;
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = await PGlite.create(path.join(dataDir, 'pglite'));
    const users = await insertUsers((text, params) => pg.query(text, params), secret, OPEN_STREAMS);
    await pg.close();
    server = await startServer({ dataDir, env: serverEnv(fake, secret) });
    await openChats(server.url, users, 1);
    const pid = server.child.pid;
    log(`PGlite: ${users.length} users with a chat each`);
    for (let i = 0; i < 10; i++) await send(server.url, users[i], users[i].chats[0]);

    // /api/health with nothing streaming, for reference.
    const idle = pollHealth(server.url);
    await sleep(2000);
    await idle.stop();

    // 200 replies streaming at once, trickled: once all are open, 10 s of streaming, then the
    // fake ends them.
    await sleep(500);
    const rssBefore = residentBytes(pid);
    fake.state.intervalMs = TRICKLE_MS;
    const health = pollHealth(server.url);
    let open = 0;
    let rssOpen = NaN;
    let allOpen;
    const opened = new Promise((resolve) => (allOpen = resolve));
    const sendsAt = performance.now();
    const replies = Promise.all(
      users.map((user) =>
        send(server.url, user, user.chats[0], {
          onFirst: () => {
            if (++open < users.length) return;
            rssOpen = residentBytes(pid);
            allOpen(performance.now());
          },
        }),
      ),
    );
    replies.catch(() => allOpen(NaN));
    const allOpenAt = await opened;
    await sleep(TRICKLE_S * 1000);
    const steadyUntil = performance.now();
    fake.endTrickles();
    await replies;
    const endedAt = performance.now();
    await health.stop();
    fake.state.intervalMs = 0;

    const steady = health.samples.filter((s) => s.at >= allOpenAt && s.at + s.ms <= steadyUntil).map((s) => s.ms);
    const whole = health.samples.map((s) => s.ms);
    const idleMs = idle.samples.map((s) => s.ms);
    log(
      `PGlite: all ${users.length} streams open ${((allOpenAt - sendsAt) / 1000).toFixed(1)} s after the sends; ${TRICKLE_S} s of streaming; all ended ${((endedAt - steadyUntil) / 1000).toFixed(1)} s after the fake ended them`,
    );
    return [
      {
        label: `PGlite: /api/health p99, ${OPEN_STREAMS} open streams`,
        value: percentile(steady, 0.99),
        unit: 'ms',
        target: { max: 100 },
        note: `${steady.length} polls in the ${TRICKLE_S} s all ${OPEN_STREAMS} were open, a token every ${TRICKLE_MS} ms each; p50 ${median(steady).toFixed(1)} ms, max ${Math.max(...steady).toFixed(1)} ms`,
      },
      {
        label: `PGlite: /api/health p99, ${OPEN_STREAMS} sends start to end`,
        value: percentile(whole, 0.99),
        unit: 'ms',
        note: `${whole.length} polls from the ${OPEN_STREAMS} sends to the last reply's end (${((endedAt - sendsAt) / 1000).toFixed(1)} s; all open after ${((allOpenAt - sendsAt) / 1000).toFixed(1)} s); p50 ${median(whole).toFixed(1)} ms, max ${Math.max(...whole).toFixed(1)} ms`,
      },
      {
        label: 'PGlite: /api/health p99, nothing streaming',
        value: percentile(idleMs, 0.99),
        unit: 'ms',
        note: `${idleMs.length} polls, p50 ${median(idleMs).toFixed(1)} ms`,
      },
      {
        label: 'PGlite: memory per open stream',
        value: (rssOpen - rssBefore) / users.length / 1024,
        unit: 'KiB',
        note: `resident memory ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssOpen / 2 ** 20).toFixed(0)} MiB with ${users.length} streams open; an estimate (GC)`,
      },
    ];
  } finally {
    await server?.stop({ removeData: false });
    fs.rmSync(dataDir, { recursive: true, force: true });
    await fake.close();
  }
}

/** @param {{ startServer: Function, makeDataDir: Function, log: Function }} ctx */
export async function run({ startServer, makeDataDir, log }) {
  const results = [];
  if (ONLY !== 'pglite') {
    const parts = { burst: !ONLY?.startsWith('trickled'), trickled: TRICKLE_TOKEN_MS > 0 };
    const figures = await withScratchDatabase('reverie_bench_chat', log, (url) =>
      onPostgres(startServer, log, url, parts),
    );
    if (figures) results.push(...figures);
  }
  if (ONLY !== 'postgres' && !ONLY?.startsWith('trickled'))
    results.push(...(await onPglite(startServer, makeDataDir, log)));
  return results;
}
