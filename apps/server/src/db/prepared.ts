import type { SQL } from 'drizzle-orm';
import type { Database } from './client.js';

/** What `executePrepared` uses of drizzle's database object (its session and dialect). */
interface DrizzleInternals {
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

/**
 * Runs a statement whose SQL text never changes (its values go in as parameters) as a prepared
 * statement, and answers what `db.execute` would (read it with `rowsOf`).
 *
 * Why: `db.execute` sends an unnamed statement, which postgres.js runs in two round trips
 * (parse and describe first, then bind and execute) and PostgreSQL parses and plans every
 * time. The chat's hot statements (a send's insert, the replies' saves, the limits' counts)
 * ran that way on every message; prepared, each is one round trip and PostgreSQL plans it
 * once per connection. postgres.js keeps one prepared statement per distinct SQL text and
 * connection, so this is only for statements whose text is fixed — never for SQL built with
 * a varying shape. On PGlite (in process) it runs as `db.execute` does.
 *
 * `name` only labels the statement here (postgres.js names prepared statements itself); it
 * must be given, since drizzle prepares only a named query.
 */
export function executePrepared(db: Database, name: string, query: SQL): Promise<unknown> {
  const { session, dialect } = db as unknown as DrizzleInternals;
  return session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute();
}
