import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { ACCESS_TOKEN_TTL_S } from '@reverie/shared';

export interface AccessClaims {
  /** The user id. */
  sub: string;
  role: 'user' | 'admin';
  /** The session: the refresh-token family the token was issued in (accounts `sessions.ts`). */
  sid: string;
}

const VERIFIED_CACHE_SIZE = 10_000;

/**
 * The claims every JWT the server signs carries and every verification requires (issue 27):
 * a token without an expiry, an issue time, a subject or a session — even one signed with the
 * real secret — is refused.
 */
export const REQUIRED_CLAIMS = ['exp', 'iat', 'sub', 'sid'] as const;

/**
 * Verifies an HS256 JWT of this server: signature, issuer, audience, expiry and the
 * `REQUIRED_CLAIMS` (plus `extraClaims`), `sub` and `sid` non-empty strings. The payload, or
 * null for any token that fails.
 */
export async function verifyServerJwt(
  token: string,
  key: Uint8Array,
  options: { issuer: string; audience: string; extraClaims?: string[] },
): Promise<(JWTPayload & { sub: string; sid: string; exp: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ['HS256'],
      requiredClaims: [...REQUIRED_CLAIMS, ...(options.extraClaims ?? [])],
    });
    const { sub, sid, exp, iat } = payload;
    if (typeof sub !== 'string' || !sub || typeof sid !== 'string' || !sid) return null;
    if (typeof exp !== 'number' || typeof iat !== 'number') return null;
    return { ...payload, sub, sid, exp };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/**
 * Signs and verifies access tokens (HS256 JWT, 15 minutes). Refresh tokens are opaque
 * random strings stored hashed by the accounts module, not JWTs.
 */
export class TokenSigner {
  private readonly key: Uint8Array;
  /**
   * Tokens already verified, with their claims and expiry: a client sends the same token with
   * every request for 15 minutes, and verifying the signature (WebCrypto, a hop to the thread
   * pool) was a measurable part of each chat message. Bounded; oldest entries go first.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();

  constructor(
    secret: string,
    private readonly issuer = 'reverie',
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * Signs an access token. HS256 is deterministic: the same claims and the same `issuedAt`
   * (seconds) always give the same token, which the refresh grace window relies on.
   */
  async signAccess(claims: AccessClaims, options: { issuedAt?: number; ttlSeconds?: number } = {}): Promise<string> {
    const iat = options.issuedAt ?? Math.floor(Date.now() / 1000);
    return new SignJWT({ role: claims.role, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(this.issuer)
      .setAudience('access')
      .setIssuedAt(iat)
      .setExpirationTime(iat + (options.ttlSeconds ?? ACCESS_TOKEN_TTL_S))
      .sign(this.key);
  }

  /**
   * The claims of a valid, unexpired access token; null otherwise. `exp`, `iat`, `sub` and
   * `sid` are required (`verifyServerJwt`): tokens signed before sessions existed (no `sid`)
   * are refused — the client refreshes and gets one with a session — and so is a token without
   * an expiry, whoever signed it.
   */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > Date.now()) return known.claims;
      this.verified.delete(token);
    }
    const payload = await verifyServerJwt(token, this.key, { issuer: this.issuer, audience: 'access' });
    if (!payload) return null;
    const claims: AccessClaims = {
      sub: payload.sub,
      role: payload.role === 'admin' ? 'admin' : 'user',
      sid: payload.sid,
    };
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { claims, expiresAt: payload.exp * 1000 });
    return claims;
  }
}
