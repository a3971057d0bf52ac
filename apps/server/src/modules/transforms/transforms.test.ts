import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.js';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES, TRANSFORM_COST } from '@reverie/shared';
import { imageTransforms, ledgerEntries } from '../../db/schema.js';
import type { ImageModeration } from '../../providers/image-moderation/index.js';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import { balanceOf, expectLedgerMatchesBalances, grantDesires } from '../../../test/billing-helpers.js';
import { createPremium, createUser, deleteAccount } from '../../../test/factories.js';
import { makeTestPhoto } from '../../../test/fixtures/transform-photo.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';
import type { TransformProvider } from './transform-provider.js';
import { LocalTransformProvider } from './transform-provider.js';
import { TRANSFORM_SWEEP_QUEUE } from './transforms.service.js';

const dirs: string[] = [];
const tempStorage = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-transforms-'));
  dirs.push(dir);
  return new LocalMediaStorage(dir);
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

let photo: Buffer;
let t: TestApp;
let storage: LocalMediaStorage;

beforeAll(async () => {
  photo = await makeTestPhoto(320, 400);
  storage = tempStorage();
  t = await createTestApp({ storage, env: { TRANSFORM_RETRY_DELAY_S: '0' } });
});
afterEach(async () => expectLedgerMatchesBalances(t.database.db));

type Auth = { authorization: string };

