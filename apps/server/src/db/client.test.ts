import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';

describe('embedded database', () => {
  it('creates its data directory atomically, clearing what an interrupted first start left', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-pglite-'));
    const leftover = path.join(parent, 'pglite.init-99999');
    fs.mkdirSync(leftover);
    fs.writeFileSync(path.join(leftover, 'PG_VERSION'), 'half-written');
    const handle = await openDatabase({ pgliteDir: path.join(parent, 'pglite') });
    try {
      await handle.db.execute(sql`create table t (id int)`);
      expect(await handle.ping()).toBe(true);
      // The directory and, while it is open, its lock (pglite-lock.ts).
      expect(fs.readdirSync(parent).sort()).toEqual(['pglite', 'pglite.lock']);
    } finally {
      await handle.close();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  }, 60_000);
});
