// The suites' scratch databases on a PostgreSQL server, and the rows and tokens of their users.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { SignJWT } from 'jose';

/** The PostgreSQL server the suites create their databases on (BENCH_DATABASE_URL). */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** `url` pointing at database `db` instead. */
export function withDatabase(url, db) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * Runs `fn(url, name)` on a new database `<prefix>_<random>` of the server at `adminUrl`, dropped
 * afterwards (even while connections to it remain), so that a run never touches another's data.
 * Resolves with what `fn` resolves with, or with `null` (and a log line) when nothing answers.
 */
export async function withScratchDatabase(prefix, log, fn, adminUrl = ADMIN_URL) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  try {
    await admin`select 1`;
  } catch (error) {
    await admin.end().catch(() => {});
    log(`PostgreSQL not reachable at ${adminUrl} (${error.message}): skipped; set BENCH_DATABASE_URL`);
    return null;
  }
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin.unsafe(`create database ${name}`);
  try {
    return await fn(withDatabase(adminUrl, name), name);
  } finally {
    // BENCH_KEEP_DATABASE=1 keeps it for a look afterwards (EXPLAIN on the suite's data).
    if (process.env.BENCH_KEEP_DATABASE === '1') log(`database ${name} kept (BENCH_KEEP_DATABASE)`);
    else await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end().catch(() => {});
  }
}

/**
 * Inserts user number `i` with `balance` desires, as the ledger has them (a starting entry and
 * the balance in one transaction: every balance equals the sum of its entries); answers its id.
 */
export async function insertFundedUser(sql, i, balance) {
  const [row] = await sql`
    insert into users (username, email, password_hash, name)
    values (${`bench${i}`}, ${`bench${i}@example.test`}, '!', ${`Bench ${i}`}) returning id`;
  await sql.begin(async (tx) => {
    await tx`insert into ledger_entries (user_id, amount, reason, idempotency_key)
             values (${row.id}, ${balance}, 'adjustment', ${`bench-start:${row.id}`})`;
    await tx`update users set num_tokens = num_tokens + ${balance} where id = ${row.id}`;
  });
  return row.id;
}

/**
 * Opens a session for a user as a log-in does (a refresh-token family, alive for a day) and
 * answers its id, which the user's access tokens must carry. `query(text, params)` runs one
 * statement (PGlite or postgres.js).
 */
export async function insertSession(query, userId) {
  const sid = randomUUID();
  const refresh = `rt.bench.${randomBytes(24).toString('base64url')}`;
  await query(`insert into refresh_tokens (user_id, family_id, token_hash, expires_at) values ($1, $2, $3, $4)`, [
    userId,
    sid,
    createHash('sha256').update(refresh).digest('hex'),
    new Date(Date.now() + 86_400_000).toISOString(),
  ]);
  return sid;
}

/** An access token as the server issues them, signed with its JWT_SECRET, for session `sid`. */
export function accessToken(secret, userId, { sid, expiresIn = '2h' }) {
  return new SignJWT({ role: 'user', sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer('reverie')
    .setAudience('access')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
}

/** The ledger invariant: the users whose balance differs from the sum of their entries, or is negative. */
export async function ledgerMismatches(sql) {
  return sql`
    select u.id from users u
    left join (select user_id, sum(amount) as total from ledger_entries group by user_id) l on l.user_id = u.id
    where u.num_tokens <> coalesce(l.total, 0) or u.num_tokens < 0`;
}
