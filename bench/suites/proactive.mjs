// Proactive messages at scale (issue 31, docs/companion.md "Scale"). On a PostgreSQL database
// the suite creates (BENCH_DATABASE_URL): BENCH_PROACTIVE_USERS users (1 000 000), each with a
// chat and a planned slot (rows inserted with SQL), a fifth of them due.
// 1. Claiming: the companion's claim statement (companion.repository.ts `claimDue`, the same
//    text) takes batches of 1 000 due slots, one after another, BENCH_PROACTIVE_CLAIMS times
//    (100): p50/p99 of one claim; the plan (EXPLAIN ANALYZE) is printed — an index scan of the
//    partial index `companion_slots_due_idx`, no sequential scan, no sort.
// 2. End to end: BENCH_PROACTIVE_MESSAGES (10 000) slots made due at once, the built server
//    started with the recurring claim every second against a fake OpenAI-compatible model in
//    this process (apps/server/test/fake-openai.ts); waits until every one is written: messages
//    per second, duplicates (a chat with two) and misses (a due chat with none) must be 0, and
//    the server's RSS (/proc) sampled every 500 ms: growth from the first quarter to the end.
import fs from 'node:fs';
import postgres from 'postgres';
import { withScratchDatabase } from '../support/postgres.mjs';
import { serverSources } from '../support/server-sources.mjs';
import { percentile } from '../support/stats.mjs';

export const name = 'proactive';
export const description = 'proactive slots: claiming 1 000 of 1 000 000 (p99), 10 000 messages end to end, PostgreSQL';
export const order = 68;

const USERS = Number(process.env.BENCH_PROACTIVE_USERS ?? 1_000_000);
const CLAIMS = Number(process.env.BENCH_PROACTIVE_CLAIMS ?? 100);
const MESSAGES = Number(process.env.BENCH_PROACTIVE_MESSAGES ?? 10_000);
const BATCH = 1000;

const rssMb = (pid) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
};

/** The claim of companion.repository.ts `claimDue`, as text (lease 600 s). */
const CLAIM_SQL = `
  with due as (
    select array(
      select chat_id from companion_slots
      where due_at is not null and due_at <= $1::timestamptz
      order by due_at
      limit ${BATCH}
      for update skip locked) as ids)
  update companion_slots s
  set due_at = $1::timestamptz + 600 * interval '1 second', attempts = s.attempts + 1, updated_at = now()
  from due
  where s.chat_id = any(due.ids)
  returning s.chat_id, s.user_id, s.frequency, s.slot_at, s.attempts`;
const claim = (sql, now) => sql.unsafe(CLAIM_SQL, [now]);

/** @param {{ startServer: Function, log: Function, repoRoot: string }} ctx */
export async function run({ startServer, log, repoRoot }) {
  const figures = await withScratchDatabase('reverie_bench_proactive', log, (url) =>
    measure(startServer, url, log, repoRoot),
  );
  return figures ?? [{ label: 'claim 1 000 due slots p99', value: 0, unit: 'ms', note: 'skipped: no PostgreSQL' }];
}

