import fs from 'node:fs';
import path from 'node:path';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_GRACE_S } from '@reverie/shared';
import {
  analyticsEvents,
  bots,
  emailTokens,
  mailOutbox,
  refreshTokens,
  supportReports,
  users,
} from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';
import { userMediaDir } from './user-data.js';

let t: TestApp;
const PASSWORD = 'correct horse';

beforeAll(async () => {
  t = await createTestApp({
    env: {
      AUTH_RATE_LIMIT_IP_PER_MINUTE: '10000',
      AUTH_RATE_LIMIT_ACCOUNT_PER_MINUTE: '10000',
      DATA_DIR: `/tmp/reverie-accounts-test-${process.pid}`,
    },
  });
});

let counter = 0;
const uniqueEmail = () => `person${Date.now()}_${counter++}@example.test`;

async function register(overrides: Record<string, unknown> = {}) {
  const body = { username: 'Alice', email: uniqueEmail(), password: PASSWORD, age_confirmed: true, ...overrides };
  const res = await t.app.inject({ method: 'POST', url: '/api/register', payload: body });
  return { res, body };
}

async function login(email: string, password = PASSWORD) {
  return t.app.inject({ method: 'POST', url: '/api/token', payload: { email, password } });
}

async function signedUp() {
  const { res, body } = await register();
  expect(res.statusCode).toBe(201);
  const tokens = (await login(body.email)).json() as { access: string; refresh: string };
  return {
    id: res.json().id as string,
    email: body.email,
    ...tokens,
    auth: { authorization: `Bearer ${tokens.access}` },
  };
}

async function mails(to: string) {
  // Password reset mail goes out after the answer.
  await t.app.accounts.idle();
  return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(mailOutbox.id);
}

const linkIn = (text: string, pathPrefix: string) => {
  const match = new RegExp(`https?://[^\\s]+${pathPrefix.replace('?', '\\?')}[^\\s]+`).exec(text);
  return new URL(match![0]);
};

describe('POST /api/register', () => {
  it('creates the account, answers {id, name, email} and mails a verification link', async () => {
    const { res, body } = await register();
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(String), name: 'Alice', email: body.email });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, res.json().id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const sent = await mails(body.email);
    expect(sent.map((m) => m.kind)).toEqual(['verify']);
    expect(sent[0]!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(sent[0]!.headers['List-Unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/api\/email\/unsubscribe\?token=/);
  });

  it.each([
    [
      'missing fields',
      {},
      {
        username: 'Please enter your username',
        email: 'Please enter your email',
        password: 'Please enter your password',
      },
    ],
    [
      'a 101-character username',
      { username: 'a'.repeat(101) },
      { username: 'Username must contain no more than 100 characters' },
    ],
    ['a 5-character password', { password: '12345' }, { password: 'Password must be 6 or more characters' }],
    [
      'a 256-character password',
      { password: 'p'.repeat(256) },
      { password: 'Password must be 255 or less characters' },
    ],
    ['a malformed e-mail', { email: 'not-an-email' }, { email: 'Enter a valid email address' }],
    ['an empty username', { username: '' }, { username: 'Please enter your username' }],
    ['no 18+ confirmation', { age_confirmed: false }, { age_confirmed: 'Please confirm that you are over 18' }],
  ])('refuses %s with the exact message', async (_name, change, expected) => {
    const payload =
      Object.keys(change).length === 0
        ? {}
        : { username: 'Bob', email: uniqueEmail(), password: PASSWORD, age_confirmed: true, ...change };
    const res = await t.app.inject({ method: 'POST', url: '/api/register', payload });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_error');
    for (const [field, message] of Object.entries(expected)) expect(body.errors[field]).toContain(message);
  });

  it('accepts 100-character usernames and 6- and 255-character passwords', async () => {
    expect((await register({ username: 'a'.repeat(100), password: '123456' })).res.statusCode).toBe(201);
    expect((await register({ password: 'p'.repeat(255) })).res.statusCode).toBe(201);
  });

  it('translates field errors for the request language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'accept-language': 'de' },
      payload: { username: 'x', email: 'bad', password: '1', age_confirmed: true },
    });
    expect(res.json().errors.email).toEqual(['Gib eine gültige E-Mail-Adresse ein']);
  });

  it('refuses a duplicate e-mail (any case) with a field error', async () => {
    const { body } = await register();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { ...body, email: body.email.toUpperCase() },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.email).toEqual(['An account with this e-mail already exists']);
  });
});

