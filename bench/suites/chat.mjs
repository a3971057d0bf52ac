// Chat streaming: what the server adds on top of the model. The built server talks to a fake
// OpenAI-compatible endpoint inside this process that answers every completion at once (a
// whole three-piece stream in one write), so the figures are the server's own cost: auth,
// validation, the user message and reply rows, the prompt, the upstream call, the saves and
// the event stream. Run on PGlite (the default) and on PostgreSQL (BENCH_DATABASE_URL,
// default the local server; skipped when unreachable).
//
// - added time to first token: one user sends 200 messages one after another; the time
//   from the request to the first `delta` event, p50 and p99;
// - complete replies per second: 100 users with a chat each send in a loop for 10 s
//   (BENCH_DURATION_S), each send read to its final `bot_message`;
// - memory per open stream: 400 replies held open by the fake (first piece sent, then
//   nothing), the server's resident memory before and after (medians of five readings),
//   divided by 400 — an estimate: the garbage collector moves it by a few kilobytes.
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { SignJWT } from 'jose';

export const name = 'chat';
export const description = 'chat: added time to first token, replies per second, memory per open stream';
export const order = 70;

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION_MS = Number(process.env.BENCH_DURATION_S ?? 10) * 1000;
const TTFT_SENDS = 200;
const CONCURRENT_CHATS = 100;
const OPEN_STREAMS = 400;

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** The instant fake model; `hold` keeps new streams open after their first piece. */
function startFakeModel() {
  const held = new Set();
  const state = { hold: false };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const chunk = (text, finish = null) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: text === null ? {} : { content: text }, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (state.hold) {
        res.write(chunk('Hello'));
        held.add(res);
        return;
      }
      res.end(chunk('Hello') + chunk(' there') + chunk('!') + chunk(null, 'stop') + 'data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        state,
        release() {
          for (const res of held) res.end('data: [DONE]\n\n');
          held.clear();
        },
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

async function signToken(secret, userId) {
  return new SignJWT({ role: 'user' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer('reverie')
    .setAudience('access')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
}

/** Registers `count` users through the API and opens `chatsEach` chats for each. */
async function makeUsers(baseUrl, secret, count, chatsEach) {
  const bots = await (await fetch(`${baseUrl}/api/bots/available?size=5`)).json();
  const botID = bots.results[0].id;
  const users = [];
  for (let i = 0; i < count; i++) {
    const suffix = randomBytes(4).toString('hex');
    const res = await fetch(`${baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: `bench${suffix}`,
        email: `bench${suffix}@example.test`,
        password: 'bench-password',
        age_confirmed: true,
      }),
    });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    const { id } = await res.json();
    const token = await signToken(secret, id);
    const chats = [];
    for (let c = 0; c < chatsEach; c++) {
      const chat = await fetch(`${baseUrl}/api/chat/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ botID }),
      });
      if (chat.status !== 201) throw new Error(`chat: ${chat.status} ${await chat.text()}`);
      chats.push((await chat.json()).id);
    }
    users.push({ token, chats });
  }
  return users;
}

