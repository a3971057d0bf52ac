import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenSigner, verifyServerJwt } from './tokens.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const key = new TextEncoder().encode(SECRET);

/** A token signed with the real secret, with only the claims named. */
async function forge(options: {
  audience?: string;
  sub?: string;
  sid?: string;
  iat?: boolean;
  exp?: boolean;
  extra?: Record<string, unknown>;
}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({ role: 'user', ...(options.sid === undefined ? {} : { sid: options.sid }), ...options.extra })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('reverie')
    .setAudience(options.audience ?? 'access');
  if (options.sub !== undefined) jwt = jwt.setSubject(options.sub);
  if (options.iat !== false) jwt = jwt.setIssuedAt(now);
  if (options.exp !== false) jwt = jwt.setExpirationTime(now + 600);
  return jwt.sign(key);
}

describe('every token requires exp, iat, sub and sid (issue 27)', () => {
  const signer = new TokenSigner(SECRET);
  const full = { sub: 'user-1', sid: 'session-1' };

  it('accepts a complete access token, its own and a forged one alike', async () => {
    expect(await signer.verifyAccess(await forge(full))).toEqual({ sub: 'user-1', sid: 'session-1', role: 'user' });
    const own = await signer.signAccess({ sub: 'user-2', sid: 'session-2', role: 'admin' });
    expect(await signer.verifyAccess(own)).toEqual({ sub: 'user-2', sid: 'session-2', role: 'admin' });
  });

  it('refuses an access token without exp, iat, sub or sid, even signed with the real secret', async () => {
    expect(await signer.verifyAccess(await forge({ ...full, exp: false }))).toBeNull();
    expect(await signer.verifyAccess(await forge({ ...full, iat: false }))).toBeNull();
    expect(await signer.verifyAccess(await forge({ sid: 'session-1' }))).toBeNull();
    expect(await signer.verifyAccess(await forge({ sub: 'user-1' }))).toBeNull();
    expect(await signer.verifyAccess(await forge({ sub: 'user-1', sid: '' }))).toBeNull();
    expect(await signer.verifyAccess(await forge({ sub: '', sid: 'session-1' }))).toBeNull();
  });

  it('verifyServerJwt (call tokens) requires the same claims and the extra ones named', async () => {
    const call = { ...full, audience: 'call', extra: { call: 'call-1' } };
    const options = { issuer: 'reverie', audience: 'call', extraClaims: ['call'] };
    expect(await verifyServerJwt(await forge(call), key, options)).toMatchObject({ sub: 'user-1', call: 'call-1' });
    expect(await verifyServerJwt(await forge({ ...call, exp: false }), key, options)).toBeNull();
    expect(await verifyServerJwt(await forge({ ...call, iat: false }), key, options)).toBeNull();
    expect(await verifyServerJwt(await forge({ ...call, sid: undefined }), key, options)).toBeNull();
    expect(await verifyServerJwt(await forge({ ...call, extra: {} }), key, options)).toBeNull();
    // An access token is no call token.
    expect(await verifyServerJwt(await forge(full), key, options)).toBeNull();
  });
});
