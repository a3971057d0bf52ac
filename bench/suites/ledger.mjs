// Ledger debits per second under 100 concurrent users on PostgreSQL, with the ledger
// invariant (every balance equals the sum of its ledger rows, none below zero) checked at the
// end. Runs on a database it creates (BENCH_DATABASE_URL, default the local server) with the
// app's migrations, and issues exactly the statement of applyLedgerEntry
// (apps/server/src/modules/billing/ledger.repository.ts) for each debit.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export const name = 'ledger';
export const description = 'ledger debits per second, 100 concurrent users, PostgreSQL (invariant checked)';
export const order = 60;

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const USERS = 100;
const DURATION_MS = Number(process.env.BENCH_DURATION_S ?? 10) * 1000;
const POOL = Number(process.env.BENCH_LEDGER_POOL ?? 20);
const START_BALANCE = 1_000_000;

function withDatabase(url, db) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function migrate(sql, repoRoot) {
  const dir = path.join(repoRoot, 'apps/server/drizzle');
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    for (const statement of fs.readFileSync(path.join(dir, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) await sql.unsafe(statement);
    }
  }
}

/**
 * One debit, exactly as applyLedgerEntry issues it: one statement (ledger row first for
 * idempotency, then the balance; the CHECK constraint refuses a negative balance).
 */
async function debit(sql, userId, amount) {
  const key = `bench:${randomBytes(12).toString('hex')}`;
  const [row] = await sql`
    with l as (
      insert into ledger_entries (user_id, amount, reason, reference, idempotency_key)
      values (${userId}, ${-amount}, 'spend', ${null}, ${key})
      on conflict (idempotency_key) do nothing
      returning user_id, amount
    ), u as (
      update users set num_tokens = users.num_tokens + l.amount
      from l where users.id = l.user_id
      returning users.num_tokens
    )
    select (select count(*) from l)::int as inserted, (select num_tokens from u) as balance`;
  return row.inserted === 1;
}

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin`select 1`;
  } catch (error) {
    await admin.end().catch(() => {});
    log(`PostgreSQL not reachable at ${ADMIN_URL} (${error.message}); set BENCH_DATABASE_URL`);
    return [{ label: 'ledger debits per second', value: 0, unit: 'debits/s', note: 'skipped: no PostgreSQL' }];
  }
  const dbName = `reverie_bench_ledger_${randomBytes(4).toString('hex')}`;
  await admin.unsafe(`create database ${dbName}`);
  const sql = postgres(withDatabase(ADMIN_URL, dbName), { max: POOL, onnotice: () => {} });
  try {
    await migrate(sql, repoRoot);
    const ids = [];
    for (let i = 0; i < USERS; i += 1) {
      const [row] = await sql`
        insert into users (username, email, password_hash, name)
        values (${`bench${i}`}, ${`bench${i}@example.test`}, '!', ${`Bench ${i}`}) returning id`;
      await sql.begin(async (tx) => {
        await tx`insert into ledger_entries (user_id, amount, reason, idempotency_key)
                 values (${row.id}, ${START_BALANCE}, 'adjustment', ${`bench-start:${row.id}`})`;
        await tx`update users set num_tokens = num_tokens + ${START_BALANCE} where id = ${row.id}`;
      });
      ids.push(row.id);
    }
    // Warm-up.
    await Promise.all(ids.slice(0, POOL).map((id) => debit(sql, id, 1)));

    let done = 0;
    const latencies = [];
    const deadline = performance.now() + DURATION_MS;
    const started = performance.now();
    await Promise.all(
      ids.map(async (id) => {
        while (performance.now() < deadline) {
          const t = performance.now();
          await debit(sql, id, 3);
          latencies.push(performance.now() - t);
          done += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const perSecond = done / seconds;

    const mismatches = await sql`
      select u.id from users u
      left join (select user_id, sum(amount) as total from ledger_entries group by user_id) l on l.user_id = u.id
      where u.num_tokens <> coalesce(l.total, 0) or u.num_tokens < 0`;
    if (mismatches.length > 0) throw new Error(`ledger invariant broken for ${mismatches.length} users`);
    latencies.sort((a, b) => a - b);
    const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    log(`${done} debits in ${seconds.toFixed(1)} s by ${USERS} users over ${POOL} connections; invariant holds`);
    return [
      { label: 'ledger debits per second', value: perSecond, unit: 'debits/s', target: { min: 1000 } },
      { label: 'debit latency p50', value: p(0.5), unit: 'ms' },
      { label: 'debit latency p99', value: p(0.99), unit: 'ms' },
    ];
  } finally {
    await sql.end();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}