/** Sends one message; resolves with the time to the first delta and the time to the end. */
async function sendOnce(baseUrl, user, chatId, { stopAfterFirst = false } = {}) {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/chat/${chatId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: randomUUID(), text: 'Hello, how are you?' }),
  });
  if (res.status !== 200) throw new Error(`send: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstDelta = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (firstDelta === null && text.includes('event: delta')) {
      firstDelta = performance.now() - started;
      if (stopAfterFirst) return { firstDelta, reader };
    }
  }
  if (!/"state":"done"/.test(text)) throw new Error(`reply did not finish: ${text.slice(-300)}`);
  return { firstDelta, total: performance.now() - started };
}

/** The server's resident memory: the median of five readings 400 ms apart (GC makes single ones noisy). */
async function residentBytes(baseUrl, metricsToken) {
  const readings = [];
  for (let i = 0; i < 5; i++) {
    // The server runs in production, where /metrics needs its token.
    const text = await (
      await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    const match = text.match(/^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m);
    if (match) readings.push(Number(match[1]));
    await new Promise((r) => setTimeout(r, 400));
  }
  readings.sort((a, b) => a - b);
  return readings[Math.floor(readings.length / 2)] ?? NaN;
}

async function measure(label, startServer, env, log) {
  const fake = await startFakeModel();
  const secret = randomBytes(32).toString('hex');
  const server = await startServer({
    env: {
      ...env,
      JWT_SECRET: secret,
      METRICS_TOKEN: secret,
      LOG_LEVEL: 'warn',
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'bench-model',
      CHAT_MESSAGES_PER_MINUTE: '100000000',
      RATE_LIMIT_PER_MINUTE: '100000000',
      AUTH_RATE_LIMIT_IP_PER_MINUTE: '100000',
    },
  });
  try {
    const users = await makeUsers(server.url, secret, CONCURRENT_CHATS, OPEN_STREAMS / CONCURRENT_CHATS);
    log(`${label}: ${users.length} users ready`);

    // 1. Added time to first token, one send at a time (after 20 warm-up sends).
    const ttft = [];
    for (let i = 0; i < TTFT_SENDS + 20; i++) {
      const { firstDelta } = await sendOnce(server.url, users[0], users[0].chats[0]);
      if (i >= 20) ttft.push(firstDelta);
    }
    ttft.sort((a, b) => a - b);

    // 2. Complete replies per second with 100 concurrent chats.
    let replies = 0;
    const deadline = performance.now() + DURATION_MS;
    const started = performance.now();
    await Promise.all(
      users.map(async (user) => {
        while (performance.now() < deadline) {
          await sendOnce(server.url, user, user.chats[0]);
          replies++;
        }
      }),
    );
    const perSecond = replies / ((performance.now() - started) / 1000);

    // 3. Memory per open stream: three rounds of holding every chat's reply open; the median
    //    of the per-round differences (one round alone moves with the garbage collector).
    const differences = [];
    let held = 0;
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setTimeout(r, 1000));
      const before = await residentBytes(server.url, secret);
      fake.state.hold = true;
      const open = await Promise.all(
        users.flatMap((user) => user.chats.map((chat) => sendOnce(server.url, user, chat, { stopAfterFirst: true }))),
      );
      const after = await residentBytes(server.url, secret);
      fake.state.hold = false;
      fake.release();
      for (const { reader } of open) await reader.cancel().catch(() => {});
      held = open.length;
      differences.push((after - before) / open.length);
    }
    differences.sort((a, b) => a - b);
    const perStream = differences[1];

    return [
      {
        label: `${label}: added time to first token p50`,
        value: percentile(ttft, 0.5),
        unit: 'ms',
        target: { max: 5 },
      },
      {
        label: `${label}: added time to first token p99`,
        value: percentile(ttft, 0.99),
        unit: 'ms',
        target: { max: 25 },
      },
      {
        label: `${label}: complete replies per second, ${CONCURRENT_CHATS} concurrent chats`,
        value: perSecond,
        unit: 'replies/s',
        ...(label === 'PostgreSQL' ? { target: { min: 300 } } : {}),
      },
      {
        label: `${label}: memory per open stream`,
        value: perStream / 1024,
        unit: 'KiB',
        note: `${held} streams held open, median of 3 rounds`,
      },
    ];
  } finally {
    await server.stop();
    await fake.close();
  }
}

/** @param {{ startServer: Function, log: Function }} ctx */
export async function run({ startServer, log }) {
  const results = await measure('PGlite', startServer, {}, log);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin`select 1`;
  } catch (error) {
    await admin.end().catch(() => {});
    log(`PostgreSQL not reachable at ${ADMIN_URL} (${error.message}); set BENCH_DATABASE_URL`);
    return results;
  }
  const dbName = `reverie_bench_chat_${randomBytes(4).toString('hex')}`;
  await admin.unsafe(`create database ${dbName}`);
  try {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    results.push(...(await measure('PostgreSQL', startServer, { DATABASE_URL: url.toString() }, log)));
  } finally {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
  }
  return results;
}
