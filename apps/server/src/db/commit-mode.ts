import { sql, type SQL } from 'drizzle-orm';

/**
 * How one statement commits (docs/operations.md, "Durability of chat writes"). A statement
 * that starts with `with ${commitMode(relaxed)}, …` and lists `commit_mode` in its FROM
 * commits — when `relaxed` — without waiting for its WAL to reach the disk: PostgreSQL's
 * `synchronous_commit = off` for that statement's own transaction only (`set_config(…, true)`,
 * nothing carries over to the connection's next statement). The write is visible to every
 * other connection at once, exactly as with a durable commit; only a crash of the database
 * server itself (not of a replica) may lose the last few hundred milliseconds of such writes.
 * On this machine a durable commit waits 2–4 ms for `fdatasync`, a relaxed one ≈ 0.1 ms.
 *
 * Used only where that trade is right: a chat's new messages, the replies' saves and the
 * limits' counters. Money, accounts and everything else commit durably; a durable commit
 * flushes every relaxed one written before it.
 *
 * When not relaxed the statement keeps the server's own setting.
 */
export function commitMode(relaxed: boolean): SQL {
  return sql`commit_mode as (
    select set_config('synchronous_commit',
      case when ${relaxed}::boolean then 'off' else current_setting('synchronous_commit') end, true) as mode)`;
}