describe('POST /api/token', () => {
  it('logs in with the right password', async () => {
    const { body } = await register();
    const res = await login(body.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const tokens = res.json();
    expect(tokens.access).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(tokens.refresh).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const profile = await t.app.inject({ url: '/api/profile', headers: { authorization: `Bearer ${tokens.access}` } });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      email: body.email,
      name: 'Alice',
      is_email_confirmed: false,
      has_subscription: false,
      role: 'user',
    });
  });

  it('answers 401 with a form error for a wrong password or an unknown account', async () => {
    const { body } = await register();
    for (const res of [await login(body.email, 'wrong-password'), await login('nobody@example.test')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'invalid_credentials',
        errors: { password: ['Wrong e-mail or password'] },
      });
    }
  });

  it('validates its fields', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/token', payload: { email: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      email: ['Enter a valid email address'],
      password: ['Please enter your password'],
    });
  });
});

describe('refresh tokens', () => {
  it('can be used while the request still carries an expired access token', async () => {
    const user = await signedUp();
    const stale = { authorization: 'Bearer not.a-valid.token' };
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh',
      headers: stale,
      payload: { refresh: user.refresh },
    });
    expect(refreshed.statusCode).toBe(200);
    // Other API calls still answer 401 so that the client refreshes.
    expect((await t.app.inject({ url: '/api/profile', headers: stale })).statusCode).toBe(401);
  });

  it('rotate on use; a reused token revokes the whole family', async () => {
    const user = await signedUp();
    const first = await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: user.refresh } });
    expect(first.statusCode).toBe(200);
    const rotated = first.json();
    expect(rotated.refresh).not.toBe(user.refresh);
    // Within the grace window the old token answers the same pair (tabs refreshing at once).
    const again = await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: user.refresh } });
    expect(again.json()).toEqual(rotated);
    // After it, the old token again is theft: the family, including the rotated token, is revoked.
    await t.database.db
      .update(refreshTokens)
      .set({ usedAt: new Date(Date.now() - (REFRESH_GRACE_S + 1) * 1000) })
      .where(and(eq(refreshTokens.userId, user.id), isNotNull(refreshTokens.usedAt)));
    const reuse = await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: user.refresh } });
    expect(reuse.statusCode).toBe(401);
    const after = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh',
      payload: { refresh: rotated.refresh },
    });
    expect(after.statusCode).toBe(401);
    // Other sessions of the user are untouched.
    const other = (await login(user.email)).json();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: other.refresh } }))
        .statusCode,
    ).toBe(200);
  });

  it('are stored hashed', async () => {
    const user = await signedUp();
    const rows = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.some((r) => r.tokenHash === user.refresh)).toBe(false);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuse expired, unknown and missing tokens', async () => {
    const user = await signedUp();
    await t.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.userId, user.id));
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: user.refresh } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: 'rt.nope.nope' } }))
        .statusCode,
    ).toBe(401);
    const missing = await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.refresh).toEqual(['Fill in the field']);
  });

  it('log-out revokes; another user cannot revoke my token', async () => {
    const me = await signedUp();
    const other = await signedUp();
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/token/revoke',
      headers: other.auth,
      payload: { refresh: me.refresh },
    });
    expect(foreign.statusCode).toBe(204);
    const stillValid = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh',
      payload: { refresh: me.refresh },
    });
    expect(stillValid.statusCode).toBe(200);
    const mine = stillValid.json();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/token/revoke', payload: { refresh: mine.refresh } })).statusCode,
    ).toBe(204);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: mine.refresh } }))
        .statusCode,
    ).toBe(401);
  });
});

