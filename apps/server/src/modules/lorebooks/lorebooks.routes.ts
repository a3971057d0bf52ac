import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CharacterParamsSchema,
  LOREBOOK_IMPORT_MAX_BYTES,
  LoreEntryBodySchema,
  LoreEntryParamsSchema,
  LoreEntryPatchSchema,
  LoreEntrySchema,
  LorebookCreateBodySchema,
  LorebookEntriesImportBodySchema,
  LorebookExportQuerySchema,
  LorebookIdParamsSchema,
  LorebookImportBodySchema,
  LorebookListSchema,
  LorebookImportResultSchema,
  LorebookSchema,
  LorebookUpdateBodySchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { z } from 'zod';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { LorebooksService } from './lorebooks.service.js';

const errors = apiErrors(400, 401, 404, 409, 413, 429);
const tags = ['lorebooks'];
const importLimit = { bodyLimit: LOREBOOK_IMPORT_MAX_BYTES + 64 * 1024 };

/** Lorebooks' API (docs/lorebooks.md "HTTP API"): the user's own books and the characters they wrote. */
export const lorebooksRoutes: FastifyPluginAsyncZod<{ service: LorebooksService }> = async (app, { service }) => {
  app.get(
    '/api/lorebooks',
    {
      preHandler: requireUser,
      schema: { tags, summary: "The user's own lorebooks", response: { 200: LorebookListSchema, ...errors } },
    },
    async (request) => service.list(currentUserId(request)),
  );

  app.post(
    '/api/lorebooks',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'A new lorebook of the user (at most 50: 409 `lorebooks_full`)',
        body: LorebookCreateBodySchema,
        response: { 201: LorebookSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(currentUserId(request), request.body)),
  );

  app.post(
    '/api/lorebooks/import',
    {
      ...importLimit,
      preHandler: requireUser,
      schema: {
        tags,
        summary: "A new lorebook from a SillyTavern World Info file or a card's `character_book`",
        body: LorebookImportBodySchema,
        response: { 201: LorebookImportResultSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.importNew(currentUserId(request), request.body)),
  );

  app.get(
    '/api/characters/:botId/lorebook',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The character's lorebook, for its author (made from the card's book on first open)",
        params: CharacterParamsSchema,
        response: { 200: LorebookSchema, ...errors },
      },
    },
    async (request) => service.characterBook(currentUserId(request), request.params.botId),
  );

  app.get(
    '/api/lorebooks/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'One lorebook with its entries',
        params: LorebookIdParamsSchema,
        response: { 200: LorebookSchema, ...errors },
      },
    },
    async (request) => service.get(currentUserId(request), request.params.id),
  );

  app.patch(
    '/api/lorebooks/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Edit a lorebook's name, description, scan depth, token budget, and (a user's book) whether it is global",
        params: LorebookIdParamsSchema,
        body: LorebookUpdateBodySchema,
        response: { 200: LorebookSchema, ...errors },
      },
    },
    async (request) => service.update(currentUserId(request), request.params.id, request.body),
  );

  app.delete(
    '/api/lorebooks/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Delete a user's lorebook (a character's: 409 `character_book`)",
        params: LorebookIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.delete(currentUserId(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/lorebooks/:id/import',
    {
      ...importLimit,
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Entries from a World Info file or a card's book, added (`append`) or replacing the book's (`replace`)",
        params: LorebookIdParamsSchema,
        body: LorebookEntriesImportBodySchema,
        response: { 200: LorebookImportResultSchema, ...errors },
      },
    },
    async (request) => service.importInto(currentUserId(request), request.params.id, request.body),
  );

  app.get(
    '/api/lorebooks/:id/export',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The book as SillyTavern World Info JSON (`format=world_info`) or a card's `character_book`",
        params: LorebookIdParamsSchema,
        querystring: LorebookExportQuerySchema,
        response: { 200: z.any().describe('World Info JSON or character_book'), ...errors },
      },
    },
    async (request, reply) => {
      const data = await service.export(currentUserId(request), request.params.id, request.query.format);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="lorebook-${request.params.id}.json"`)
        .header('cache-control', 'private, no-store')
        .send(JSON.stringify(data));
    },
  );

  app.post(
    '/api/lorebooks/:id/entries',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'A new entry (at most 500 per book: 409 `lorebook_full`)',
        params: LorebookIdParamsSchema,
        body: LoreEntryBodySchema,
        response: { 201: LoreEntrySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createEntry(currentUserId(request), request.params.id, request.body)),
  );

  app.patch(
    '/api/lorebooks/:id/entries/:entryId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Edit an entry',
        params: LoreEntryParamsSchema,
        body: LoreEntryPatchSchema,
        response: { 200: LoreEntrySchema, ...errors },
      },
    },
    async (request) =>
      service.updateEntry(currentUserId(request), request.params.id, request.params.entryId, request.body),
  );

  app.delete(
    '/api/lorebooks/:id/entries/:entryId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete an entry',
        params: LoreEntryParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteEntry(currentUserId(request), request.params.id, request.params.entryId);
      return reply.code(204).send(null);
    },
  );
};
