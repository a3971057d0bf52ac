import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { createTestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';

const event = (overrides: Record<string, unknown> = {}) => ({
  name: 'page_changed',
  props: { from: '/', to: '/blog' },
  ts: '2026-11-22T08:00:00.000Z',
  device_id: 'device-12345678',
  ...overrides,
});

describe('POST /api/analytics/events', async () => {
  const { app, database } = await createTestApp();
  const count = async (name: string) =>
    Number(
      rowsOf<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from analytics_events where name = ${name}`),
      )[0]?.n,
    );

  it('stores a batch and answers 202', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      payload: { events: [event(), event({ name: 'locale_select', props: { lang: 'de' } })] },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 2 });
    expect(await count('locale_select')).toBe(1);
  });

  it('refuses more than 50 events, bad names and over-long strings with field errors', async () => {
    const tooMany = await app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      payload: { events: Array.from({ length: 51 }, () => event()) },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().code).toBe('validation_error');

    const bad = await app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      payload: { events: [event({ name: 'Bad Name', props: { long: 'x'.repeat(256) } })] },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['events.0.name', 'events.0.props.long']));
  });

  it('refuses an empty body and malformed JSON without a 500', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/analytics/events', payload: {} })).statusCode).toBe(400);
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      headers: { 'content-type': 'application/json' },
      payload: '{"events": [',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'bad_request' });
  });

  it('records the authenticated user, never the one the client claims', async () => {
    const { user, auth } = await createUser(app, database.db);
    await app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      headers: auth,
      payload: { events: [event({ name: 'who_am_i', user_id: 'someone-else' })] },
    });
    await app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      payload: { events: [event({ name: 'who_am_i', user_id: user.id })] },
    });
    const rows = rowsOf<{ user_id: string | null }>(
      await database.db.execute(sql`select user_id from analytics_events where name = 'who_am_i' order by id`),
    );
    expect(rows.map((r) => r.user_id)).toEqual([user.id, null]);
  });

  it('records subscribe clicks', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/events/click_subscribe/create/',
      payload: { from: 'get-premium' },
    });
    expect(res.statusCode).toBe(201);
    expect(await count('click_subscribe')).toBe(1);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/events/click_subscribe/create',
      payload: { from: '<script>' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('rate limits a flood from one address with 429 and Retry-After', async () => {
    let last;
    for (let i = 0; i < 125; i += 1) {
      last = await app.inject({
        method: 'POST',
        url: '/api/analytics/events',
        remoteAddress: '203.0.113.9',
        payload: { events: [event()] },
      });
      if (last.statusCode === 429) break;
    }
    expect(last!.statusCode).toBe(429);
    expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    expect(last!.json().code).toBe('rate_limited');
  });
});
