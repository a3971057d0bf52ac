import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, UnblurParamsSchema, UnblurResponseSchema } from '@reverie/shared';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { PictureService } from './pictures.service.js';

/** `GET /api/unblur/image/{id}`: the original of the user's blurred picture, for 3 desires (free for premium). */
export const pictureRoutes: FastifyPluginAsyncZod<{ service: PictureService }> = async (app, { service }) => {
  app.get(
    '/api/unblur/image/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['pictures'],
        summary: "Unblur a character's picture: 3 desires once per picture (premium: free); 402 below 3",
        params: UnblurParamsSchema,
        response: {
          200: UnblurResponseSchema,
          401: ApiErrorSchema,
          402: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.unblur(currentUserId(request), request.params.id);
    },
  );
};
