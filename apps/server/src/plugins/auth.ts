import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import type { TokenSigner } from '../lib/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** 'admin' for administrators; null for guests. */
    userRole: 'user' | 'admin' | null;
    /** The session (refresh-token family) of the access token; null for guests. */
    sessionId: string | null;
  }
  interface FastifyInstance {
    tokens: TokenSigner;
  }
}

/** What the plugin needs about a live session (the accounts module's session cache gives it). */
export interface LiveSession {
  role: 'user' | 'admin';
}

/** Tells whether a session is live (accounts `Sessions`: cached per process, invalidated by pub/sub). */
export interface SessionChecker {
  check(userId: string, sid: string): Promise<LiveSession | null>;
}

/** API calls that never need the access token: a stale one is ignored there. */
const TOKEN_FREE_PATHS = /^\/api\/(?:token|register|password_reset|email\/unsubscribe)(?:[/?]|$)/;

/**
 * Reads `Authorization: Bearer <access>` on every request: a valid token of a live session
 * sets `request.userId`; a missing one leaves a guest; an invalid or expired token, or one
 * whose session ended (log-out, reuse, password reset, ban, deleted account), is a 401 so the
 * client refreshes (spec §4) — also on routes open to guests, which never act as a guest
 * with it.
 */
export const authPlugin = fp<{ tokens: TokenSigner; sessions: SessionChecker }>(
  async (app, { tokens, sessions }) => {
    app.decorate('tokens', tokens);
    app.decorateRequest('userRole', null);
    app.decorateRequest('sessionId', null);
    const authenticate = async (request: FastifyRequest, header: string) => {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const claims = match?.[1] ? await tokens.verifyAccess(match[1]) : null;
      const session = claims ? await sessions.check(claims.sub, claims.sid) : null;
      if (!claims || !session) {
        // Public pages still work with a stale token, and so do the calls that get a new one
        // (a client whose access token expired must still be able to refresh or log in);
        // other API calls answer 401 so that the client refreshes.
        if (request.url.startsWith('/api/') && !TOKEN_FREE_PATHS.test(request.url))
          throw new AppError('unauthorized', { status: 401, detail: 'Token is invalid or expired' });
        return;
      }
      request.userId = claims.sub;
      request.userRole = session.role;
      request.sessionId = claims.sid;
    };
    // Callback-style: a request without a token (a guest) passes without a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers.authorization;
      if (!header) return done();
      authenticate(request, header).then(() => done(), done);
    });
  },
  { name: 'auth', dependencies: ['request-context'] },
);

/** preHandler: the route needs a signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.userId) throw new AppError('unauthorized', { status: 401 });
}

/** preHandler: the route needs an administrator. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.userId) throw new AppError('unauthorized', { status: 401 });
  if (request.userRole !== 'admin') throw new AppError('forbidden', { status: 403 });
}

/** The signed-in user's id inside a route protected by `requireUser`. */
export function currentUserId(request: FastifyRequest): string {
  if (!request.userId) throw new AppError('unauthorized', { status: 401 });
  return request.userId;
}
