import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.js';
import type { Database } from './client.js';
import { deleteRows, findRow, hasRow, insertRow, updateAny, updateRow } from './rows.js';
import { blogPosts } from './schema.js';

let db: Database;
beforeAll(async () => {
  db = (await createTestDatabase()).db;
  for (const id of ['a', 'b'])
    await insertRow(db, blogPosts, { id, title: `Post ${id}`, summary: 's', body: 'b', isPublished: true });
});

describe('db/rows.ts', () => {
  it('reads, updates and deletes the rows a condition selects', async () => {
    expect(await hasRow(db, blogPosts, eq(blogPosts.id, 'a'))).toBe(true);
    expect(await hasRow(db, blogPosts, eq(blogPosts.id, 'zz'))).toBe(false);
    expect(await updateAny(db, blogPosts, eq(blogPosts.id, 'zz'), { title: 'x' })).toBe(false);
    expect(await updateAny(db, blogPosts, eq(blogPosts.id, 'a'), { title: 'Renamed' })).toBe(true);
    expect((await findRow(db, blogPosts, eq(blogPosts.id, 'a')))?.title).toBe('Renamed');
    expect((await findRow(db, blogPosts, eq(blogPosts.id, 'b')))?.title).toBe('Post b');
  });

  it('refuses a statement without a condition (an empty `and()`), which would touch every row', async () => {
    const none = and(undefined, undefined);
    expect(none).toBeUndefined();
    await expect(updateAny(db, blogPosts, none, { title: 'all' })).rejects.toThrow(/needs a condition/);
    await expect(updateRow(db, blogPosts, none, { title: 'all' })).rejects.toThrow(/needs a condition/);
    await expect(deleteRows(db, blogPosts, none)).rejects.toThrow(/needs a condition/);
    await expect(hasRow(db, blogPosts, none)).rejects.toThrow(/needs a condition/);
    await expect(findRow(db, blogPosts, none)).rejects.toThrow(/needs a condition/);
    // Nothing was written.
    expect((await findRow(db, blogPosts, eq(blogPosts.id, 'b')))?.title).toBe('Post b');
    expect(await deleteRows(db, blogPosts, eq(blogPosts.id, 'b'))).toBe(1);
    expect(await hasRow(db, blogPosts, eq(blogPosts.id, 'a'))).toBe(true);
  });
});
