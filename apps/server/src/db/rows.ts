import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

/**
 * The repositories' one-row statements on a whole table row: a lookup by a unique key (or
 * the first row in `orderBy` order), an insert (or one unless present) and an update that answer
 * the row as stored; whether a row is there; an update that answers
 * whether it changed any row; and a delete that answers how many rows went.
 */

/**
 * Whether `table` has a row that `where` selects (it reads one at the most); with `join`, the
 * rows of `table` joined to those of `join.table` on `join.on`.
 */
export async function hasRow(
  db: Database,
  table: PgTable,
  where: SQL | undefined,
  join?: { table: PgTable; on: SQL },
): Promise<boolean> {
  const query = db
    .select({ one: sql`1` })
    .from(table)
    .$dynamic();
  const rows = await (join ? query.innerJoin(join.table, join.on) : query).where(condition(where)).limit(1);
  return rows.length > 0;
}

/**
 * The condition of a write or a lookup, never none: drizzle's `and()` answers `undefined` when
 * all of its parts are, which would read, update or delete every row of the table.
 */
function condition(where: SQL | undefined): SQL {
  if (!where) throw new Error('rows.ts: a statement on a table row needs a condition');
  return where;
}

/** The row of `table` that `where` selects, or null; with `orderBy`, the first in that order. */
export async function findRow<T extends PgTable>(
  db: Database,
  table: T,
  where: SQL | undefined,
  orderBy?: SQL | AnyPgColumn,
): Promise<T['$inferSelect'] | null> {
  const query = db
    .select()
    .from(table as PgTable)
    .where(condition(where));
  const [row] = await (orderBy === undefined ? query : query.orderBy(orderBy)).limit(1);
  return (row as T['$inferSelect'] | undefined) ?? null;
}

/** Inserts one row and answers it as stored (defaults filled in). */
export async function insertRow<T extends PgTable>(
  db: Database,
  table: T,
  values: T['$inferInsert'],
): Promise<T['$inferSelect']> {
  const [row] = await db
    .insert(table)
    .values(values as never)
    .returning();
  return row as T['$inferSelect'];
}

/** Inserts one row unless it conflicts with one already there (any unique index): the row, else null. */
export async function insertIfAbsent<T extends PgTable>(
  db: Database,
  table: T,
  values: T['$inferInsert'],
): Promise<T['$inferSelect'] | null> {
  const rows = (await db
    .insert(table)
    .values(values as never)
    .onConflictDoNothing()
    .returning()) as T['$inferSelect'][];
  return rows[0] ?? null;
}

/** Updates the row `where` selects with `values` and answers it as stored; undefined when none matched. */
export async function updateRow<T extends PgTable>(
  db: Database,
  table: T,
  where: SQL | undefined,
  values: Partial<T['$inferInsert']>,
): Promise<T['$inferSelect'] | undefined> {
  const rows = (await db
    .update(table as PgTable)
    .set(values as never)
    .where(condition(where))
    .returning()) as T['$inferSelect'][];
  return rows[0];
}

/** Updates the rows `where` selects with `values` (SQL expressions allowed); answers whether there were any. */
export async function updateAny<T extends PgTable>(
  db: Database,
  table: T,
  where: SQL | undefined,
  values: PgUpdateSetSource<T>,
): Promise<boolean> {
  const rows = await db
    .update(table as PgTable)
    .set(values as never)
    .where(condition(where))
    .returning({ updated: sql`1` });
  return rows.length > 0;
}

/** Deletes the rows `where` selects; answers how many there were. */
export async function deleteRows(db: Database, table: PgTable, where: SQL | undefined): Promise<number> {
  const rows = await db
    .delete(table)
    .where(condition(where))
    .returning({ deleted: sql`1` });
  return rows.length;
}
