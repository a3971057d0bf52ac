import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  ApiErrorSchema,
  AuthorNoteBodySchema,
  AuthorNoteSchema,
  ChatCreateBodySchema,
  ChatGetOrCreateBodySchema,
  ChatIdParamsSchema,
  ChatImportResultSchema,
  ChatListQuerySchema,
  ChatListSchema,
  ChatReadSchema,
  UnreadTotalSchema,
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
import { AppError, apiErrors } from '../../lib/errors.js';
import { receiveMultipart, requiredFileError } from '../../lib/forms.js';
import { IMPORT_MAX_BYTES } from './chat-import.js';
import { deferredGlobalLimit } from '../../plugins/security.js';
import type { ChatsService } from './chats.service.js';
import type { RepliesService } from './replies.service.js';
import { pipeEvents } from './sse.js';
import { pipeUserEvents, type UserEvents } from './user-events.js';

const errors = apiErrors(400, 401, 402, 404, 409, 422, 429);

const STREAM_NOTE =
  'Answers `text/event-stream`: `user_message`, `system_message`, `bot_message` (streaming, then final), ' +
  '`delta` {message_id, text}, `image`, `status` {message_id, status: warming_up}, `error` {code, detail, message_id}. Errors before the stream opens are JSON.';

/** The app as the route groups get it (zod schemas as the type provider). */
type App = Parameters<FastifyPluginAsyncZod>[0];

/** Chats and messages (API.md "Chats and messages", docs/chat.md). */
export const chatsRoutes: FastifyPluginAsyncZod<{
  service: ChatsService;
  replies: RepliesService;
  events: UserEvents;
}> = async (app, { service, replies, events }) => {
  app.addHook('onClose', async () => replies.close());
  chatRoutes(app, service, replies);
  openChatRoutes(app, service);
  chatSettingsRoutes(app, service);
  chatNoteAndExportRoutes(app, service);
  // Multipart is read by the import only (its own scope).
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
    importRoutes(scope, service);
  });
  sendRoutes(app, replies);
  streamRoutes(app, replies);
  messageRoutes(app, service);
  unreadRoutes(app, service, events);
};

/** A SillyTavern chat JSONL imported as a new chat (docs/chat.md "Import"). */
function importRoutes(app: App, service: ChatsService): void {
  app.post(
    '/api/chat/import',
    {
      preHandler: requireUser,
      bodyLimit: IMPORT_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['chats'],
        summary:
          'Import a SillyTavern chat JSONL (multipart `file`) as a new chat with a character (`bot_id` or `slug`)',
        description:
          'Read line by line and written in batches in one transaction. `force=true` imports a file whose `character_name` is another name. ' +
          '413 `payload_too_large` past 20 MB; 422 `import_character_mismatch`, `import_bad_line` (`errors.line`), `import_empty`, `import_too_many_messages` (100 000); 404 for a character the user may not chat with; 429 past CHAT_IMPORTS_PER_HOUR.',
        response: { 201: ChatImportResultSchema, 413: ApiErrorSchema, 415: ApiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const userId = currentUserId(request);
      if (!request.isMultipart()) throw new AppError('unsupported_media_type', { status: 415 });
      await service.takeImport(userId);
      const { fields, file } = await receiveMultipart(request, 'file', IMPORT_MAX_BYTES);
      try {
        if (!file?.size) throw requiredFileError(request, 'file');
        const one = (name: string) => {
          const value = fields[name];
          return typeof value === 'string' && value.trim() && value.length <= 100 ? value.trim() : undefined;
        };
        const ref = { botID: one('bot_id'), slug: one('slug') };
        if (!ref.botID && !ref.slug) throw requiredFileError(request, 'bot_id');
        const result = await service.importChat(userId, ref, () => file.stream(), {
          force: fields.force === 'true' || fields.force === '1',
          locale: request.locale,
        });
        return reply.status(201).send(result);
      } finally {
        await file?.discard();
      }
    },
  );
}

/** Unread state (issue 31): reading a chat, and the user's events on every replica. */
function unreadRoutes(app: App, service: ChatsService, events: UserEvents): void {
  app.get(
    '/api/chats/unread',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary:
          "The user's unread messages over all chats and joined scenes (the Chats tab's badge): characters' messages, and other people's in a scene",
        response: { 200: UnreadTotalSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => ({ total: await service.unreadTotal(currentUserId(request)) }),
  );

  app.post(
    '/api/chat/:id/read',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary:
          'The user read the chat (or a scene they are in: their own mark) through its newest message (every device clears its badges)',
        params: ChatIdParamsSchema,
        response: { 200: ChatReadSchema, ...errors },
      },
    },
    async (request) => service.markRead(currentUserId(request), request.params.id),
  );

  app.get(
    '/api/events',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "The user's events, from every replica (server-sent events)",
        description:
          'Answers `text/event-stream` of `read` {chat_id, unread_total} (a chat read on any device) and ' +
          '`unread` {chat_id, unread_total} (a character message landed). Say "look again": the truth is the chats list.',
        response: { 401: ApiErrorSchema },
      },
    },
    async (request, reply) => pipeUserEvents(request, reply, events, currentUserId(request)),
  );
}

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
        summary:
          'A page of the history, newest first: the newest, older than `c`, newer than `a`, the first, or around `at`',
        params: ChatIdParamsSchema,
        querystring: HistoryQuerySchema,
        response: { 200: HistorySchema, ...errors },
      },
    },
    async (request) => service.history(currentUserId(request), request.params.id, request.query),
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

/** A chat's author's note, and the chat exported as a file. */
function chatNoteAndExportRoutes(app: App, service: ChatsService): void {
  app.get(
    '/api/chat/:id/export',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'The chat as SillyTavern chat JSONL (`format=jsonl`) or plain text (`format=txt`), streamed',
        params: ChatIdParamsSchema,
        querystring: z.object({ format: z.enum(['jsonl', 'txt']).default('jsonl') }),
        response: { 200: z.any().describe('application/jsonl or text/plain'), ...errors },
      },
    },
    async (request, reply) => {
      const { filename, lines } = await service.exportChat(
        currentUserId(request),
        request.params.id,
        request.query.format,
      );
      return reply
        .header(
          'content-type',
          request.query.format === 'jsonl' ? 'application/jsonl; charset=utf-8' : 'text/plain; charset=utf-8',
        )
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(lines));
    },
  );

  app.get(
    '/api/chat/:id/author-note',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "The chat's author's note and the depth it goes in at",
        params: ChatIdParamsSchema,
        response: { 200: AuthorNoteSchema, ...errors },
      },
    },
    async (request) => service.getAuthorNote(currentUserId(request), request.params.id),
  );

  app.put(
    '/api/chat/:id/author-note',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "Edit the chat's author's note (≤ 2000 characters, '' for none) and its depth (0–100)",
        params: ChatIdParamsSchema,
        body: AuthorNoteBodySchema,
        response: { 200: AuthorNoteSchema, ...errors },
      },
    },
    async (request) => service.setAuthorNote(currentUserId(request), request.params.id, request.body),
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
