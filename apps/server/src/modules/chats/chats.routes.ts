import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiErrorSchema,
  ChatCreateBodySchema,
  ChatGetOrCreateBodySchema,
  ChatIdParamsSchema,
  ChatListQuerySchema,
  ChatListSchema,
  ChatMemoryBodySchema,
  ChatMemorySchema,
  ChatMessageParamsSchema,
  ChatSchema,
  ChatUpdateBodySchema,
  HistoryQuerySchema,
  HistorySchema,
  MessageSchema,
  ModelListSchema,
  ReportMessageBodySchema,
  SelectAlternativeBodySchema,
  SendMessageBodySchema,
} from '@reverie/shared';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import { deferredGlobalLimit } from '../../plugins/security.js';
import type { ChatsService } from './chats.service.js';
import type { RepliesService } from './replies.service.js';
import { pipeEvents } from './sse.js';

const errors = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  402: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
  422: ApiErrorSchema,
  429: ApiErrorSchema,
};

const STREAM_NOTE =
  'Answers `text/event-stream`: `user_message`, `system_message`, `bot_message` (streaming, then final), ' +
  '`delta` {message_id, text}, `image`, `status` {message_id, status: warming_up}, `error` {code, detail, message_id}. Errors before the stream opens are JSON.';

/** The app as the route groups get it (zod schemas as the type provider). */
type App = Parameters<FastifyPluginAsyncZod>[0];

/** Chats and messages (API.md "Chats and messages", docs/chat.md). */
export const chatsRoutes: FastifyPluginAsyncZod<{ service: ChatsService; replies: RepliesService }> = async (
  app,
  { service, replies },
) => {
  app.addHook('onClose', async () => replies.close());
  chatRoutes(app, service, replies);
  openChatRoutes(app, service);
  chatSettingsRoutes(app, service);
  sendRoutes(app, replies);
  streamRoutes(app, replies);
  messageRoutes(app, service);
};

/** The user's chats: the list, one chat, deleting one. */
function chatRoutes(app: App, service: ChatsService, replies: RepliesService): void {
  app.get(
    '/api/chats/available',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "The user's chats, newest activity first",
        description:
          '`q` keeps the chats whose character name, title or message text contains it (any case); ' +
          "`bot_id` keeps one character's chats (the chat menu's history).",
        querystring: ChatListQuerySchema,
        response: { 200: ChatListSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => service.list(currentUserId(request), request.query),
  );

  app.get(
    '/api/chat/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "One of the user's chats (another user's is a 404)",
        params: ChatIdParamsSchema,
        response: { 200: ChatSchema, ...errors },
      },
    },
    async (request) => service.get(currentUserId(request), request.params.id),
  );

  app.delete(
    '/api/chat/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Delete a chat: its messages, pictures and voice files go too',
        description: "A reply still being written is stopped first. Another user's chat is a 404.",
        params: ChatIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const userId = currentUserId(request);
      await replies.stop(userId, request.params.id);
      await service.delete(userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** Opening a chat (new, or the latest with a character) and reading its history. */
function openChatRoutes(app: App, service: ChatsService): void {
  app.post(
    '/api/chat/create',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "A new chat with a character; it starts with the character's greeting",
        body: ChatCreateBodySchema,
        response: { 201: ChatSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.create(currentUserId(request), { botID: request.body.botID }, request.locale);
    },
  );

  app.post(
    '/api/chat/get_or_create',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "The user's latest chat with a character (by id or slug), else a new one",
        body: ChatGetOrCreateBodySchema,
        response: { 200: ChatSchema, ...errors },
      },
    },
    async (request) => service.getOrCreate(currentUserId(request), request.body, request.locale),
  );

  app.get(
    '/api/chat/history/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'A page of the history, newest first (keyset cursor `c`)',
        params: ChatIdParamsSchema,
        querystring: HistoryQuerySchema,
        response: { 200: HistorySchema, ...errors },
      },
    },
    async (request) => service.history(currentUserId(request), request.params.id, request.query.c, request.query.size),
  );
}

