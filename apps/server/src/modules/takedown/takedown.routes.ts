import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, TakedownBodySchema, TakedownCreatedSchema } from '@reverie/shared';
import type { TakedownService } from './takedown.service.js';

export interface TakedownRouteOptions {
  service: TakedownService;
  /** Requests per address per hour. */
  perIpPerHour: number;
}

/** `POST /api/takedown`: open to anyone (docs/admin.md "Takedown"). */
export const takedownRoutes: FastifyPluginAsyncZod<TakedownRouteOptions> = async (app, options) => {
  app.post(
    '/api/takedown',
    {
      config: { rateLimit: { max: options.perIpPerHour, timeWindow: 3600_000 } },
      schema: {
        tags: ['takedown'],
        summary: 'Ask for content to be taken down (TAKE IT DOWN Act); acknowledged by e-mail',
        body: TakedownBodySchema,
        response: { 201: TakedownCreatedSchema, 400: ApiErrorSchema, 429: ApiErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await options.service.create(request.body, request.locale)),
  );
};
