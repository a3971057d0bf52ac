import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminAuditPageSchema, AdminAuditQuerySchema, ApiErrorSchema } from '@reverie/shared';
import { decodeCursor, keysetPage } from '../../lib/cursor.js';
import type { AdminDeps } from './admin-deps.js';
import { listAudit } from './audit.repository.js';

/** The Audit log section: every admin write, newest first, by action or target. */
export const auditRoutes: FastifyPluginAsyncZod<{ deps: AdminDeps }> = async (app, { deps }) => {
  app.get(
    '/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every admin write (who, when, action, target, before/after, reason), newest first',
        querystring: AdminAuditQuerySchema,
        response: { 200: AdminAuditPageSchema, 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema },
      },
    },
    async (request) => {
      const { size, c, action, target_type, target_id } = request.query;
      const after = decodeCursor(c, ['iso', 'int'] as const);
      const rows = await listAudit(deps.db, {
        size: size + 1,
        after: after ? { createdAt: after[0], id: after[1] } : null,
        target: target_type && target_id ? { type: target_type, id: target_id } : null,
        action: action || null,
        targetType: target_type && !target_id ? target_type : null,
      });
      return keysetPage(
        rows,
        size,
        (r) => ({
          id: Number(r.id),
          actor_id: r.actorId,
          actor_email: r.actorEmail,
          action: r.action,
          target_type: r.targetType,
          target_id: r.targetId,
          before: r.before ?? null,
          after: r.after ?? null,
          reason: r.reason,
          created_at: r.createdAt.toISOString(),
        }),
        (last) => [last.cursorAt, Number(last.id)],
      );
    },
  );
};
