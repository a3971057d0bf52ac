import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import * as repo from './accounts.repository.js';

/**
 * Log-out and password reset racing a refresh of the same session (on PostgreSQL a revoke
 * could miss the successor the refresh was inserting). However the two interleave, the
 * session must be over afterwards: no live token in the family, the new access token refused.
 */
let t: TestApp;
let userId: string;
beforeAll(async () => {
  t = await createTestApp();
  const email = `race_${Date.now()}@example.test`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { username: 'race', email, password: 'correct horse battery', age_confirmed: true },
  });
  expect(res.statusCode).toBe(201);
  userId = res.json().id as string;
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A fresh session of the user, straight in the table (log-in is rate limited). */
async function session(): Promise<{ familyId: string; refresh: string }> {
  const familyId = randomUUID();
  const refresh = `rt.${randomBytes(9).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
  await repo.insertRefreshToken(t.database.db, {
    userId,
    familyId,
    tokenHash: sha256(refresh),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { familyId, refresh };
}

const liveTokens = async (where: ReturnType<typeof eq>) =>
  (
    await t.database.db
      .select()
      .from(refreshTokens)
      .where(and(where, isNull(refreshTokens.revokedAt)))
  ).length;

const ROUNDS = 40;

describe('revoking while a refresh rotates', () => {
  it('log-out during a refresh leaves no live token and refuses the new access token', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { familyId, refresh } = await session();
      const [rotated] = await Promise.all([
        t.app.accounts.refresh(refresh).catch(() => null),
        t.app.accounts.revoke(refresh, null),
      ]);
      expect(await liveTokens(eq(refreshTokens.familyId, familyId))).toBe(0);
      if (rotated) {
        const res = await t.app.inject({ url: '/api/profile', headers: { authorization: `Bearer ${rotated.access}` } });
        expect(res.statusCode).toBe(401);
      }
    }
  });

  it('revoking every token of the user (password reset, ban) during refreshes leaves none live', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const sessions = await Promise.all([session(), session(), session()]);
      await Promise.all([
        ...sessions.map((s) => t.app.accounts.refresh(s.refresh).catch(() => null)),
        repo.revokeAllRefreshTokens(t.database.db, userId),
      ]);
      expect(await liveTokens(eq(refreshTokens.userId, userId))).toBe(0);
    }
  });
});
