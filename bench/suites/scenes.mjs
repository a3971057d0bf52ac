// Group scenes (issue 32, docs/groups.md): a scene of 10 people and 4 characters on two replicas
// of the built server sharing PostgreSQL (BENCH_DATABASE_URL, a fresh database per run; skipped
// with a note when unreachable) and Redis (BENCH_REDIS_URL, default the local one: pub/sub,
// presence, limits), against a fake OpenAI-compatible model inside this process that trickles
// each token in its own write (BENCH_SCENES_TOKEN_MS, 10 ms apart) and notes when it wrote it.
// The people alternate between the replicas (five on each), each holding the scene's event
// stream (`GET /api/chat/{id}/scene/events`).
//  1. fan-out: each of the 10 people sends in turn (manual turns: no character answers), 10
//     rounds; for every message, request start → the `message` event at each of the other nine;
//     p50/p99 over the 900 arrivals;
//  2. per-token delay: a person names a character (`@Name`); her reply streams to the sender
//     (its send stream) and to the nine others (each attaches to the reply with
//     `GET /api/chat/{id}/stream/{message_id}` when its `message` event arrives, on their own
//     replica — half of them not the one writing it). For every token: its arrival at a person
//     (the `delta` event that brings it) − when the fake wrote it; p99 over all tokens of all
//     people in BENCH_SCENES_REPLIES (10) replies, minus the same p99 in a one-to-one chat
//     (one reader) measured the same way in the same run: the added delay;
//  3. load: BENCH_SCENES_COUNT (200) such scenes at once (people and memberships inserted with
//     SQL; every person on the scene's event stream, alternating replicas), each with a reply
//     trickling 64 tokens (one every 50 ms) read by its sender while `/api/health` is polled
//     every 20 ms on both replicas; p99 of those polls over the 10 s when all replies stream.
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { accessToken, insertSession, withScratchDatabase } from '../support/postgres.mjs';
import { median, percentile } from '../support/stats.mjs';

export const name = 'scenes';
export const description =
  'group scenes on two replicas: message fan-out, per-token delay vs one-to-one, health under 200 scenes';
export const order = 71;

const PEOPLE = 10;
const CHARACTERS = 4;
const TOKEN_MS = Number(process.env.BENCH_SCENES_TOKEN_MS ?? 10);
const REPLY_TOKENS = 64;
const REPLIES = Number(process.env.BENCH_SCENES_REPLIES ?? 10);
const ROUNDS = 10;
const SCENES = Number(process.env.BENCH_SCENES_COUNT ?? 200);
const LOAD_TOKEN_MS = 50;
const HEALTH_EVERY_MS = 20;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

// ---------------------------------------------------------------------------------------------
// The fake model: `state.tokens` tokens, each its own write `state.tokenMs` apart; the write
// times of every request's tokens are kept by the text of the request's last message.

const WORD = (i) => ` w${i}`;
const chunkOf = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const END = chunkOf({}, 'stop') + 'data: [DONE]\n\n';

function startFakeModel() {
  const state = { tokens: REPLY_TOKENS, tokenMs: TOKEN_MS };
  /** Write times (performance.now) of each reply's tokens, newest reply last. */
  const writes = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const times = [];
      writes.push(times);
      let sent = 0;
      const next = () => {
        if (res.destroyed) return;
        if (sent === state.tokens) return void res.end(END);
        res.write(chunkOf({ content: WORD(sent) }));
        times.push(performance.now());
        sent++;
        setTimeout(next, state.tokenMs);
      };
      next();
    });
  });
  server.on('connection', (socket) => socket.setNoDelay(true));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        state,
        writes,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Event streams

/** Opens an event stream (GET, or POST with `body`); `onEvent(name, data, at)` for each event. */
function openEvents(url, token, onEvent, body) {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : null;
    const req = http.request(
      url,
      {
        method: body ? 'POST' : 'GET',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`${url}: ${res.statusCode}`));
        }
        let buffer = '';
        res.setEncoding('utf8');
        const ended = new Promise((r) => res.on('end', r));
        res.on('data', (chunk) => {
          const at = performance.now();
          buffer += chunk;
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) onEvent(event, JSON.parse(data), at);
          }
        });
        resolve({ close: () => req.destroy(), ended });
      },
    );
    req.on('error', (error) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    if (payload) req.end(payload);
    else req.end();
  });
}

