import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import * as repo from './accounts.repository.js';
import { OperatorCommands } from './admin-account.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const PASSWORD = 'correct horse battery';
let counter = 0;

async function signedIn() {
  counter += 1;
  const email = `admin_${counter}_${Date.now()}@example.test`;
  await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { username: `admin${counter}`, email, password: PASSWORD, age_confirmed: true },
  });
  const pair = (
    await t.app.inject({ method: 'POST', url: '/api/token', payload: { email, password: PASSWORD } })
  ).json();
  const user = (await repo.findUserByEmail(t.database.db, email))!;
  return { user, email, pair: pair as { access: string; refresh: string } };
}

const profile = (access: string) =>
  t.app.inject({ url: '/api/profile', headers: { authorization: `Bearer ${access}` } });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: token } });

describe('admin:create on an existing account', () => {
  it('a new password revokes the refresh tokens and ends every session at once', async () => {
    const { user, email, pair } = await signedIn();
    expect((await profile(pair.access)).statusCode).toBe(200);
    const result = await new OperatorCommands({ db: t.database.db, sessions: t.app.sessions }).promoteToAdmin(
      user,
      'a brand new password',
    );
    expect(result).toEqual({ passwordChanged: true });
    expect((await profile(pair.access)).statusCode).toBe(401);
    expect((await refresh(pair.refresh)).statusCode).toBe(401);
    const relogin = await t.app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { email, password: 'a brand new password' },
    });
    expect(relogin.statusCode).toBe(200);
    expect((await repo.findUserById(t.database.db, user.id))!.role).toBe('admin');
  });

  it('without a password it only promotes: sessions go on', async () => {
    const { user, pair } = await signedIn();
    expect(await new OperatorCommands({ db: t.database.db, sessions: t.app.sessions }).promoteToAdmin(user)).toEqual({
      passwordChanged: false,
    });
    expect((await profile(pair.access)).statusCode).toBe(200);
    expect((await refresh(pair.refresh)).statusCode).toBe(200);
  });
});
