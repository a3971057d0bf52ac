import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminAuditPageSchema, AdminAuditQuerySchema, ApiErrorSchema } from '@reverie/shared';
import type { AdminAuditService } from './audit.service.js';

/** The Audit log section: every admin write, newest first, by action or target. */
export const auditRoutes: FastifyPluginAsyncZod<{ service: AdminAuditService }> = async (app, { service }) => {
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
    async (request) => service.list(request.query),
  );
};
