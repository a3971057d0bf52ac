// Unblur requests per second: `GET /api/unblur/image/{id}` against the built server on a
// PostgreSQL database the suite creates (BENCH_DATABASE_URL, default the local server).
// 50 users, each with a balance and 120 blurred pictures (rows inserted directly), unblur
// their pictures concurrently for 10 s (BENCH_DURATION_S): every request is a ledger debit
// of 3 desires plus the message update. Then the same pictures again (free, already
// unblurred). At the end every balance must equal 1 000 000 − 3 × its unblurred pictures,
// and the ledger invariant must hold.
import { randomBytes, randomUUID } from 'node:crypto';
import postgres from 'postgres';
import {
  accessToken,
  insertFundedUser,
  insertSession,
  ledgerMismatches,
  withScratchDatabase,
} from '../support/postgres.mjs';
import { percentile } from '../support/stats.mjs';

export const name = 'unblur';
export const description = 'unblur requests per second (ledger debit + message update), PostgreSQL';
export const order = 65;

const USERS = 50;
const PICTURES_PER_USER = 120;
const DURATION_MS = Number(process.env.BENCH_DURATION_S ?? 10) * 1000;
const START_BALANCE = 1_000_000;

/** Each user's worker unblurs its pictures in order until the deadline; answers latencies and counts. */
async function drive(baseUrl, users, durationMs, pick) {
  const latencies = [];
  const failures = [];
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    users.map(async (user) => {
      for (let i = 0; performance.now() < deadline; i += 1) {
        const id = pick(user, i);
        if (!id) break;
        const t = performance.now();
        const response = await fetch(`${baseUrl}/api/unblur/image/${id}`, {
          headers: { authorization: `Bearer ${user.token}` },
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - t);
        if (response.status !== 200) failures.push(response.status);
        else user.unblurred.add(id);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { count: latencies.length, seconds, latencies, failures };
}

/** @param {{ startServer: Function, log: Function }} ctx */
export async function run({ startServer, log }) {
  const figures = await withScratchDatabase('reverie_bench_unblur', log, (url) => measure(startServer, url, log));
  return figures ?? [{ label: 'unblur requests per second', value: 0, unit: 'req/s', note: 'skipped: no PostgreSQL' }];
}

async function measure(startServer, dbUrl, log) {
  const secret = randomBytes(32).toString('hex');
  let server;
  const sql = postgres(dbUrl, { max: 4, onnotice: () => {} });
  try {
    server = await startServer({
      env: {
        DATABASE_URL: dbUrl,
        JWT_SECRET: secret,
        LOG_LEVEL: 'warn',
        SEED_ON_START: 'false',
        RATE_LIMIT_PER_MINUTE: '10000000',
      },
    });
    // The server migrated the database on start; insert the users, a character and the pictures.
    const [bot] = await sql`
      insert into bots (slug, name, age, visibility, review_state)
      values ('bench-bot', 'Bench', 25, 'public', 'approved') returning id`;
    const users = [];
    for (let u = 0; u < USERS; u += 1) {
      const user = { id: await insertFundedUser(sql, u, START_BALANCE) };
      const [chat] = await sql`insert into chats (user_id, bot_id) values (${user.id}, ${bot.id}) returning id`;
      const rows = Array.from({ length: PICTURES_PER_USER }, () => ({
        id: randomUUID(),
        chat_id: chat.id,
        user_id: user.id,
        role: 'bot',
        kind: 3,
        text: 'Just for you',
        media_key: `chats/${user.id}/${randomBytes(16).toString('hex')}.webp`,
        original_key: `originals/${user.id}/${randomBytes(16).toString('hex')}.webp`,
      }));
      await sql`insert into messages ${sql(rows)}`;
      const sid = await insertSession((text, params) => sql.unsafe(text, params), user.id);
      const token = await accessToken(secret, user.id, { sid, expiresIn: '1h' });
      users.push({ id: user.id, token, pictures: rows.map((r) => r.id), unblurred: new Set() });
    }

    // Warm-up: one unblur per user.
    await drive(server.url, users, 60_000, (user, i) => (i === 0 ? user.pictures[0] : null));
    const first = await drive(server.url, users, DURATION_MS, (user, i) => user.pictures[i + 1]);
    if (first.failures.length)
      throw new Error(`${first.failures.length} unblurs failed: ${first.failures.slice(0, 5)}`);
    const repeat = await drive(server.url, users, Math.min(DURATION_MS, 5000), (user, i) => {
      const done = [...user.unblurred];
      return done[i % done.length];
    });
    if (repeat.failures.length) throw new Error(`${repeat.failures.length} repeated unblurs failed`);

    // Every picture was charged exactly once, and the ledger matches the balances.
    for (const user of users) {
      const [row] = await sql`select num_tokens from users where id = ${user.id}`;
      const expected = START_BALANCE - 3 * user.unblurred.size;
      if (Number(row.num_tokens) !== expected)
        throw new Error(`user ${user.id}: balance ${row.num_tokens}, expected ${expected}`);
    }
    const mismatches = await ledgerMismatches(sql);
    if (mismatches.length > 0) throw new Error(`ledger invariant broken for ${mismatches.length} users`);
    log(
      `${first.count} first unblurs in ${first.seconds.toFixed(1)} s, ${repeat.count} repeats in ${repeat.seconds.toFixed(1)} s, ${USERS} concurrent users; each picture charged once, invariant holds`,
    );
    return [
      {
        label: 'unblur requests per second (charged)',
        value: first.count / first.seconds,
        unit: 'req/s',
        target: { min: 200 },
      },
      { label: 'unblur latency p50 (charged)', value: percentile(first.latencies, 0.5), unit: 'ms' },
      { label: 'unblur latency p99 (charged)', value: percentile(first.latencies, 0.99), unit: 'ms' },
      { label: 'unblur requests per second (already unblurred)', value: repeat.count / repeat.seconds, unit: 'req/s' },
    ];
  } finally {
    await server?.stop();
    await sql.end();
  }
}