async function fill(sql, log) {
  const started = performance.now();
  // Migrate by starting the server once is the caller's; here the rows, in chunks of 100 000.
  const [bot] = await sql`
    insert into bots (slug, name, age, visibility, review_state, description)
    values ('bench-mia', 'Mia', 27, 'public', 'approved', 'A gardener who loves tomatoes.') returning id`;
  const CHUNK = 100_000;
  for (let from = 0; from < USERS; from += CHUNK) {
    const to = Math.min(USERS, from + CHUNK) - 1;
    await sql`
      insert into users (username, email, password_hash, name, is_email_confirmed)
      select 'p' || i, 'p' || i || '@example.test', '!', 'User ' || i, true from generate_series(${from}::int, ${to}::int) i`;
  }
  await sql`
    insert into chats (user_id, bot_id, disclosed_at) select id, ${bot.id}, now() from users where username like 'p%'`;
  await sql`
    insert into companion_settings (user_id, time_zone, quiet_start, quiet_end, daily_cap)
    select id, 'UTC', 0, 0, 10 from users where username like 'p%'`;
  // A fifth due (spread over the last hour), the rest planned over the next week.
  await sql`
    insert into companion_slots (chat_id, user_id, frequency, slot_at, due_at)
    select c.id, c.user_id, 'daily', t, t from (
      select id, user_id, case when random() < 0.2 then now() - random() * interval '1 hour'
        else now() + random() * interval '7 days' end as t from chats) c`;
  await sql`vacuum analyze companion_slots`;
  await sql`analyze users`;
  await sql`analyze chats`;
  log(`filled ${USERS} users, chats and slots in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return bot.id;
}

async function measure(startServer, dbUrl, log, repoRoot) {
  const sql = postgres(dbUrl, { max: 4, onnotice: () => {} });
  const load = await serverSources(repoRoot);
  const { startFakeOpenAi } = await load('test/fake-openai.ts');
  const fake = await startFakeOpenAi({ behaviour: { mode: 'ok', text: 'Did the tomatoes ripen while I was away?' } });
  let server;
  try {
    // The server migrates the database; its recurring claim is kept away (once an hour).
    const quiet = await startServer({
      env: { DATABASE_URL: dbUrl, LOG_LEVEL: 'warn', SEED_ON_START: 'false', COMPANION_TICK_S: '3600' },
    });
    await quiet.stop();
    await fill(sql, log);

    // 1. Claiming.
    const now = new Date().toISOString();
    // The plan of one claim, run for real (EXPLAIN ANALYZE) inside a transaction rolled back.
    let plan = '';
    await sql
      .begin(async (tx) => {
        const rows = await tx.unsafe(`explain (analyze, buffers, format text) ${CLAIM_SQL}`, [now]);
        plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        throw new Error('rollback');
      })
      .catch(() => undefined);
    log(`claim plan:\n${plan}`);
    const seqScan = /Seq Scan/.test(plan);
    const usesIndex = /companion_slots_due_idx/.test(plan);
    // The floor, in turn with the claims: the same number of rows written the same way (their
    // `due_at`, so every index entry moves, by primary key) with no search and no lock — what
    // PostgreSQL spends writing a batch on this machine, whatever the claim does to find it.
    const future = await sql`
      select chat_id from companion_slots where due_at > now() + interval '1 day' limit ${CLAIMS * BATCH}`;
    const floorIds = Array.from({ length: CLAIMS }, (_, i) =>
      future.slice(i * BATCH, (i + 1) * BATCH).map((r) => r.chat_id),
    );
    const times = [];
    const floorTimes = [];
    for (let i = 0; i < CLAIMS; i++) {
      const t = performance.now();
      const rows = await claim(sql, now);
      times.push(performance.now() - t);
      if (floorIds[i].length === BATCH) {
        const f = performance.now();
        await sql.unsafe(
          `update companion_slots set due_at = due_at + interval '1 second', attempts = attempts + 1, updated_at = now()
           where chat_id = any($1::uuid[]) returning chat_id, user_id, frequency, slot_at, attempts`,
          [floorIds[i]],
        );
        floorTimes.push(performance.now() - f);
      }
      if (rows.length < BATCH) break;
    }

    // 2. End to end: MESSAGES slots due now, every other slot far away.
    await sql`update companion_slots set due_at = now() + interval '30 days', slot_at = now() + interval '30 days', attempts = 0`;
    const due = await sql`
      update companion_slots set slot_at = now() - interval '1 minute' - random() * interval '1 minute',
        due_at = slot_at where chat_id in (select chat_id from companion_slots order by chat_id limit ${MESSAGES})
      returning chat_id`;
    await sql`update companion_slots set due_at = slot_at where slot_at < now()`;
    const dueIds = new Set(due.map((r) => r.chat_id));
    const startedAt = performance.now();
    server = await startServer({
      waitIdle: false, // it starts writing at once: the start is part of the measure
      env: {
        DATABASE_URL: dbUrl,
        LOG_LEVEL: 'warn',
        SEED_ON_START: 'false',
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: fake.url,
        LLM_MODEL: 'fake-model',
        COMPANION_TICK_S: '1',
        COMPANION_BATCH: String(BATCH),
        COMPANION_CONCURRENCY: process.env.BENCH_PROACTIVE_CONCURRENCY ?? '32',
      },
    });
    const pid = server.child.pid;
    // RSS against progress: the baseline once a quarter is written (start-up and warm-up done).
    const samples = [];
    let baseline = null;
    let written = 0;
    const deadline = Date.now() + Number(process.env.BENCH_PROACTIVE_TIMEOUT_S ?? 1800) * 1000;
    while (Date.now() < deadline) {
      [{ n: written }] = await sql`select count(*)::int as n from messages where proactive_slot is not null`;
      const rss = rssMb(pid);
      samples.push(rss);
      if (baseline === null && written >= MESSAGES / 4) baseline = rss;
      if (written >= MESSAGES) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const seconds = (performance.now() - startedAt) / 1000;
    // A last look after the claims that may still run: no second message anywhere.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const perChat = await sql`
      select chat_id, count(*)::int as n from messages where proactive_slot is not null group by chat_id`;
    const duplicates = perChat.filter((r) => r.n > 1).length;
    const got = new Set(perChat.map((r) => r.chat_id));
    const misses = [...dueIds].filter((id) => !got.has(id)).length;
    const growth = baseline === null ? 0 : samples.at(-1) - baseline;
    return [
      {
        label: `claim ${BATCH} due slots of ${USERS} (p99)`,
        value: Number(percentile(times, 0.99).toFixed(2)),
        unit: 'ms',
        target: { max: 20 },
        note: `p50 ${percentile(times, 0.5).toFixed(2)} ms over ${times.length} claims; ${usesIndex && !seqScan ? 'index scan of companion_slots_due_idx, rows updated by primary key, no seq scan' : 'PLAN HAS A SEQUENTIAL SCAN'}`,
      },
      {
        label: `floor: write ${BATCH} slots by primary key, no search, no lock (p99)`,
        value: Number(percentile(floorTimes, 0.99).toFixed(2)),
        unit: 'ms',
        note: `p50 ${percentile(floorTimes, 0.5).toFixed(2)} ms over ${floorTimes.length} batches, each right after a claim`,
      },
      { label: 'plan has a sequential scan', value: seqScan ? 1 : 0, unit: '', target: { max: 0 } },
      {
        label: `proactive messages written end to end`,
        value: written,
        unit: 'msgs',
        target: { min: MESSAGES },
        note: `${(written / seconds).toFixed(0)} msgs/s in ${seconds.toFixed(1)} s (server start included)`,
      },
      { label: 'duplicates (a chat with two)', value: duplicates, unit: '', target: { max: 0 } },
      { label: 'misses (a due chat with none)', value: misses, unit: '', target: { max: 0 } },
      {
        label: 'server RSS growth, a quarter written → all',
        value: Number(growth.toFixed(1)),
        unit: 'MB',
        target: { max: 50 },
        note: `at a quarter ${(baseline ?? 0).toFixed(0)} MB, peak ${Math.max(...samples, 0).toFixed(0)} MB, end ${(samples.at(-1) ?? 0).toFixed(0)} MB`,
      },
    ];
  } finally {
    await server?.stop().catch(() => undefined);
    await fake.close();
    await sql.end();
  }
}
