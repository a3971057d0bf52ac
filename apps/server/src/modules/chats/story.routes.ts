import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import {
  AroundQuerySchema,
  AroundSchema,
  ChatIdParamsSchema,
  ChatMessageParamsSchema,
  ChatSchema,
  ChatSearchQuerySchema,
  ChatSearchSchema,
  ChatTreeSchema,
  DeletedMessagesSchema,
  DeleteMessageQuerySchema,
  EditMessageBodySchema,
  MessageSchema,
  SuggestionsSchema,
  type ImpersonateEvent,
  type StreamEvent,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import { impersonate, suggestReplies, type ImpersonateDeps } from './impersonate.js';
import { pipeEvents } from './sse.js';
import type { StoryService } from './story.service.js';

const errors = apiErrors(400, 401, 404, 409, 429, 503);

type App = Parameters<FastifyPluginAsyncZod>[0];

/**
 * Shaping the story (issue 29, docs/chat.md "Edit, delete and branches", "Write my reply",
 * "Search in a chat"): edit and delete messages, branches, the user's next line, suggestions,
 * search and a page around a message.
 */
export const storyRoutes: FastifyPluginAsyncZod<{ story: StoryService; lines: ImpersonateDeps }> = async (
  app,
  { story, lines },
) => {
  editRoutes(app, story);
  branchRoutes(app, story);
  searchRoutes(app, story);
  lineRoutes(app, lines);
};

function editRoutes(app: App, story: StoryService): void {
  app.patch(
    '/api/chat/:id/messages/:message_id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "Edit a message: the user's own takes the text; a character's reply is rewritten as a new alternative",
        description:
          'Edited messages carry `edited_at`. A message shared with another chat of its branch tree is changed in this chat only. 409 `generation_in_progress` while a reply is written; 409 `cannot_edit` for a picture.',
        params: ChatMessageParamsSchema,
        body: EditMessageBodySchema,
        response: { 200: MessageSchema, ...errors },
      },
    },
    async (request) =>
      story.edit(currentUserId(request), request.params.id, request.params.message_id, request.body.text),
  );

  app.delete(
    '/api/chat/:id/messages/:message_id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Delete a message (a reply with its alternatives), or with `from=1` it and everything after it',
        description:
          'Answers the ids that left the history. Rows shared with another chat of the branch tree are hidden in this chat only.',
        params: ChatMessageParamsSchema,
        querystring: DeleteMessageQuerySchema,
        response: { 200: DeletedMessagesSchema, ...errors },
      },
    },
    async (request) =>
      story.delete(currentUserId(request), request.params.id, request.params.message_id, request.query.from === '1'),
  );
}

function branchRoutes(app: App, story: StoryService): void {
  app.post(
    '/api/chat/:id/messages/:message_id/branch',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'A new chat branched at this message: the history up to it, shared (constant time)',
        params: ChatMessageParamsSchema,
        response: { 201: ChatSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return story.branch(currentUserId(request), request.params.id, request.params.message_id);
    },
  );

  app.get(
    '/api/chat/:id/branches',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "The chat's branch tree: its root and every branch (name, dates, message count)",
        params: ChatIdParamsSchema,
        response: { 200: ChatTreeSchema, ...errors },
      },
    },
    async (request) => story.tree(currentUserId(request), request.params.id),
  );
}

function searchRoutes(app: App, story: StoryService): void {
  app.get(
    '/api/chat/:id/search',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Full-text search in the chat (newest first, at most 50, with the found words)',
        params: ChatIdParamsSchema,
        querystring: ChatSearchQuerySchema,
        response: { 200: ChatSearchSchema, ...errors },
      },
    },
    async (request) => story.search(currentUserId(request), request.params.id, request.query.q, request.locale),
  );

  app.get(
    '/api/chat/:id/around/:message_id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'A page of the history around a message (a search hit), newest first',
        params: ChatMessageParamsSchema,
        querystring: AroundQuerySchema,
        response: { 200: AroundSchema, ...errors },
      },
    },
    async (request) =>
      story.around(currentUserId(request), request.params.id, request.params.message_id, request.query.size),
  );
}

/** The model's request ends when the client leaves. */
function leaving(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => controller.abort());
  return controller.signal;
}

function lineRoutes(app: App, lines: ImpersonateDeps): void {
  app.post(
    '/api/chat/:id/impersonate',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: "Write my reply: the user's next line, streamed; nothing is saved or sent",
        description:
          'Answers `text/event-stream`: `delta` {text}, then `done` {text} or `error` {code, detail}. Counts as a send for the fair-use limit (429 before the stream).',
        params: ChatIdParamsSchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const events = await impersonate(lines, {
        userId: currentUserId(request),
        chatId: request.params.id,
        locale: request.locale,
        signal: leaving(reply),
      });
      // The SSE writer carries any `{event, data}`: these events are ImpersonateEvent.
      await pipeEvents(request, reply, events as AsyncIterator<ImpersonateEvent> as AsyncIterator<StreamEvent>);
    },
  );

  app.post(
    '/api/chat/:id/suggestions',
    {
      preHandler: requireUser,
      schema: {
        tags: ['chats'],
        summary: 'Three short replies the user might send next (the web asks only when the user turned them on)',
        description: 'Counts as a send for the fair-use limit. Nothing is saved.',
        params: ChatIdParamsSchema,
        response: { 200: SuggestionsSchema, ...errors },
      },
    },
    async (request, reply) => ({
      suggestions: await suggestReplies(lines, {
        userId: currentUserId(request),
        chatId: request.params.id,
        locale: request.locale,
        signal: leaving(reply),
      }),
    }),
  );
}
