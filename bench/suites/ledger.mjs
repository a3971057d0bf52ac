// Ledger debits per second under 100 concurrent users on PostgreSQL, with the ledger
// invariant (every balance equals the sum of its ledger rows, none below zero) checked at the
// end. Runs on a database it creates (BENCH_DATABASE_URL, default the local server) with the
// app's migrations, and issues exactly the statement of applyLedgerEntry
// (apps/server/src/modules/billing/ledger.repository.ts) for each debit.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { insertFundedUser, ledgerMismatches, withScratchDatabase } from '../support/postgres.mjs';
import { percentile } from '../support/stats.mjs';

export const name = 'ledger';
export const description = 'ledger debits per second, 100 concurrent users, PostgreSQL (invariant checked)';
export const order = 60;

const USERS = 100;
const DURATION_MS = Number(process.env.BENCH_DURATION_S ?? 10) * 1000;
const POOL = Number(process.env.BENCH_LEDGER_POOL ?? 20);
const START_BALANCE = 1_000_000;

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
  const figures = await withScratchDatabase('reverie_bench_ledger', log, (url) => measure(url, repoRoot, log));
  return figures ?? [{ label: 'ledger debits per second', value: 0, unit: 'debits/s', note: 'skipped: no PostgreSQL' }];
}

async function measure(url, repoRoot, log) {
  const sql = postgres(url, { max: POOL, onnotice: () => {} });
  try {
    await migrate(sql, repoRoot);
    const ids = [];
    for (let i = 0; i < USERS; i += 1) ids.push(await insertFundedUser(sql, i, START_BALANCE));
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

    const mismatches = await ledgerMismatches(sql);
    if (mismatches.length > 0) throw new Error(`ledger invariant broken for ${mismatches.length} users`);
    log(`${done} debits in ${seconds.toFixed(1)} s by ${USERS} users over ${POOL} connections; invariant holds`);
    return [
      { label: 'ledger debits per second', value: perSecond, unit: 'debits/s', target: { min: 1000 } },
      { label: 'debit latency p50', value: percentile(latencies, 0.5), unit: 'ms' },
      { label: 'debit latency p99', value: percentile(latencies, 0.99), unit: 'ms' },
    ];
  } finally {
    await sql.end();
  }
}
