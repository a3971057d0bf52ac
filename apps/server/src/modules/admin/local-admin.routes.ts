import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { OperatorCommands, type Sessions } from '../accounts/index.js';
import { recordAudit } from './audit.repository.js';
import { LOCAL_ADMIN_KEY_HEADER, isLoopback, sameKey } from './local-admin.js';

const OperatorBodySchema = z
  .object({
    action: z.enum(['create', 'ban', 'unban']),
    email: z.string().max(254),
    password: z.string().max(255).optional(),
    name: z.string().max(100).optional(),
    reason: z.string().max(500).nullable().optional(),
  })
  .meta({ id: 'LocalOperatorBody' });

const OperatorResultSchema = z.object({
  outcome: z.enum([
    'created',
    'promoted',
    'promoted_password',
    'banned',
    'unbanned',
    'user_not_found',
    'password_required',
    'invalid_email',
  ]),
  email: z.string(),
});

/** Headers a reverse proxy adds: a request that passed through one is not local. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'forwarded', 'x-real-ip'];

/**
 * `POST /api/local/admin`: `npm run admin:create|ban|unban` through the running server (on
 * PGlite a second process may not open the database). Only from the machine itself — the
 * connection from a loopback address, no proxy's forwarding headers — and with the key the
 * server wrote to `DATA_DIR/local-admin.json` at start (compared in constant time). Outside
 * `/api/admin`: no administrator exists yet when the first one is made.
 */
export const localAdminRoutes: FastifyPluginAsyncZod<{
  db: Database;
  sessions: Pick<Sessions, 'endUserSessions'>;
  key: string | null;
}> = async (app, options) => {
  const commands = new OperatorCommands({
    db: options.db,
    sessions: options.sessions,
    audit: (entry) => recordAudit(options.db, null, entry),
  });
  app.post(
    '/api/local/admin',
    {
      schema: {
        tags: ['operators'],
        summary: 'Operator commands (admin:create, admin:ban, admin:unban) from the same machine, with the local key',
        body: OperatorBodySchema,
        response: { 200: OperatorResultSchema, 400: ApiErrorSchema, 403: ApiErrorSchema },
      },
    },
    async (request) => {
      const local =
        isLoopback(request.socket.remoteAddress) && FORWARDING_HEADERS.every((h) => request.headers[h] === undefined);
      const header = request.headers[LOCAL_ADMIN_KEY_HEADER];
      const given = typeof header === 'string' ? header : undefined;
      // Both checks always run (no early answer tells which one failed).
      const keyOk = options.key !== null && sameKey(options.key, given);
      if (!local || !keyOk) throw new AppError('forbidden', { status: 403 });
      return commands.run(request.body);
    },
  );
};
