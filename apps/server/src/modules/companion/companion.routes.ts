import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChatCompanionBodySchema,
  ChatCompanionSchema,
  ChatIdParamsSchema,
  CompanionSettingsBodySchema,
  CompanionSettingsSchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import type { Database } from '../../db/client.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import { requireOwnedChat } from '../chats/index.js';
import type { CompanionService } from './companion.service.js';

const errors = apiErrors(400, 401, 404, 429);
/** Settings are cheap to write, but each write plans the user's slots again. */
const perAccount = { rateLimit: { max: 30, timeWindow: 60_000 } };

/** The companion's settings (docs/companion.md "API"). */
export const companionRoutes: FastifyPluginAsyncZod<{ service: CompanionService; db: Database }> = async (
  app,
  { service, db },
) => {
  app.get(
    '/api/companion/settings',
    {
      preHandler: requireUser,
      schema: {
        tags: ['companion'],
        summary: "The user's settings of proactive messages (quiet hours, daily cap, e-mail digest)",
        response: { 200: CompanionSettingsSchema, ...errors },
      },
    },
    async (request) => service.getSettings(currentUserId(request)),
  );

  app.patch(
    '/api/companion/settings',
    {
      preHandler: requireUser,
      config: perAccount,
      schema: {
        tags: ['companion'],
        summary: 'Change the settings of proactive messages; every planned message is planned again',
        body: CompanionSettingsBodySchema,
        response: { 200: CompanionSettingsSchema, ...errors },
      },
    },
    async (request) => service.updateSettings(currentUserId(request), request.body),
  );

  app.get(
    '/api/chat/:id/companion',
    {
      preHandler: requireUser,
      schema: {
        tags: ['companion'],
        summary: '"She can write to me first" in this chat: its frequency and next planned message',
        params: ChatIdParamsSchema,
        response: { 200: ChatCompanionSchema, ...errors },
      },
    },
    async (request) => {
      const userId = currentUserId(request);
      await requireOwnedChat(db, userId, request.params.id);
      return service.getChat(userId, request.params.id);
    },
  );

  app.put(
    '/api/chat/:id/companion',
    {
      preHandler: requireUser,
      config: perAccount,
      schema: {
        tags: ['companion'],
        summary: 'Turn proactive messages in this chat on (a frequency) or off',
        description: "`time_zone` (the browser's) is saved when the user has none yet. Another user's chat is a 404.",
        params: ChatIdParamsSchema,
        body: ChatCompanionBodySchema,
        response: { 200: ChatCompanionSchema, ...errors },
      },
    },
    async (request) => {
      const userId = currentUserId(request);
      await requireOwnedChat(db, userId, request.params.id);
      return service.setChat(userId, request.params.id, request.body);
    },
  );
};
