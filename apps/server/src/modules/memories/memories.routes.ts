import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CharacterParamsSchema,
  JournalListQuerySchema,
  JournalListSchema,
  JournalSettingsBodySchema,
  JournalSettingsSchema,
  MemoryCreateBodySchema,
  MemoryForgetAllResultSchema,
  MemoryHistorySchema,
  MemoryIdParamsSchema,
  MemoryListQuerySchema,
  MemoryListSchema,
  MemorySchema,
  MemoryUpdateBodySchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { z } from 'zod';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { MemoriesService } from './memories.service.js';

const errors = apiErrors(400, 401, 404, 409, 422, 429);
const tags = ['memories'];

/** The memory page's API (docs/memory.md "HTTP API"); every path is the signed-in user's own. */
export const memoriesRoutes: FastifyPluginAsyncZod<{ service: MemoriesService }> = async (app, { service }) => {
  app.get(
    '/api/characters/:botId/memories',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'What the character remembers about the user: pinned first then newest, or the best matches of `q`',
        params: CharacterParamsSchema,
        querystring: MemoryListQuerySchema,
        response: { 200: MemoryListSchema, ...errors },
      },
    },
    async (request) => service.list(currentUserId(request), request.params.botId, request.query),
  );

  app.post(
    '/api/characters/:botId/memories',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Add a memory by hand (the content policy applies: 422 `memory_refused`); 200 when the pair already had it (merged there)',
        params: CharacterParamsSchema,
        body: MemoryCreateBodySchema,
        response: { 200: MemorySchema, 201: MemorySchema, ...errors },
      },
    },
    async (request, reply) => {
      const { memory, created } = await service.create(currentUserId(request), request.params.botId, request.body);
      return reply.code(created ? 201 : 200).send(memory);
    },
  );

  app.delete(
    '/api/characters/:botId/memories',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Forget everything the character remembers about the user',
        params: CharacterParamsSchema,
        response: { 200: MemoryForgetAllResultSchema, ...errors },
      },
    },
    async (request) => service.forgetAll(currentUserId(request), request.params.botId),
  );

  app.get(
    '/api/memories/:id',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'One memory', params: MemoryIdParamsSchema, response: { 200: MemorySchema, ...errors } },
    },
    async (request) => service.get(currentUserId(request), request.params.id),
  );

  app.patch(
    '/api/memories/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Correct, pin or unpin a memory (a new revision; the history keeps the previous ones)',
        params: MemoryIdParamsSchema,
        body: MemoryUpdateBodySchema,
        response: { 200: MemorySchema, ...errors },
      },
    },
    async (request) => service.update(currentUserId(request), request.params.id, request.body),
  );

  app.delete(
    '/api/memories/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Forget a memory: gone with its history, never in a later prompt',
        params: MemoryIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.forget(currentUserId(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/memories/:id/history',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "A memory's revisions, newest first",
        params: MemoryIdParamsSchema,
        response: { 200: MemoryHistorySchema, ...errors },
      },
    },
    async (request) => service.history(currentUserId(request), request.params.id),
  );

  app.get(
    '/api/characters/:botId/journal',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The character's journal with the user (whether it is on, entries newest day first)",
        params: CharacterParamsSchema,
        querystring: JournalListQuerySchema,
        response: { 200: JournalListSchema, ...errors },
      },
    },
    async (request) =>
      service.journal(currentUserId(request), request.params.botId, request.query.size, request.query.c),
  );

  app.put(
    '/api/characters/:botId/journal',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Turn the journal on or off for this character (off by default)',
        params: CharacterParamsSchema,
        body: JournalSettingsBodySchema,
        response: { 200: JournalSettingsSchema, ...errors },
      },
    },
    async (request) => service.setJournal(currentUserId(request), request.params.botId, request.body.enabled),
  );
};