describe('profile', () => {
  it('needs a valid token', async () => {
    expect((await t.app.inject({ url: '/api/profile' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/profile', headers: { authorization: 'Bearer a.b.c' } })).statusCode).toBe(
      401,
    );
  });

  it('updates name and age, with validation', async () => {
    const user = await signedUp();
    const ok = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile/update',
      headers: user.auth,
      payload: { name: 'Alicia', age: 30 },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Alicia', age: 30 });
    const empty = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile/update',
      headers: user.auth,
      payload: { name: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.name).toEqual(['Please enter name']);
    const young = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile/update',
      headers: user.auth,
      payload: { name: 'A', age: 12 },
    });
    expect(young.statusCode).toBe(400);
    // An age under 18 says why, not "Invalid value".
    expect(young.json().errors.age).toEqual(['You must be 18 or older to use this site']);
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/api/profile/update', payload: { name: 'A' } })).statusCode,
    ).toBe(401);
  });

  it('stores language, interests and marketing choice', async () => {
    const user = await signedUp();
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile/preferences',
      headers: user.auth,
      payload: { locale: 'de', interests: ['anime', 'romance'] },
    });
    expect(res.json()).toEqual({
      locale: 'de',
      interests: ['anime', 'romance'],
      marketing_emails: true,
      creator_page_hidden: false,
    });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile/preferences',
      headers: user.auth,
      payload: { interests: ['nope'] },
    });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/profile/preferences', headers: user.auth })).json().locale).toBe('de');
  });
});

describe('e-mail verification', () => {
  it('confirms through the mailed code, once; then a welcome mail goes out', async () => {
    const user = await signedUp();
    const [mail] = await mails(user.email);
    const code = linkIn(mail!.text, '/verify?code=').searchParams.get('code')!;
    const ok = await t.app.inject({ url: `/api/activate/${code}/`, headers: user.auth });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().detail).toBe('Your e-mail is confirmed');
    expect((await t.app.inject({ url: '/api/profile', headers: user.auth })).json().is_email_confirmed).toBe(true);
    const again = await t.app.inject({ url: `/api/activate/${code}/` });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'invalid_code', detail: 'Invalid code' });
    expect((await mails(user.email)).map((m) => m.kind)).toEqual(['verify', 'welcome']);
  });

  it("refuses unknown codes, expired codes and another user's code", async () => {
    const a = await signedUp();
    const b = await signedUp();
    expect((await t.app.inject({ url: '/api/activate/nonsense/' })).json().detail).toBe('Invalid code');
    const code = linkIn((await mails(a.email))[0]!.text, '/verify?code=').searchParams.get('code')!;
    expect((await t.app.inject({ url: `/api/activate/${code}/`, headers: b.auth })).statusCode).toBe(400);
    await t.database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(emailTokens.userId, a.id));
    expect((await t.app.inject({ url: `/api/activate/${code}/`, headers: a.auth })).statusCode).toBe(400);
  });

  it('resend sends only when none was sent, unless forced', async () => {
    const user = await signedUp();
    const plain = await t.app.inject({ url: '/api/resend_activation/', headers: user.auth });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().sent).toBe(false);
    const forced = await t.app.inject({ url: '/api/resend_activation/?force=1', headers: user.auth });
    expect(forced.json().sent).toBe(true);
    expect((await mails(user.email)).filter((m) => m.kind === 'verify')).toHaveLength(2);
    expect((await t.app.inject({ url: '/api/resend_activation/' })).statusCode).toBe(401);
  });
});