async function upload(
  app: TestApp,
  auth: Auth,
  file: { data: Buffer; contentType?: string } = { data: photo },
  style = 'anime',
) {
  const form = multipartBody({ style }, [
    { field: 'image', filename: 'me.jpg', contentType: file.contentType ?? 'image/jpeg', data: file.data },
  ]);
  return app.app.inject({
    method: 'POST',
    url: '/api/image_transform',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
}

const verify = (app: TestApp, auth: Auth, id: string, rights: unknown = true) =>
  app.app.inject({
    method: 'POST',
    url: '/api/image_transform/verify',
    headers: auth,
    payload: { id, rights_confirmed: rights },
  });
const pay = (app: TestApp, auth: Auth, id: string) =>
  app.app.inject({ method: 'POST', url: '/api/image_transform/payment', headers: auth, payload: { id } });
const get = (app: TestApp, auth: Auth, id: string) =>
  app.app.inject({ url: `/api/image_transform/${id}/`, headers: auth });

/** A user with `desires`, and a transform of theirs uploaded and verified. */
async function verifiedTransform(app: TestApp, desires = 10, style = 'anime') {
  const owner = await createUser(app.app, app.database.db);
  if (desires > 0) await grantDesires(app.database.db, owner.user.id, desires);
  const uploaded = await upload(app, owner.auth, { data: photo }, style);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const { id } = uploaded.json<{ id: string }>();
  expect((await verify(app, owner.auth, id)).json()).toEqual({ id, state: 'verified' });
  return { owner, id };
}

describe('upload', () => {
  it('answers 201 uploaded and keeps the photo privately under transforms/<user>/', async () => {
    const owner = await createUser(t.app, t.database.db);
    const res = await upload(t, owner.auth);
    expect(res.statusCode).toBe(201);
    const { id, state } = res.json();
    expect(state).toBe('uploaded');
    const [row] = await t.database.db.select().from(imageTransforms).where(eq(imageTransforms.id, id));
    expect(row!.originalKey.startsWith(`transforms/${owner.user.id}/`)).toBe(true);
    // The stored copy is re-encoded (metadata stripped): WebP.
    expect((await sharp((await storage.get(row!.originalKey))!.data).metadata()).format).toBe('webp');
    // Not served without a signature, not even to its owner.
    expect((await t.app.inject({ url: `/api/media/${row!.originalKey}`, headers: owner.auth })).statusCode).toBe(404);
  });

  it('refuses a file that is no picture by its content (415), whatever its Content-Type says', async () => {
    const owner = await createUser(t.app, t.database.db);
    const res = await upload(t, owner.auth, {
      data: Buffer.from('%PDF-1.4 not a picture at all'),
      contentType: 'image/png',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('refuses more than 5 MB (413) and an unknown style (400)', async () => {
    const owner = await createUser(t.app, t.database.db);
    const big = await upload(t, owner.auth, { data: Buffer.alloc(IMAGE_MAX_BYTES + 10, 1) });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('payload_too_large');
    const style = await upload(t, owner.auth, { data: photo }, 'undress');
    expect(style.statusCode).toBe(400);
  });

  it('needs an account', async () => {
    const res = await upload(t, {} as Auth);
    expect(res.statusCode).toBe(401);
  });
});

describe('verify', () => {
  it('needs the rights attestation', async () => {
    const owner = await createUser(t.app, t.database.db);
    const { id } = (await upload(t, owner.auth)).json();
    expect((await verify(t, owner.auth, id, false)).statusCode).toBe(400);
    expect((await get(t, owner.auth, id)).json().state).toBe('uploaded');
  });

  it('refuses a face judged under 18 with 422 "Inappropriate content" and deletes the photo', async () => {
    // The picture judge's verdict (face-api's age net, nsfwjs and the moderation provider in
    // production; docs/moderation.md) stands in here as a test double: what the route does
    // with "minor" and with "explicit" is under test, the judge itself in image-moderation.test.ts.
    for (const verdict of ['minor', 'explicit'] as const) {
      const judge: ImageModeration = {
        name: 'local',
        judge: async () => ({
          verdict,
          faces: verdict === 'minor' ? [{ box: [0, 0, 10, 10], age: 9, score: 0.9 }] : [],
          nudity: { drawing: 0, hentai: 0, neutral: 0, porn: verdict === 'explicit' ? 0.99 : 0, sexy: 0 },
          judge: 'local',
          ms: 1,
        }),
        warm: async () => undefined,
        close: async () => undefined,
      } as unknown as ImageModeration;
      const refusing = await createTestApp({ storage: tempStorage(), imageModeration: judge });
      const owner = await createUser(refusing.app, refusing.database.db);
      const { id } = (await upload(refusing, owner.auth)).json();
      const res = await verify(refusing, owner.auth, id);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'inappropriate_content', detail: 'Inappropriate content' });
      expect((await get(refusing, owner.auth, id)).statusCode).toBe(404);
      expect(await refusing.database.db.select().from(imageTransforms).where(eq(imageTransforms.id, id))).toEqual([]);
    }
  });
});

describe('payment and the job', () => {
  it('charges 5 desires once, makes the result and shows it beside the original', async () => {
    const { owner, id } = await verifiedTransform(t, 12, 'pencil');
    const paid = await pay(t, owner.auth, id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toEqual({ id, state: 'processing', num_tokens: 12 - TRANSFORM_COST });
    // Asked again (a double tap, a retry): no second charge.
    expect((await pay(t, owner.auth, id)).json().num_tokens).toBe(12 - TRANSFORM_COST);
    await t.app.transforms.idle();
    const done = (await get(t, owner.auth, id)).json();
    expect(done).toMatchObject({ id, state: 'ready', style: 'pencil', charged: TRANSFORM_COST, error: null });
    expect((await pay(t, owner.auth, id)).json()).toMatchObject({ state: 'ready', num_tokens: 12 - TRANSFORM_COST });
    expect(await balanceOf(t.database.db, owner.user.id)).toBe(12 - TRANSFORM_COST);
    const debits = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, owner.user.id), eq(ledgerEntries.reason, 'spend')));
    expect(debits.map((d) => d.amount)).toEqual([-TRANSFORM_COST]);

    const result = await t.app.inject({ url: done.result_url });
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toContain('image/webp');
    const meta = await sharp(result.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 400]);
    expect((await t.app.inject({ url: done.original_url })).statusCode).toBe(200);
    // The gallery: newest first.
    const gallery = (await t.app.inject({ url: '/api/image_transform', headers: owner.auth })).json();
    expect(gallery.results.map((r: { id: string }) => r.id)).toEqual([id]);
  });

  it('answers 402 insufficient_desires below 5 and charges nothing; paying works once there are enough', async () => {
    const { owner, id } = await verifiedTransform(t, 4);
    const res = await pay(t, owner.auth, id);
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('insufficient_desires');
    expect((await get(t, owner.auth, id)).json().state).toBe('verified');
    expect(await balanceOf(t.database.db, owner.user.id)).toBe(4);
    await grantDesires(t.database.db, owner.user.id, 1);
    expect((await pay(t, owner.auth, id)).json()).toMatchObject({ state: 'processing', num_tokens: 0 });
    await t.app.transforms.idle();
  });

  it('debits and records the charge in one transaction: a charge that cannot be recorded takes nothing', async () => {
    const { owner, id } = await verifiedTransform(t, 10);
    const db = t.database.db;
    // The `charged` update fails (as a lost connection would, between the two statements).
    await db.execute(sql`create function refuse_charged() returns trigger language plpgsql as $$
      begin raise exception 'charged refused'; end $$`);
    await db.execute(sql`create trigger refuse_charged before update of charged on image_transforms
      for each row when (new.charged <> old.charged) execute function refuse_charged()`);
    try {
      const res = await pay(t, owner.auth, id);
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await db.execute(sql`drop trigger refuse_charged on image_transforms`);
      await db.execute(sql`drop function refuse_charged()`);
    }
    // Nothing was taken, and the transform can be paid again.
    expect(await balanceOf(db, owner.user.id)).toBe(10);
    expect((await get(t, owner.auth, id)).json()).toMatchObject({ state: 'verified', charged: 0 });
    expect((await pay(t, owner.auth, id)).json()).toMatchObject({ state: 'processing', num_tokens: 5 });
    await t.app.transforms.idle();
  });

  it('sweeps abandoned uploads (never judged, or never paid) and their files; a recent one stays', async () => {
    const owner = await createUser(t.app, t.database.db);
    const db = t.database.db;
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const uploaded = await upload(t, owner.auth);
      ids.push(uploaded.json<{ id: string }>().id);
    }
    const [stale, fresh] = ids as [string, string];
    // Each upload replaces the user's unpaid ones: put the first back as an old, unjudged row.
    const [freshRow] = await db.select().from(imageTransforms).where(eq(imageTransforms.id, fresh));
    const staleKey = freshRow!.originalKey.replace(fresh, stale);
    await storage.put(staleKey, photo);
    await db.insert(imageTransforms).values({
      id: stale,
      userId: owner.user.id,
      style: 'anime',
      originalKey: staleKey,
      updatedAt: new Date(Date.now() - 2 * 3600_000),
    });
    // The periodic job's run, as the queue starts it.
    expect(await t.app.transforms.sweepAbandoned()).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(imageTransforms).where(eq(imageTransforms.id, stale))).toEqual([]);
    expect(await storage.exists(staleKey)).toBe(false);
    expect(await db.select().from(imageTransforms).where(eq(imageTransforms.id, fresh))).toHaveLength(1);
    expect(await storage.exists(freshRow!.originalKey)).toBe(true);
    // The sweep is queued for the next period, once for the cluster.
    const [queued] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pgboss.job where name = ${TRANSFORM_SWEEP_QUEUE} and state = 'created'`,
      ),
    );
    expect(queued!.n).toBe(1);
  });

  it('is free for premium', async () => {
    const { owner, id } = await verifiedTransform(t, 3);
    await createPremium(t.database.db, owner.user.id);
    const before = await balanceOf(t.database.db, owner.user.id);
    const res = await pay(t, owner.auth, id);
    expect(res.json()).toEqual({ id, state: 'processing', num_tokens: before });
    await t.app.transforms.idle();
    expect((await get(t, owner.auth, id)).json()).toMatchObject({ state: 'ready', charged: 0 });
    expect(await balanceOf(t.database.db, owner.user.id)).toBe(before);
  });

  it('needs verification first (409)', async () => {
    const owner = await createUser(t.app, t.database.db);
    await grantDesires(t.database.db, owner.user.id, 10);
    const { id } = (await upload(t, owner.auth)).json();
    const res = await pay(t, owner.auth, id);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('transform_not_verified');
    expect(await balanceOf(t.database.db, owner.user.id)).toBe(10);
  });
});

describe('a transform whose job was lost', () => {
  it('is queued again when polled long after its payment', async () => {
    const { owner, id } = await verifiedTransform(t, 5);
    // As if the process had stopped between the payment and the queue: processing, no job.
    await t.database.db
      .update(imageTransforms)
      .set({ state: 'processing', charged: 0, updatedAt: new Date(Date.now() - 24 * 3600_000) })
      .where(eq(imageTransforms.id, id));
    expect((await get(t, owner.auth, id)).json().state).toBe('processing');
    await t.app.transforms.idle();
    expect((await get(t, owner.auth, id)).json().state).toBe('ready');
  });
});

describe('a failed transform', () => {
  it('is refunded once it fails for good; one running transform per user (409)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    const failing: TransformProvider = {
      name: 'local',
      transform: async () => {
        attempts += 1;
        await gate;
        throw new Error('the engine broke');
      },
    };
    const broken = await createTestApp({
      storage: tempStorage(),
      transformProvider: failing,
      env: { TRANSFORM_RETRIES: '1', TRANSFORM_RETRY_DELAY_S: '0' },
    });
    const { owner, id } = await verifiedTransform(broken, 10);
    expect((await pay(broken, owner.auth, id)).json()).toMatchObject({ state: 'processing', num_tokens: 5 });

    // A second transform while the first runs: refused, nothing charged.
    const second = (await upload(broken, owner.auth)).json();
    await verify(broken, owner.auth, second.id);
    const refused = await pay(broken, owner.auth, second.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('transform_in_progress');
    expect(await balanceOf(broken.database.db, owner.user.id)).toBe(5);
    // Nor can the running one be deleted.
    expect(
      (await broken.app.inject({ method: 'DELETE', url: `/api/image_transform/${id}/`, headers: owner.auth }))
        .statusCode,
    ).toBe(409);

    release();
    await broken.app.transforms.idle();
    expect(attempts).toBe(2);
    expect((await get(broken, owner.auth, id)).json()).toMatchObject({
      state: 'failed',
      result_url: null,
      charged: 0,
      error: 'transform_failed',
    });
    expect(await balanceOf(broken.database.db, owner.user.id)).toBe(10);
    const refunds = await broken.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.idempotencyKey, `transform-refund:${id}`));
    expect(refunds.map((r) => r.amount)).toEqual([TRANSFORM_COST]);
    // Paying a failed transform again does not charge.
    expect((await pay(broken, owner.auth, id)).json()).toMatchObject({ state: 'failed', num_tokens: 10 });
    await expectLedgerMatchesBalances(broken.database.db);
  });
});

describe('a diffusion provider', () => {
  it('judges its output: an explicit result fails the transform and refunds it', async () => {
    // The photo is judged fine; the model's output is judged explicit.
    let judged = 0;
    const judge = {
      name: 'local',
      judge: async () => {
        judged += 1;
        const explicit = judged > 1;
        return {
          verdict: explicit ? 'explicit' : 'ok',
          faces: [],
          nudity: { drawing: 0, hentai: 0, neutral: explicit ? 0 : 1, porn: explicit ? 0.99 : 0, sexy: 0 },
          judge: 'local',
          ms: 1,
        };
      },
      warm: async () => undefined,
      close: async () => undefined,
    } as unknown as ImageModeration;
    const diffusion: TransformProvider = {
      name: 'comfyui',
      transform: async (data) => {
        const { data: out, info } = await sharp(data).webp().toBuffer({ resolveWithObject: true });
        return { data: out, contentType: 'image/webp', width: info.width, height: info.height };
      },
    };
    const app = await createTestApp({
      storage: tempStorage(),
      imageModeration: judge,
      transformProvider: diffusion,
      env: { TRANSFORM_RETRIES: '0', TRANSFORM_RETRY_DELAY_S: '0' },
    });
    const { owner, id } = await verifiedTransform(app, 10);
    expect((await pay(app, owner.auth, id)).json()).toMatchObject({ state: 'processing', num_tokens: 5 });
    await app.app.transforms.idle();
    expect((await get(app, owner.auth, id)).json()).toMatchObject({ state: 'failed', result_url: null });
    expect(await balanceOf(app.database.db, owner.user.id)).toBe(10);
  });
});

describe("another user's transform", () => {
  it('is a 404 for GET, verify, payment and delete', async () => {
    const owner = await createUser(t.app, t.database.db);
    const stranger = await createUser(t.app, t.database.db);
    await grantDesires(t.database.db, stranger.user.id, 10);
    const { id } = (await upload(t, owner.auth)).json();
    expect((await get(t, stranger.auth, id)).statusCode).toBe(404);
    expect((await verify(t, stranger.auth, id)).statusCode).toBe(404);
    expect((await pay(t, stranger.auth, id)).statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/image_transform/${id}/`, headers: stranger.auth });
    expect(del.statusCode).toBe(404);
    expect((await get(t, owner.auth, id)).json().state).toBe('uploaded');
    expect(await balanceOf(t.database.db, stranger.user.id)).toBe(10);
    expect((await get(t, owner.auth, 'not-a-uuid')).statusCode).toBe(404);
  });
});

