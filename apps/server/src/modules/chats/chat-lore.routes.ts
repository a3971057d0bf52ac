import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChatIdParamsSchema,
  ChatLorebooksBodySchema,
  ChatLorebooksSchema,
  PromptTraceParamsSchema,
  PromptTraceSchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { ChatLore } from './chat-lore.js';

const errors = apiErrors(400, 401, 404, 429);

/** A chat's lorebooks and a reply's "what went into the prompt" (docs/lorebooks.md). */
export const chatLoreRoutes: FastifyPluginAsyncZod<{ lore: ChatLore }> = async (app, { lore }) => {
  app.get(
    '/api/chat/:id/lorebooks',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "The user's lorebooks and which are attached to the chat (global ones are used in every chat)",
        params: ChatIdParamsSchema,
        response: { 200: ChatLorebooksSchema, ...errors },
      },
    },
    async (request) => lore.list(currentUserId(request), request.params.id),
  );

  app.put(
    '/api/chat/:id/lorebooks',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "Attach exactly these of the user's lorebooks to the chat (at most 10)",
        params: ChatIdParamsSchema,
        body: ChatLorebooksBodySchema,
        response: { 200: ChatLorebooksSchema, ...errors },
      },
    },
    async (request) => lore.set(currentUserId(request), request.params.id, request.body.lorebook_ids),
  );

  app.get(
    '/api/chat/:id/messages/:messageId/prompt',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary:
          "What went into a reply's prompt: the lore entries that fired and why, the author's note, the memories",
        params: PromptTraceParamsSchema,
        response: { 200: PromptTraceSchema, ...errors },
      },
    },
    async (request) => lore.trace(currentUserId(request), request.params.id, request.params.messageId),
  );
};
