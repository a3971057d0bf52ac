import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';

export interface AuthorRow {
  id: string;
  name: string;
  email: string;
  locale: string;
}

/** The authors of characters the console shows (name, e-mail, language), by id. */
export async function findAuthors(db: Database, ids: (string | null)[]): Promise<Map<string, AuthorRow>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (!wanted.length) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, locale: users.locale })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}
