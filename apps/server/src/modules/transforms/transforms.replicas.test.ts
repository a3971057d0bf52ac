import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createJobQueue, type JobQueue } from '../../providers/jobs/index.js';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import { balanceOf, grantDesires } from '../../../test/billing-helpers.js';
import { createUser } from '../../../test/factories.js';
import { makeTestPhoto } from '../../../test/fixtures/transform-photo.js';
import { createTestApp, createTestDatabase, openReplicaDatabase, testConfig } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';

const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-transform-replicas-'));
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));

/** A job queue that adds jobs but runs none (the replica that took the request has no worker). */
function sendOnly(queue: JobQueue): JobQueue {
  return new Proxy(queue, {
    get(target, property) {
      if (property === 'work') return () => undefined;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('a transform across replicas (run with TEST_DB=postgres for two connection pools)', () => {
  it('is paid on one replica and made by the worker of another', async () => {
    const database = await createTestDatabase();
    const schema = 'pgboss_transforms';
    const config = testConfig();
    const front = await createTestApp({
      database,
      storage: new LocalMediaStorage(mediaDir),
      jobs: sendOnly(
        createJobQueue(database, {
          schema,
          poolSize: 2,
          pollingIntervalSeconds: 0.5,
          maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_S,
        }),
      ),
    });
    const worker = await createTestApp({
      database: await openReplicaDatabase(database),
      storage: new LocalMediaStorage(mediaDir),
      jobsSchema: schema,
    });

    const owner = await createUser(front.app, database.db);
    await grantDesires(database.db, owner.user.id, 5);
    const form = multipartBody({ style: 'comic' }, [
      { field: 'image', filename: 'me.png', contentType: 'image/png', data: await makeTestPhoto(200, 240, 'png') },
    ]);
    const uploaded = await front.app.inject({
      method: 'POST',
      url: '/api/image_transform',
      headers: { ...owner.auth, ...form.headers },
      payload: form.payload,
    });
    const { id } = uploaded.json<{ id: string }>();
    await front.app.inject({
      method: 'POST',
      url: '/api/image_transform/verify',
      headers: owner.auth,
      payload: { id, rights_confirmed: true },
    });
    const paid = await front.app.inject({
      method: 'POST',
      url: '/api/image_transform/payment',
      headers: owner.auth,
      payload: { id },
    });
    expect(paid.json()).toMatchObject({ state: 'processing', num_tokens: 0 });

    await worker.app.transforms.idle();
    const done = await front.app.inject({ url: `/api/image_transform/${id}/`, headers: owner.auth });
    expect(done.json()).toMatchObject({ state: 'ready', charged: 5 });
    expect((await front.app.inject({ url: done.json().result_url })).statusCode).toBe(200);
    expect(await balanceOf(database.db, owner.user.id)).toBe(0);
  });
});