describe('password recovery', () => {
  it('mails a single-use link, sets the new password and signs out every session', async () => {
    const user = await signedUp();
    const res = await t.app.inject({ method: 'POST', url: '/api/password_reset/', payload: { email: user.email } });
    expect(res.statusCode).toBe(200);
    const mail = (await mails(user.email)).find((m) => m.kind === 'reset')!;
    expect(mail.html).toContain('Reset your password');
    const token = linkIn(mail.text, '/password?token=').searchParams.get('token')!;
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/password_reset/validate_token/', payload: { token } })).json(),
    ).toEqual({ valid: true });

    const mismatch = await t.app.inject({
      method: 'POST',
      url: `/password/${token}/`,
      payload: { password: 'new-password', password_confirm: 'other' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.password_confirm).toEqual(['Passwords do not match']);
    const short = await t.app.inject({
      method: 'POST',
      url: `/password/${token}/`,
      payload: { password: '12345', password_confirm: '12345' },
    });
    expect(short.json().errors.password).toEqual(['Password must be 6 or more characters']);

    const ok = await t.app.inject({
      method: 'POST',
      url: `/password/${token}/`,
      payload: { password: 'new-password', password_confirm: 'new-password' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await login(user.email)).statusCode).toBe(401);
    expect((await login(user.email, 'new-password')).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: user.refresh } }))
        .statusCode,
    ).toBe(401);
    // Single use.
    const reused = await t.app.inject({
      method: 'POST',
      url: `/password/${token}/`,
      payload: { password: 'third-pass', password_confirm: 'third-pass' },
    });
    expect(reused.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/password_reset/validate_token/', payload: { token } }))
        .statusCode,
    ).toBe(400);
  });

  it('never reveals whether an account exists', async () => {
    const user = await signedUp();
    const known = await t.app.inject({ method: 'POST', url: '/api/password_reset/', payload: { email: user.email } });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/password_reset/',
      payload: { email: 'ghost@example.test' },
    });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    const bad = await t.app.inject({ method: 'POST', url: '/api/password_reset/', payload: { email: 'nope' } });
    expect(bad.json().errors.email).toEqual(['Enter a valid email address']);
  });

  it('reset requests at once leave exactly one valid link', async () => {
    for (let round = 0; round < 5; round++) {
      const user = await signedUp();
      // They run in the background at the same time (the answers do not wait for them).
      t.app.accounts.requestPasswordReset(user.email);
      t.app.accounts.requestPasswordReset(user.email);
      t.app.accounts.requestPasswordReset(user.email);
      await t.app.accounts.idle();
      const live = await t.database.db
        .select()
        .from(emailTokens)
        .where(
          and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, 'reset'), sql`${emailTokens.usedAt} is null`),
        );
      expect(live).toHaveLength(1);
    }
  });

  it('refuses expired tokens and a new link voids the old one', async () => {
    const user = await signedUp();
    await t.app.inject({ method: 'POST', url: '/api/password_reset/', payload: { email: user.email } });
    const first = linkIn(
      (await mails(user.email)).filter((m) => m.kind === 'reset').at(-1)!.text,
      '/password?token=',
    ).searchParams.get('token')!;
    await t.app.inject({ method: 'POST', url: '/api/password_reset/', payload: { email: user.email } });
    const second = linkIn(
      (await mails(user.email)).filter((m) => m.kind === 'reset').at(-1)!.text,
      '/password?token=',
    ).searchParams.get('token')!;
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/password_reset/validate_token/', payload: { token: first } }))
        .statusCode,
    ).toBe(400);
    await t.database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(emailTokens.userId, user.id));
    const expired = await t.app.inject({
      method: 'POST',
      url: `/password/${second}/`,
      payload: { password: 'new-password', password_confirm: 'new-password' },
    });
    expect(expired.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/password_reset/validate_token/', payload: {} })).json().errors
        .token,
    ).toEqual(['Fill in the field']);
  });
});

