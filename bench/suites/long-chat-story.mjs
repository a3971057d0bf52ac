// Benchmark (issue 29): a chat of 100 000 messages on PostgreSQL, against the built server —
// its first history page, a search in it, a page around a message, a branch from the middle
// and a page of that branch, one request at a time (keep-alive). Server time (the targets) =
// each request's `responseTime` in the server's own request log (arrival to the last byte
// written); the client's round trip on the same two cores is reported beside it.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { accessToken, insertFundedUser, insertSession, withScratchDatabase } from '../support/postgres.mjs';
import { serverLogMark } from '../support/server-log-times.mjs';
import { percentile } from '../support/stats.mjs';

export const name = 'long-chat-story';
export const description =
  'a chat of 100 000 messages on PostgreSQL: first page, search, around, branch from the middle';
export const order = 62;

const MESSAGES = Number(process.env.BENCH_LONG_CHAT_MESSAGES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_LONG_CHAT_ROUNDS ?? 200);
const WORDS = ['harbour', 'lighthouse', 'storm', 'кошка', 'дорога', 'Regen', 'camino', '咖啡馆', '下雨天', 'tide'];

/** @param {{ startServer: Function, log: Function }} ctx */
export async function run({ startServer, log }) {
  const figures = await withScratchDatabase('reverie_bench_long_chat', log, (url) => measure(startServer, url, log));
  return figures ?? [{ label: 'long chat: first page p99', value: 0, unit: 'ms', note: 'skipped: no PostgreSQL' }];
}

/** Rounds run before each measure (not counted): the server's code warmed as in a running server. */
const WARM_UPS = Number(process.env.BENCH_LONG_CHAT_WARMUPS ?? 10);

/**
 * p50 and p99 of `rounds` sequential calls of `call(i)` (after `WARM_UPS` warm-ups): the
 * server's time from its request log (`server`) and the client's round trip (`client`).
 */
async function time(server, rounds, call) {
  for (let i = 0; i < WARM_UPS; i += 1) await call(i);
  const mark = serverLogMark(server);
  const times = [];
  for (let i = 0; i < rounds; i += 1) {
    const start = performance.now();
    await call(i);
    times.push(performance.now() - start);
  }
  // The last "request completed" line may still be on its way through the pipe.
  let logged = mark.times();
  for (let i = 0; i < 40 && logged.length < rounds; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    logged = mark.times();
  }
  if (logged.length !== rounds) throw new Error(`the server logged ${logged.length} of ${rounds} requests`);
  const stats = (values) => ({ p50: percentile(values, 0.5), p99: percentile(values, 0.99) });
  return { server: stats(logged.map((entry) => entry.ms)), client: stats(times) };
}

async function fill(sql, userId, botId) {
  const [chat] = await sql`insert into chats (user_id, bot_id) values (${userId}, ${botId}) returning id`;
  // Words of five languages in the texts, so that every query finds some rows (and not all).
  await sql.unsafe(
    `insert into messages (chat_id, user_id, role, text, tokens, created_at)
     select $1, $2, case when g % 2 = 0 then 'user' else 'bot' end,
            'Line ' || g || ': the ' || (array[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + g % ${WORDS.length}]
              || ' and more words to make a message of ordinary length ' || md5(g::text),
            20, now() - ((${MESSAGES} - g) || ' seconds')::interval
     from generate_series(1, ${MESSAGES}) g`,
    [chat.id, userId],
  );
  // A database holds many chats, not one: 2 000 others of 20 messages (the planner's statistics
  // then look like a real one's).
  await sql.unsafe(
    `with c as (insert into chats (user_id, bot_id) select $1, $2 from generate_series(1, 2000) returning id)
     insert into messages (chat_id, user_id, role, text, tokens)
     select c.id, $1, case when g % 2 = 0 then 'user' else 'bot' end, 'Another chat, line ' || g, 5
     from c, generate_series(1, 20) g`,
    [userId, botId],
  );
  // As a database in use: vacuumed (visibility map set, so no autovacuum pass lands in the
  // measure right after a bulk insert) and analysed.
  await sql`vacuum analyze`;
  return chat.id;
}

const round = (ms) => Math.round(ms * 10) / 10;

async function measure(startServer, dbUrl, log) {
  const secret = randomBytes(32).toString('hex');
  const sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  let server;
  try {
    server = await startServer({
      env: {
        DATABASE_URL: dbUrl,
        JWT_SECRET: secret,
        // Info: the request log is where the server's own time per request is read.
        LOG_LEVEL: 'info',
        SEED_ON_START: 'false',
        RATE_LIMIT_PER_MINUTE: '10000000',
      },
    });
    const userId = await insertFundedUser(sql, 0, 100);
    const [bot] = await sql`
      insert into bots (slug, name, age, visibility, review_state)
      values ('bench-long-chat', 'Bench', 25, 'public', 'approved') returning id`;
    const fillStart = performance.now();
    const chatId = await fill(sql, userId, bot.id);
    log(`long-chat-story: ${MESSAGES} messages in ${Math.round(performance.now() - fillStart)} ms`);
    const sid = await insertSession((text, params) => sql.unsafe(text, params), userId);
    const token = await accessToken(secret, userId, { sid, expiresIn: '1h' });
    const get = async (path, method = 'GET') => {
      const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
      return res.json();
    };
    const middle =
      await sql`select id from messages where chat_id = ${chatId} order by seq offset ${Math.floor(MESSAGES / 2)} limit 1`;
    const ids = await sql`select id from messages where chat_id = ${chatId} order by random() limit 50`;

    const firstPage = await time(server, ROUNDS, () => get(`/api/chat/history/${chatId}`));
    const search = await time(server, ROUNDS, (i) =>
      get(`/api/chat/${chatId}/search?q=${encodeURIComponent(WORDS[i % WORDS.length])}`),
    );
    const around = await time(server, ROUNDS, (i) => get(`/api/chat/${chatId}/around/${ids[i % ids.length].id}`));
    const branches = [];
    const branch = await time(server, Math.min(ROUNDS, 100), async () =>
      branches.push((await get(`/api/chat/${chatId}/messages/${middle[0].id}/branch`, 'POST')).id),
    );
    const branchPage = await time(server, ROUNDS, (i) => get(`/api/chat/history/${branches[i % branches.length]}`));
    const row = (label, t, max) => [
      { label: `${label} p50`, value: round(t.server.p50), unit: 'ms' },
      {
        label: `${label} p99`,
        value: round(t.server.p99),
        unit: 'ms',
        target: { max },
        note: `server time; the client's round trip p50 ${round(t.client.p50)} / p99 ${round(t.client.p99)} ms`,
      },
    ];
    return [
      ...row('long chat: first page', firstPage, 30),
      ...row('long chat: search', search, 50),
      ...row('long chat: around a message', around, 30),
      ...row('long chat: branch from the middle', branch, 50),
      ...row("long chat: a branch's first page", branchPage, 30),
    ];
  } finally {
    await server?.stop();
    await sql.end();
  }
}
