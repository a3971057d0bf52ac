import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnalyticsAcceptedSchema, AnalyticsBatchSchema, ApiErrorSchema, SubscribeClickSchema } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { insertAnalyticsEvents } from './analytics.repository.js';

/** First-party analytics intake (PRODUCT.md §8). */
export const analyticsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.post(
    '/api/analytics/events',
    {
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
      bodyLimit: 256 * 1024,
      schema: {
        tags: ['analytics'],
        summary: 'Store a batch of up to 50 client events',
        body: AnalyticsBatchSchema,
        response: { 202: AnalyticsAcceptedSchema, 400: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      // A client-sent user id is not trusted; the authenticated user (if any) is recorded.
      const userId = request.userId ?? null;
      const accepted = await insertAnalyticsEvents(db, request.body.events, userId);
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
      await insertAnalyticsEvents(
        db,
        [
          {
            name: 'click_subscribe',
            props: { from: request.body.from },
            ts: new Date().toISOString(),
            device_id: request.userId ?? `ip:${request.ip}`,
          },
        ],
        request.userId ?? null,
      );
      return reply.status(201).send({ from: request.body.from });
    },
  );
};
