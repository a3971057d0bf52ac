import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import { createTestApp } from '../../../test/helpers.js';
import { createUser, deleteAccount } from '../../../test/factories.js';

describe('delete all data: files', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-media-'));
  const storage = new LocalMediaStorage(root);
  const t = await createTestApp({ storage });

  it("removes the pictures of the user's characters, and nobody else's", async () => {
    const owner = await createUser(t.app, t.database.db);
    const other = await createUser(t.app, t.database.db);
    const create = (auth: Record<string, string>, name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/bot/create',
        headers: auth,
        payload: {
          name,
          age: 25,
          kind: 'character',
          occupation: ['Painter'],
          personality: ['Calm'],
          description: 'A painter who loves the sea.',
          greeting: 'Hello there!',
          tags: ['anime'],
          visibility: 'private',
        },
      });
    const mine = await create(owner.auth, 'Mine');
    const theirs = await create(other.auth, 'Theirs');
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    const dirOf = (id: string) => path.join(root, 'bots', id);
    expect(fs.existsSync(dirOf(mine.json().id))).toBe(true);

    const res = await deleteAccount(t.app, t.database.db, owner.user.id, owner.auth);
    expect(res.statusCode).toBe(204);
    expect(fs.existsSync(dirOf(mine.json().id))).toBe(false);
    expect(fs.existsSync(dirOf(theirs.json().id))).toBe(true);
  });
});
