import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATABASE_FREE_TESTS } from './database-free.js';
import { createTestDatabase } from './helpers.js';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What opens a database in a test file: test/helpers.ts's apps and databases, the client, a driver. */
const OPENS_A_DATABASE =
  /\b(createTestApp|createTestDatabase|openReplicaDatabase|openDatabase|inject\('testDb'\))|from '(postgres|@electric-sql\/pglite)'/;

describe('the test files the PostgreSQL pass leaves out (test/database-free.ts)', () => {
  it.each(DATABASE_FREE_TESTS)('%s exists and opens no database', (file) => {
    const source = fs.readFileSync(path.join(serverRoot, file), 'utf8');
    if (file === 'test/database-free.test.ts') return;
    expect(source).not.toMatch(OPENS_A_DATABASE);
  });

  it('a listed file that creates a database fails, naming the list (this file is listed)', async () => {
    await expect(createTestDatabase()).rejects.toThrow(/listed in test\/database-free\.ts/);
  });
});