async function api(baseUrl, pathname, token, body, method) {
  const res = await fetch(`${baseUrl}${pathname}`, {
    method: method ?? (body ? 'POST' : 'GET'),
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

async function insertUsers(sql, secret, count) {
  const users = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const suffix = id.slice(0, 8);
    await sql`insert into users (id, username, email, password_hash, name, age, is_email_confirmed)
      values (${id}, ${`bench_${suffix}`}, ${`bench_${suffix}@example.test`}, '!bench', ${`Person ${i}`}, 30, true)`;
    const sid = await insertSession((text, params) => sql.unsafe(text, params), id);
    users.push({ id, token: await accessToken(secret, id, { sid }) });
  }
  return users;
}

/** A scene of `people` (the first its owner) and the characters, made through the API and SQL. */
async function makeScene(sql, replicas, people, bots, turnMode) {
  const owner = people[0];
  const chat = await api(replicas[0].url, '/api/chat/group', owner.token, {
    bot_ids: bots.map((b) => b.id),
    turn_mode: turnMode,
  });
  for (const person of people.slice(1))
    await sql`insert into chat_people (chat_id, user_id) values (${chat.id}, ${person.id})`;
  return chat.id;
}

/** Token index of each delta's last token: deltas carry ` w{i}` words. */
const lastToken = (text) => {
  const all = [...text.matchAll(/ w(\d+)/g)];
  return all.length ? all.map((m) => Number(m[1])) : [];
};

// ---------------------------------------------------------------------------------------------

export async function run({ startServer, log }) {
  const results = [];
  const outcome = await withScratchDatabase('bench_scenes', log, async (url) => {
    const redis = REDIS_URL === 'none' ? {} : { REDIS_URL };
    const fake = await startFakeModel();
    const secret = randomBytes(32).toString('hex');
    const env = {
      JWT_SECRET: secret,
      LOG_LEVEL: 'warn',
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'bench-model',
      LLM_MAX_TOKENS: '2000',
      CHAT_MESSAGES_PER_MINUTE: '100000000',
      RATE_LIMIT_PER_MINUTE: '100000000',
      DATABASE_URL: url,
      ...redis,
    };
    const a = await startServer({ env });
    const b = await startServer({ env });
    const replicas = [a, b];
    const sql = postgres(url, { max: 4, onnotice: () => {} });
    try {
      const bots = (await api(a.url, '/api/bots/available?size=10', '')).results.slice(0, CHARACTERS);
      if (bots.length < CHARACTERS) throw new Error('the seed has fewer than 4 characters');
      const people = await insertUsers(sql, secret, PEOPLE + 1);
      const solo = people.pop();
      const chatId = await makeScene(sql, replicas, people, bots, 'manual');
      const on = (i) => replicas[i % 2];

      // Everyone holds the scene's events on their replica.
      const arrivals = new Map(); // message text → [at…]
      /** Told of each character reply that starts: (person index, message id). */
      const listeners = new Set();
      const streams = await Promise.all(
        people.map((person, i) =>
          openEvents(`${on(i).url}/api/chat/${chatId}/scene/events`, person.token, (event, data, at) => {
            if (event !== 'message') return;
            const m = data.message;
            // The other people's arrivals (the sender's own copy left out).
            if (m.role === 'user' && m.speaker?.user_id !== person.id)
              arrivals.set(m.text, [...(arrivals.get(m.text) ?? []), at]);
            if (m.role === 'bot' && m.state === 'streaming') for (const f of listeners) f(i, m.id);
          }),
        ),
      );
      await sleep(500);

      // 1. Fan-out.
      const fanout = [];
      const fromRequest = [];
      for (let round = 0; round < ROUNDS; round++)
        for (let i = 0; i < PEOPLE; i++) {
          const text = `round ${round} from ${i} ${randomUUID()}`;
          const t0 = performance.now();
          let saved = null;
          const s = await openEvents(
            `${on(i).url}/api/chat/${chatId}/messages`,
            people[i].token,
            (event, _data, at) => event === 'user_message' && (saved = at),
            { client_id: randomUUID(), text },
          );
          await s.ended;
          for (let wait = 0; (arrivals.get(text)?.length ?? 0) < PEOPLE - 1 && wait < 100; wait++) await sleep(10);
          for (const at of arrivals.get(text) ?? []) {
            fromRequest.push(at - t0);
            // From the moment the sender's own stream has it saved: what pub/sub and the
            // other replica add (negative when another person's copy came first: counted as 0).
            fanout.push(Math.max(0, at - (saved ?? t0)));
          }
        }
      log(`fan-out: ${fanout.length} arrivals of ${ROUNDS * PEOPLE * (PEOPLE - 1)}`);
      results.push(
        { label: 'message fan-out p50 (sender has it → the others)', value: +median(fanout).toFixed(1), unit: 'ms' },
        {
          label: 'message fan-out p99 (sender has it → the others)',
          value: +percentile(fanout, 0.99).toFixed(1),
          unit: 'ms',
          target: { max: 50 },
        },
        { label: 'message: send request → the others, p50', value: +median(fromRequest).toFixed(1), unit: 'ms' },
        {
          label: 'message: send request → the others, p99',
          value: +percentile(fromRequest, 0.99).toFixed(1),
          unit: 'ms',
        },
      );

      // 2. Per-token delay: the scene's ten readers vs one reader of a one-to-one chat.
      const delays = (events, writes) => {
        const out = [];
        for (const { text, at } of events)
          for (const i of lastToken(text)) if (writes[i] !== undefined) out.push(at - writes[i]);
        return out;
      };
      const sceneDelays = [];
      for (let r = 0; r < REPLIES; r++) {
        const sender = r % PEOPLE;
        const bot = bots[r % CHARACTERS];
        const perPerson = people.map(() => []);
        const attached = [];
        const attach = (i, messageId) => {
          if (i === sender) return;
          attached.push(
            openEvents(`${on(i).url}/api/chat/${chatId}/stream/${messageId}`, people[i].token, (event, data, at) => {
              if (event === 'delta') perPerson[i].push({ text: data.text, at });
            }).then((s) => s.ended),
          );
        };
        listeners.add(attach);
        const send = await openEvents(
          `${on(sender).url}/api/chat/${chatId}/messages`,
          people[sender].token,
          (event, data, at) => {
            if (event === 'delta') perPerson[sender].push({ text: data.text, at });
          },
          { client_id: randomUUID(), text: `@${bot.name} tell us something` },
        );
        await send.ended;
        listeners.delete(attach);
        await Promise.all(attached);
        const writes = fake.writes.at(-1);
        for (const events of perPerson) sceneDelays.push(...delays(events, writes));
      }
      const soloChat = (await api(a.url, '/api/chat/create', solo.token, { botID: bots[0].id })).id;
      const soloDelays = [];
      for (let r = 0; r < REPLIES; r++) {
        const events = [];
        const s = await openEvents(
          `${on(r).url}/api/chat/${soloChat}/messages`,
          solo.token,
          (event, data, at) => event === 'delta' && events.push({ text: data.text, at }),
          { client_id: randomUUID(), text: 'tell me something' },
        );
        await s.ended;
        soloDelays.push(...delays(events, fake.writes.at(-1)));
      }
      const added = percentile(sceneDelays, 0.99) - percentile(soloDelays, 0.99);
      results.push(
        { label: 'token delay p99, scene of 10', value: +percentile(sceneDelays, 0.99).toFixed(1), unit: 'ms' },
        { label: 'token delay p99, one-to-one', value: +percentile(soloDelays, 0.99).toFixed(1), unit: 'ms' },
        {
          label: 'per-token added delay p99 (scene − one-to-one)',
          value: +added.toFixed(1),
          unit: 'ms',
          target: { max: 20 },
          note: `${sceneDelays.length} token arrivals over ${REPLIES} replies, tokens ${TOKEN_MS} ms apart`,
        },
      );
      for (const s of streams) s.close();

      // 3. Many scenes at once; /api/health on both replicas.
      const crowd = await insertUsers(sql, secret, SCENES * PEOPLE);
      const scenes = [];
      for (let s = 0; s < SCENES; s++) {
        const members = crowd.slice(s * PEOPLE, (s + 1) * PEOPLE);
        scenes.push({ members, chatId: await makeScene(sql, replicas, members, bots, 'auto') });
      }
      log(`${SCENES} scenes of ${PEOPLE} people made`);
      const open = [];
      for (const scene of scenes)
        for (let i = 0; i < PEOPLE; i++)
          open.push(
            await openEvents(`${on(i).url}/api/chat/${scene.chatId}/scene/events`, scene.members[i].token, () => {}),
          );
      fake.state.tokenMs = LOAD_TOKEN_MS;
      fake.state.tokens = 1000;
      const health = [];
      let polling = true;
      const poll = (async () => {
        while (polling) {
          for (const r of replicas) {
            const t0 = performance.now();
            await fetch(`${r.url}/api/health`).then((res) => res.arrayBuffer());
            health.push({ at: t0, ms: performance.now() - t0 });
          }
          await sleep(HEALTH_EVERY_MS);
        }
      })();
      const firstTokens = new Set();
      const sends = scenes.map((scene, s) =>
        openEvents(
          `${on(s).url}/api/chat/${scene.chatId}/messages`,
          scene.members[0].token,
          (event) => event === 'delta' && firstTokens.add(s),
          { client_id: randomUUID(), text: `@${bots[s % CHARACTERS].name} a story please` },
        ),
      );
      const openSends = await Promise.all(sends);
      for (let wait = 0; firstTokens.size < SCENES && wait < 600; wait++) await sleep(50);
      const allOpen = performance.now();
      await sleep(10_000);
      const window = health.filter((h) => h.at >= allOpen).map((h) => h.ms);
      polling = false;
      await poll;
      for (const s of openSends) s.close();
      for (const s of open) s.close();
      results.push({
        label: `/api/health p99, ${SCENES} scenes streaming`,
        value: +percentile(window, 0.99).toFixed(1),
        unit: 'ms',
        target: { max: 100 },
        note: `${firstTokens.size} of ${SCENES} replies streaming, ${open.length} scene streams open, ${window.length} polls`,
      });
      return results;
    } finally {
      await sql.end().catch(() => {});
      await a.stop();
      await b.stop();
      await fake.close();
    }
  });
  return outcome ?? [];
}
