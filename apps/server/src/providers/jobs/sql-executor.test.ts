import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.js';
import { pgliteExecutor, postgresExecutor } from './sql-executor.js';

describe('the job queue’s SQL executor', () => {
  it('leaves no aborted transaction behind when a multi-statement text fails half-way', async () => {
    const database = await createTestDatabase();
    const executor =
      database.raw.kind === 'postgres'
        ? postgresExecutor(database.raw.url, 1, () => undefined)
        : pgliteExecutor(database.raw.client);
    try {
      await expect(executor.executeSql('begin; select 1/0; commit;')).rejects.toThrow();
      expect((await executor.executeSql('select 1 as one', [])).rows).toEqual([{ one: 1 }]);
      // The app's own connection too.
      expect(await database.ping()).toBe(true);
    } finally {
      await executor.close();
    }
  });
});
