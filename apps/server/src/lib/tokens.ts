import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ACCESS_TOKEN_TTL_S } from '@reverie/shared';

export interface AccessClaims {
  /** The user id. */
  sub: string;
  role: 'user' | 'admin';
}

/**
 * Signs and verifies access tokens (HS256 JWT, 15 minutes). Refresh tokens are opaque
 * random strings stored hashed by the accounts module, not JWTs.
 */
export class TokenSigner {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly issuer = 'reverie',
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async signAccess(claims: AccessClaims, ttlSeconds = ACCESS_TOKEN_TTL_S): Promise<string> {
    return new SignJWT({ role: claims.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(this.issuer)
      .setAudience('access')
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired access token; null otherwise. */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: this.issuer,
        audience: 'access',
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string') return null;
      return { sub: payload.sub, role: payload.role === 'admin' ? 'admin' : 'user' };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
