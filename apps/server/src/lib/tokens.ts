import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
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
   * The claims of a valid, unexpired access token; null otherwise. Tokens signed before
   * sessions existed (no `sid`) are refused: the client refreshes and gets one with a session.
   */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > Date.now()) return known.claims;
      this.verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: this.issuer,
        audience: 'access',
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || !payload.sid) return null;
      const claims: AccessClaims = {
        sub: payload.sub,
        role: payload.role === 'admin' ? 'admin' : 'user',
        sid: payload.sid,
      };
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
        this.verified.set(token, { claims, expiresAt: payload.exp * 1000 });
      }
      return claims;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