describe('delete', () => {
  it('removes the row, the original and the result', async () => {
    const { owner, id } = await verifiedTransform(t, 5, 'vintage');
    await pay(t, owner.auth, id);
    await t.app.transforms.idle();
    const [row] = await t.database.db.select().from(imageTransforms).where(eq(imageTransforms.id, id));
    expect(row!.resultKey).toBeTruthy();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/image_transform/${id}/`, headers: owner.auth });
    expect(res.statusCode).toBe(204);
    expect((await get(t, owner.auth, id)).statusCode).toBe(404);
    expect(await storage.exists(row!.originalKey)).toBe(false);
    expect(await storage.exists(row!.resultKey!)).toBe(false);
  });

  it('"delete all data" removes every transform and its files', async () => {
    const { owner, id } = await verifiedTransform(t, 5);
    await pay(t, owner.auth, id);
    await t.app.transforms.idle();
    const [row] = await t.database.db.select().from(imageTransforms).where(eq(imageTransforms.id, id));
    expect((await deleteAccount(t.app, t.database.db, owner.user.id, owner.auth)).statusCode).toBe(204);
    expect(await t.database.db.select().from(imageTransforms).where(eq(imageTransforms.userId, owner.user.id))).toEqual(
      [],
    );
    expect(await storage.exists(row!.originalKey)).toBe(false);
    expect(await storage.exists(row!.resultKey!)).toBe(false);
  });
});

describe('previews', () => {
  it('answers every style on a small copy', async () => {
    const owner = await createUser(t.app, t.database.db);
    const form = multipartBody({}, [{ field: 'image', filename: 'me.jpg', contentType: 'image/jpeg', data: photo }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/image_transform/preview',
      headers: { ...owner.auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { previews } = res.json<{ previews: { style: string; data_url: string }[] }>();
    expect(previews.map((p) => p.style)).toEqual([
      'anime',
      'comic',
      'watercolour',
      'pencil',
      'oil',
      'pop_art',
      'cyberpunk',
      'vintage',
    ]);
    const first = Buffer.from(previews[0]!.data_url.split(',')[1]!, 'base64');
    const meta = await sharp(first).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(192);
  });
});

describe('rate limit', () => {
  it('limits uploads per user and hour', async () => {
    const limited = await createTestApp({ storage: tempStorage(), env: { TRANSFORM_UPLOADS_PER_HOUR: '2' } });
    const owner = await createUser(limited.app, limited.database.db);
    expect((await upload(limited, owner.auth)).statusCode).toBe(201);
    expect((await upload(limited, owner.auth)).statusCode).toBe(201);
    const third = await upload(limited, owner.auth);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeTruthy();
    // A new upload replaced the unpaid one before it: one row left.
    const rows = await limited.database.db
      .select()
      .from(imageTransforms)
      .where(eq(imageTransforms.userId, owner.user.id));
    expect(rows).toHaveLength(1);
  });
});

// The local engine is what the app uses by default.
it('uses the local engine unless TRANSFORM_PROVIDER says otherwise', () => {
  expect(new LocalTransformProvider().name).toBe('local');
});
