import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, TakedownBodySchema, TakedownCreatedSchema } from '@reverie/shared';
import { AppError } from '../../lib/errors.js';
import { WindowLimiter, type WindowCounter } from '../../providers/limits/index.js';
import type { TakedownService } from './takedown.service.js';

export interface TakedownRouteOptions {
  service: TakedownService;
  /** The cluster's shared counters (providers/limits). */
  limits: WindowCounter;
  /** Requests per address per hour. */
  perIpPerHour: number;
  /** Requests (acknowledgements sent) per reporter e-mail per day. */
  perEmailPerDay: number;
}

/** `POST /api/takedown`: open to anyone (docs/admin.md "Takedown"). */
export const takedownRoutes: FastifyPluginAsyncZod<TakedownRouteOptions> = async (app, options) => {
  const perEmail = new WindowLimiter(options.limits, 'takedown-email', options.perEmailPerDay, 24 * 3600_000);
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
    async (request, reply) => {
      // It sends e-mail: counted per address of the recipient too (a hash, no address stored).
      const id = createHash('sha256').update(request.body.email.toLowerCase()).digest('hex');
      const wait = await perEmail.take(id);
      if (wait > 0)
        throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(Math.max(1, wait)) } });
      const created = await options.service.create(request.body, request.locale);
      return reply.status(201).send(created);
    },
  );
};