describe('unsubscribe', () => {
  it('stops marketing mail through the signed link (JSON and RFC 8058 one-click); account mail still goes out', async () => {
    const user = await signedUp();
    const [mail] = await mails(user.email);
    const oneClick = /<([^>]+)>/.exec(mail!.headers['List-Unsubscribe']!)![1]!;
    const url = new URL(oneClick);
    const res = await t.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/profile/preferences', headers: user.auth })).json().marketing_emails).toBe(
      false,
    );
    // Verifying would send the (marketing) welcome mail: it does not; reset mail still does.
    const code = linkIn(mail!.text, '/verify?code=').searchParams.get('code')!;
    await t.app.inject({ url: `/api/activate/${code}` });
    await t.app.inject({ method: 'POST', url: '/api/password_reset', payload: { email: user.email } });
    expect((await mails(user.email)).map((m) => m.kind)).toEqual(['verify', 'reset']);
    // The JSON form with the page's token.
    const token = url.searchParams.get('token')!;
    expect((await t.app.inject({ method: 'POST', url: '/api/email/unsubscribe', payload: { token } })).statusCode).toBe(
      200,
    );
  });

  it('refuses a forged or missing token', async () => {
    const user = await signedUp();
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/email/unsubscribe',
      payload: { token: `${user.id}.forged-signature` },
    });
    expect(forged.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/email/unsubscribe', payload: {} })).json().errors.token,
    ).toEqual(['Fill in the field']);
  });
});

describe('POST /api/support', () => {
  it('stores a report of up to 1000 characters', async () => {
    const user = await signedUp();
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      headers: user.auth,
      payload: { subject: 'Bug', text: 'x'.repeat(1000) },
    });
    expect(ok.statusCode).toBe(201);
    const long = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      headers: user.auth,
      payload: { text: 'x'.repeat(1001) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.text).toEqual(['Text must contain no more than 1000 characters']);
    expect((await t.app.inject({ method: 'POST', url: '/api/support', payload: {} })).json().errors.text).toEqual([
      'Fill in the field',
    ]);
  });
});

