import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, CallTokenBodySchema, CallTokenResponseSchema } from '@reverie/shared';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { CallAdmission, CallsService } from './calls.service.js';
import { MAX_AUDIO_FRAME_BYTES } from './call-connection.js';

/**
 * Voice calls (docs/calls.md): `POST /api/audio_chat/token` (premium) and the call's
 * WebSocket `/api/audio_chat/ws?token=…` (or `?resume=…` after a drop).
 */
export const callsRoutes: FastifyPluginAsyncZod<{ service: CallsService }> = async (app, { service }) => {
  // Frames larger than the protocol allows are refused by the connection (4400), not by ws.
  await app.register(websocket, { options: { maxPayload: MAX_AUDIO_FRAME_BYTES * 4 } });

  app.post(
    '/api/audio_chat/token',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
      schema: {
        tags: ['voice'],
        summary:
          'A short-lived token for a voice call with a character (premium): 402 premium_required, 409 call_in_progress, 409 stt_unavailable (errors.reason: why recognition cannot run), 429 call_minutes_exhausted',
        body: CallTokenBodySchema,
        response: {
          200: CallTokenResponseSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          402: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          429: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.issueToken(currentUserId(request), request.sessionId!, request.body, request.locale);
    },
  );

  // The token or resume key is checked (and the call claimed) before the socket's work starts.
  const admissions = new WeakMap<FastifyRequest, CallAdmission>();
  app.get(
    '/api/audio_chat/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        // Only a WebSocket upgrade may claim a call.
        if (!request.ws)
          return reply.code(400).send({ code: 'bad_request', detail: 'A WebSocket upgrade is expected' });
        const query = request.query as { token?: unknown; resume?: unknown };
        const admission = await service
          .admit({
            token: typeof query.token === 'string' ? query.token : undefined,
            resume: typeof query.resume === 'string' ? query.resume : undefined,
          })
          .catch((error: unknown) => {
            request.log.warn({ err: error }, 'a call socket could not be admitted');
            return { ok: false, code: 4004, reason: 'error' } as const;
          });
        admissions.set(request, admission);
      },
    },
    (socket, request) => {
      const admission = admissions.get(request);
      if (!admission?.ok) {
        socket.close(admission?.code ?? 4001, admission?.reason ?? 'invalid_token');
        return;
      }
      void service.connect(socket, admission);
    },
  );
};
