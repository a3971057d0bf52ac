import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClientConfigSchema, HealthSchema, ReadySchema } from '@reverie/shared';
import type { SystemService } from './system.service.js';

/** Liveness, readiness and the public client configuration. */
export const systemRoutes: FastifyPluginAsyncZod<{ service: SystemService }> = async (app, { service }) => {
  app.get(
    '/api/health',
    { schema: { tags: ['system'], summary: 'Liveness', response: { 200: HealthSchema } } },
    async () => service.health(),
  );

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers and every migration is applied',
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const ready = await service.readiness();
      return reply.status(ready.status === 'ready' ? 200 : 503).send(ready);
    },
  );

  app.get(
    '/api/config',
    {
      schema: { tags: ['system'], summary: 'Public settings the web app needs', response: { 200: ClientConfigSchema } },
    },
    async () => service.clientConfig(),
  );
};