describe('access tokens need exp, iat, sub and sid (issue 27)', () => {
  it('a token of a live session without an expiry, signed with the real secret, answers 401', async () => {
    const user = await signedUp();
    const { SignJWT, decodeJwt } = await import('jose');
    const { sid } = decodeJwt(user.access) as { sid: string };
    const key = new TextEncoder().encode(t.config.JWT_SECRET!);
    const base = () =>
      new SignJWT({ role: 'user', sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer('reverie')
        .setAudience('access');
    const profile = (token: string) =>
      t.app.inject({ url: '/api/profile', headers: { authorization: `Bearer ${token}` } });
    expect((await profile(await base().setIssuedAt().sign(key))).statusCode).toBe(401);
    expect((await profile(await base().setExpirationTime('15m').sign(key))).statusCode).toBe(401);
    expect((await profile(await base().setIssuedAt().setExpirationTime('15m').sign(key))).statusCode).toBe(200);
  });
});

describe('POST /api/profile/password (issue 27)', () => {
  const change = (auth: { authorization: string }, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/profile/password', headers: auth, payload: body });
  const profile = (auth: { authorization: string }) => t.app.inject({ url: '/api/profile', headers: auth });
  const refresh = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: token } });

  it('checks the current password and the rules, then signs out every other session and keeps this one', async () => {
    const user = await signedUp();
    const other = (await login(user.email)).json() as { access: string; refresh: string };
    const otherAuth = { authorization: `Bearer ${other.access}` };
    expect((await profile(otherAuth)).statusCode).toBe(200);

    expect((await t.app.inject({ method: 'POST', url: '/api/profile/password', payload: {} })).statusCode).toBe(401);
    const wrong = await change(user.auth, { current_password: 'nope', new_password: 'a brand new one' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'wrong_password', errors: { current_password: ['Wrong password'] } });
    const short = await change(user.auth, { current_password: PASSWORD, new_password: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toHaveProperty('new_password');
    // Nothing changed so far: both sessions live.
    expect((await profile(otherAuth)).statusCode).toBe(200);

    const changed = await change(user.auth, { current_password: PASSWORD, new_password: 'a brand new one' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().detail).toContain('Your password has been changed');
    // The other session ends at once (access and refresh), this one goes on.
    expect((await profile(otherAuth)).statusCode).toBe(401);
    expect((await refresh(other.refresh)).statusCode).toBe(401);
    expect((await profile(user.auth)).statusCode).toBe(200);
    expect((await refresh(user.refresh)).statusCode).toBe(200);
    // The old password no longer logs in; the new one does.
    expect((await login(user.email)).statusCode).toBe(401);
    expect((await login(user.email, 'a brand new one')).statusCode).toBe(200);
  });
});

describe('DELETE /api/profile', () => {
  it('asks for the password: none is 400, a wrong one 403 — and nothing is deleted (issue 27)', async () => {
    const user = await signedUp();
    const missing = await t.app.inject({ method: 'DELETE', url: '/api/profile', headers: user.auth });
    expect(missing.statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'DELETE', url: '/api/profile', headers: user.auth, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toHaveProperty('password');
    const wrong = await t.app.inject({
      method: 'DELETE',
      url: '/api/profile',
      headers: user.auth,
      payload: { password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'wrong_password', errors: { password: ['Wrong password'] } });
    // The account and its session are still there.
    expect((await t.app.inject({ url: '/api/profile', headers: user.auth })).statusCode).toBe(200);
    expect(await t.database.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
  });

  it('leaves no row or file of the user behind and keeps other users intact', async () => {
    const user = await signedUp();
    const other = await signedUp();
    const db = t.database.db;
    await db.insert(supportReports).values({ userId: user.id, text: 'help', email: user.email });
    await db
      .insert(analyticsEvents)
      .values({ name: 'page_changed', props: {}, occurredAt: new Date(), deviceId: 'd1', userId: user.id });
    await db.insert(bots).values({ slug: `mine-${user.id.slice(0, 8)}`, name: 'Mine', age: 25, authorId: user.id });
    await db
      .insert(bots)
      .values({ slug: `theirs-${other.id.slice(0, 8)}`, name: 'Theirs', age: 25, authorId: other.id });
    const dir = userMediaDir(t.config.dataDir, user.id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'avatar.png'), 'x');

    expect((await t.app.inject({ method: 'DELETE', url: '/api/profile' })).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/profile',
      headers: user.auth,
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(204);

    // Every table with a user reference: none mentions the user any more.
    const tables = await db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and column_name in ('user_id', 'author_id')`);
    const list = (Array.isArray(tables) ? tables : (tables as { rows: unknown[] }).rows) as {
      table_name: string;
      column_name: string;
    }[];
    expect(list.length).toBeGreaterThanOrEqual(6);
    for (const { table_name, column_name } of list) {
      const found = await db.execute(
        sql.raw(`select count(*)::int as n from "${table_name}" where "${column_name}"::text = '${user.id}'`),
      );
      const rows = (Array.isArray(found) ? found : (found as { rows: unknown[] }).rows) as { n: number }[];
      expect({ table_name, n: rows[0]!.n }).toEqual({ table_name, n: 0 });
    }
    expect(await db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect(await mails(user.email)).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
    expect(await db.select().from(users).where(eq(users.id, other.id))).toHaveLength(1);
    expect((await db.select().from(bots).where(eq(bots.authorId, other.id))).length).toBe(1);
    // The old tokens are dead.
    expect((await t.app.inject({ url: '/api/profile', headers: user.auth })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: user.refresh } }))
        .statusCode,
    ).toBe(401);
    expect((await login(user.email)).statusCode).toBe(401);
  });
});

describe('/dev/mailbox', () => {
  it('lists the outbox outside production', async () => {
    const user = await signedUp();
    const page = await t.app.inject({ url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(user.email);
    const json = (await t.app.inject({ url: '/dev/mailbox.json' })).json() as { id: number; to: string }[];
    const mine = json.find((m) => m.to === user.email)!;
    expect((await t.app.inject({ url: `/dev/mailbox/${mine.id}` })).body).toContain('<!doctype html>');
  });
});

describe('createUser factory users', () => {
  it('work with the profile endpoint', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    expect((await t.app.inject({ url: '/api/profile', headers: auth })).statusCode).toBe(200);
  });
});
