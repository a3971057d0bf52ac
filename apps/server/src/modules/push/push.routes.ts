import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PushConfigSchema,
  PushPreferencesBodySchema,
  PushSubscriptionBodySchema,
  PushUnsubscribeBodySchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { PushService } from './push.service.js';

export interface PushRouteOptions {
  service: PushService;
  /** Subscriptions one address may register per hour. */
  perIpPerHour: number;
}

const errors = apiErrors(400, 401, 404, 429);

/** Web Push for the signed-in user's devices (docs/companion.md "Push and the app"). */
export const pushRoutes: FastifyPluginAsyncZod<PushRouteOptions> = async (app, options) => {
  const { service } = options;
  app.get(
    '/api/push/config',
    {
      preHandler: requireUser,
      schema: {
        tags: ['push'],
        summary: 'The VAPID public key to subscribe with, the notification choices and the devices subscribed',
        response: { 200: PushConfigSchema, ...errors },
      },
    },
    async (request) => service.config(currentUserId(request)),
  );

  app.post(
    '/api/push/subscriptions',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: options.perIpPerHour, timeWindow: 3600_000 } },
      schema: {
        tags: ['push'],
        summary: 'Subscribe this device (PushSubscription.toJSON()); the same endpoint is replaced',
        body: PushSubscriptionBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.subscribe(currentUserId(request), request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/push/subscriptions',
    {
      preHandler: requireUser,
      schema: {
        tags: ['push'],
        summary: "Unsubscribe this device (its endpoint); another user's endpoint is a 404",
        body: PushUnsubscribeBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.unsubscribe(currentUserId(request), request.body.endpoint);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/push/preferences',
    {
      preHandler: requireUser,
      schema: {
        tags: ['push'],
        summary: 'Hide the preview of notifications; be told of finished long replies and pictures',
        body: PushPreferencesBodySchema,
        response: { 200: PushConfigSchema, ...errors },
      },
    },
    async (request) => service.setPreferences(currentUserId(request), request.body),
  );
};
