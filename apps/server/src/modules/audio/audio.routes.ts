import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, AudioParamsSchema, AudioResponseSchema } from '@reverie/shared';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { AudioService } from './audio.service.js';

/** `POST /api/audio/{message_id}`: the voice of a character's message (premium); the client polls every 1 s while `processing`. */
export const audioRoutes: FastifyPluginAsyncZod<{ service: AudioService }> = async (app, { service }) => {
  app.post(
    '/api/audio/:message_id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['voice'],
        summary: "A character message's voice: processing, then ready with audio_url (or error); 402 for non-premium",
        params: AudioParamsSchema,
        response: {
          200: AudioResponseSchema,
          401: ApiErrorSchema,
          402: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.request(currentUserId(request), request.params.message_id, request.locale);
    },
  );
};