/** A chat's persona, model, title and memory; the model catalogue. */
function chatSettingsRoutes(app: App, service: ChatsService): void {
  app.patch(
    '/api/chat/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "The chat's persona, model (premium models need premium) and title (1..80 characters, null clears it)",
        params: ChatIdParamsSchema,
        body: ChatUpdateBodySchema,
        response: { 200: ChatSchema, ...errors },
      },
    },
    async (request) => service.update(currentUserId(request), request.params.id, request.body),
  );

  app.get(
    '/api/models',
    {
      schema: {
        tags: ['chats'],
        summary: 'The model catalogue; `available` says whether the user may pick it',
        response: { 200: ModelListSchema },
      },
    },
    async (request) => service.models(request.userId),
  );

  app.get(
    '/api/chat/:id/memory',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'What the character remembers of older messages',
        params: ChatIdParamsSchema,
        response: { 200: ChatMemorySchema, ...errors },
      },
    },
    async (request) => service.getMemory(currentUserId(request), request.params.id),
  );

  app.put(
    '/api/chat/:id/memory',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "Edit the chat's memory",
        params: ChatIdParamsSchema,
        body: ChatMemoryBodySchema,
        response: { 200: ChatMemorySchema, ...errors },
      },
    },
    async (request) => service.setMemory(currentUserId(request), request.params.id, request.body.memory),
  );
}

/** Sending a message and regenerating a reply: the reply streams back. */
function sendRoutes(app: App, replies: RepliesService): void {
  // The global per-IP limit is counted with the send's fair-use count, alongside the chat's read.
  const globalLimit = deferredGlobalLimit(app);
  app.post(
    '/api/chat/:id/messages',
    {
      ...globalLimit.route,
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Send a message; the reply streams back',
        description: `${STREAM_NOTE} The same client_id again never makes a second message: it re-attaches.`,
        params: ChatIdParamsSchema,
        body: SendMessageBodySchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const events = await replies.send(currentUserId(request), request.params.id, request.body, request.locale, {
        admitted: globalLimit.admitted(request, reply),
      });
      await pipeEvents(request, reply, events);
    },
  );

  app.post(
    '/api/chat/:id/messages/:message_id/regenerate',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'A new alternative of a bot reply (a failed reply is retried in place)',
        description: STREAM_NOTE,
        params: ChatMessageParamsSchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const events = await replies.regenerate(
        currentUserId(request),
        request.params.id,
        request.params.message_id,
        request.locale,
      );
      await pipeEvents(request, reply, events);
    },
  );
}

/** Re-attaching to a reply and stopping the chat's live reply. */
function streamRoutes(app: App, replies: RepliesService): void {
  app.get(
    '/api/chat/:id/stream/:message_id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Re-attach to a reply: its running generation, else its final message',
        description: STREAM_NOTE,
        params: ChatMessageParamsSchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const events = await replies.attach(
        currentUserId(request),
        request.params.id,
        request.params.message_id,
        request.locale,
      );
      await pipeEvents(request, reply, events);
    },
  );

  app.post(
    '/api/chat/:id/stop',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Stop the running reply; its partial text is kept',
        params: ChatIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await replies.stop(currentUserId(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** Showing another alternative of a reply (swipe) and reporting a message. */
function messageRoutes(app: App, service: ChatsService): void {
  app.post(
    '/api/chat/:id/messages/:message_id/select',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Show another alternative of a bot reply (swipe)',
        params: ChatMessageParamsSchema,
        body: SelectAlternativeBodySchema,
        response: { 200: MessageSchema, ...errors },
      },
    },
    async (request) =>
      service.select(currentUserId(request), request.params.id, request.params.message_id, request.body.index),
  );

  app.post(
    '/api/chat/:id/messages/:message_id/report',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Report a message to the moderators',
        params: ChatMessageParamsSchema,
        body: ReportMessageBodySchema,
        response: { 201: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (request, reply) => {
      await service.report(currentUserId(request), request.params.id, request.params.message_id, request.body);
      reply.code(201);
      return { ok: true as const };
    },
  );
}
