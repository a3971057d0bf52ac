import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminOverviewQuerySchema, AdminOverviewSchema, ApiErrorSchema } from '@reverie/shared';
import type { AdminOverviewService } from './overview.service.js';

/** `GET /api/admin/overview?days=7|30|90`: the console's first page. */
export const overviewRoutes: FastifyPluginAsyncZod<{ service: AdminOverviewService }> = async (app, { service }) => {
  app.get(
    '/overview',
    {
      schema: {
        tags: ['admin'],
        summary: 'Sign-ups, active users, messages, calls, revenue, funnel and safety events per UTC day',
        querystring: AdminOverviewQuerySchema,
        response: { 200: AdminOverviewSchema, 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema },
      },
    },
    async (request) => service.get(request.query.days),
  );
};
