import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnalyticsAcceptedSchema, AnalyticsBatchSchema, ApiErrorSchema, SubscribeClickSchema } from '@reverie/shared';
import type { AnalyticsService } from './analytics.service.js';

/** First-party analytics intake (PRODUCT.md §8). */
export const analyticsRoutes: FastifyPluginAsyncZod<{ service: AnalyticsService }> = async (app, { service }) => {
  app.post(
    '/api/analytics/events',
    {
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
      bodyLimit: 256 * 1024,
      schema: {
        tags: ['analytics'],
        summary: 'Store a batch of up to 50 client events',
        body: AnalyticsBatchSchema,
        response: { 202: AnalyticsAcceptedSchema, 400: ApiErrorSchema, 429: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const accepted = await service.recordBatch(request.body.events, request.userId ?? null, request.ip);
      return reply.status(202).send({ accepted });
    },
  );

  app.post(
    '/api/events/click_subscribe/create',
    {
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags: ['analytics'],
        summary: 'Record that the premium offer was opened (spec: click_subscribe)',
        body: SubscribeClickSchema,
        response: { 201: SubscribeClickSchema, 400: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      await service.recordSubscribeClick(request.body.from, request.userId ?? null, request.ip);
      return reply.status(201).send({ from: request.body.from });
    },
  );
};
