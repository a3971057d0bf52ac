import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import type { TokenSigner } from '../lib/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** 'admin' for administrators; null for guests. */
    userRole: 'user' | 'admin' | null;
  }
  interface FastifyInstance {
    tokens: TokenSigner;
  }
}

/** API calls that never need the access token: a stale one is ignored there. */
const TOKEN_FREE_PATHS = /^\/api\/(?:token|register|password_reset|email\/unsubscribe)(?:[/?]|$)/;

/**
 * Reads `Authorization: Bearer <access>` on every request: a valid token sets
 * `request.userId`; a missing one leaves a guest; an invalid or expired one is a 401 so
 * the client refreshes (spec §4).
 */
export const authPlugin = fp<{ tokens: TokenSigner }>(
  async (app, { tokens }) => {
    app.decorate('tokens', tokens);
    app.decorateRequest('userRole', null);
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (!header) return;
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const claims = match?.[1] ? await tokens.verifyAccess(match[1]) : null;
      if (!claims) {
        // Public pages still work with a stale token, and so do the calls that get a new one
        // (a client whose access token expired must still be able to refresh or log in);
        // other API calls answer 401 so that the client refreshes.
        if (request.url.startsWith('/api/') && !TOKEN_FREE_PATHS.test(request.url))
          throw new AppError('unauthorized', { status: 401, detail: 'Token is invalid or expired' });
        return;
      }
      request.userId = claims.sub;
      request.userRole = claims.role;
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
