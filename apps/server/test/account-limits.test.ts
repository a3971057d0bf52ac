import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './factories.js';
import { createTestApp, type TestApp } from './helpers.js';
import { multipartBody } from './multipart.js';

/**
 * Issue 27 item 4: limits per account (or per guest id), not only per address — each counted
 * for the cluster (providers/limits), answered 429 `rate_limited` with Retry-After.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      SUPPORT_REPORTS_PER_HOUR: '3',
      CHARACTER_SUBMISSIONS_PER_DAY: '2',
      CHARACTER_PHOTOS_PER_HOUR: '2',
      ANALYTICS_EVENTS_PER_MINUTE: '120',
      ACTIVATION_CHECKS_PER_HOUR: '4',
    },
  });
});

/** Every request from another address, as a client hopping addresses would. */
let address = 0;
const nextAddress = () => `10.27.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

const expectLimited = (response: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }) => {
  expect(response.statusCode).toBe(429);
  expect((response.json() as { code: string }).code).toBe('rate_limited');
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
};

describe('limits per account', () => {
  it('support reports: one account over many addresses', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/support',
        headers: auth,
        remoteAddress: nextAddress(),
        payload: { subject: 'Help', text: 'Something is wrong.' },
      });
    for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(201);
    expectLimited(await send());
    // Another account is not held back.
    const other = await createUser(t.app, t.database.db);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      headers: other.auth,
      payload: { subject: 'Help', text: 'Me too.' },
    });
    expect(response.statusCode).toBe(201);
  });

  it("support reports: a guest's e-mail over many addresses", async () => {
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/support',
        remoteAddress: nextAddress(),
        payload: { email: 'guest@example.test', text: 'Hello?' },
      });
    for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(201);
    expectLimited(await send());
  });

  it('public character submissions: the review queue is not filled by one account', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const create = (visibility: 'public' | 'private', name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/bot/create',
        headers: auth,
        remoteAddress: nextAddress(),
        payload: { name, age: 30, description: 'A sailor who tells stories.', visibility },
      });
    expect((await create('public', 'First')).statusCode).toBe(201);
    expect((await create('public', 'Second')).statusCode).toBe(201);
    expectLimited(await create('public', 'Third'));
    // Private characters are not submissions; making one public is.
    const mine = await create('private', 'Kept Private');
    expect(mine.statusCode).toBe(201);
    const slug = (mine.json() as { slug: string }).slug;
    expectLimited(
      await t.app.inject({
        method: 'PATCH',
        url: `/api/bot/${slug}`,
        headers: auth,
        payload: { visibility: 'public' },
      }),
    );
  });

  it('character photos: uploads per user and hour', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
    const upload = () => {
      const form = multipartBody({ name: 'Painted', age: '30', description: 'A painter.', visibility: 'private' }, [
        { field: 'photo', filename: 'p.png', contentType: 'image/png', data: photo },
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/bot/create',
        headers: { ...auth, ...form.headers },
        payload: form.payload,
        remoteAddress: nextAddress(),
      });
    };
    expect((await upload()).statusCode).toBe(201);
    expect((await upload()).statusCode).toBe(201);
    expectLimited(await upload());
  });

  it('analytics: rows per minute per guest device, and per address whatever the device ids', async () => {
    const batch = (device: (i: number) => string, count = 50) => ({
      events: Array.from({ length: count }, (_, i) => ({
        name: 'page_view',
        ts: new Date().toISOString(),
        device_id: device(i),
      })),
    });
    const send = (payload: ReturnType<typeof batch>, remoteAddress = nextAddress()) =>
      t.app.inject({ method: 'POST', url: '/api/analytics/events', payload, remoteAddress });
    // 120 rows a minute for one device, whatever the address: 50 + 50 pass, the third batch not.
    expect((await send(batch(() => 'device-one-1234'))).statusCode).toBe(202);
    expect((await send(batch(() => 'device-one-1234'))).statusCode).toBe(202);
    expectLimited(await send(batch(() => 'device-one-1234')));
    // A new device id per event from one address: the address's 480 rows a minute hold.
    let accepted = 0;
    let limited: Awaited<ReturnType<typeof send>> | null = null;
    for (let round = 0; round < 12 && !limited; round++) {
      const response = await send(
        batch((i) => `device-${round}-${i}-rotating`),
        '10.99.0.1',
      );
      if (response.statusCode === 202) accepted += 50;
      else limited = response;
    }
    expect(accepted).toBe(450);
    expectLimited(limited!);
    // Batches stay capped at 50 events.
    expect((await send(batch(() => 'device-big-12345', 51))).statusCode).toBe(400);
  });

  it('activation-code checks: per account over many addresses', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const check = () =>
      t.app.inject({ url: '/api/activate/not-a-real-code', headers: auth, remoteAddress: nextAddress() });
    for (let i = 0; i < 4; i++) expect((await check()).statusCode).toBe(400);
    expectLimited(await check());
  });
});
