import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiErrorSchema,
  BotCreateSchema,
  BotDetailSchema,
  BotListQuerySchema,
  BotListSchema,
  BotMineListSchema,
  BotMineQuerySchema,
  BotPopularListSchema,
  CreatorPageSchema,
  CreatorParamsSchema,
  BotSlugParamsSchema,
  BotUpdateSchema,
  CARD_MAX_BYTES,
  IMAGE_MAX_BYTES,
  type BotCreate,
  type BotList,
} from '@reverie/shared';
import { receiveMultipart, requiredFileError, translatedFieldErrors, type SpooledFile } from '../../lib/forms.js';
import type { PictureWork } from '../../lib/picture-work.js';
import { AppError, apiErrors } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import { COMPRESS_MIN_BYTES, preferredEncoding } from '../../plugins/compression.js';
import { CardFieldsError } from './card.js';
import { CachedPage } from './catalogue-cache.js';
import type { BotsService } from './bots.service.js';
import type { BotsGalleryService } from './bots.gallery.js';
import { galleryRoutes } from './gallery.routes.js';

const errorResponses = apiErrors(400, 401, 404, 413, 415, 422);

/** Validates the create fields as the schema-validated routes do: 400 with `errors.{field}`. */
function parseCreateFields(request: FastifyRequest, raw: unknown): BotCreate {
  const parsed = BotCreateSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues)
    (errors[String(issue.path[0] ?? 'non_field_errors')] ??= []).push(issue.message);
  throw translatedFieldErrors(request.locale, errors);
}

/** Characters and personas: the catalogue, pages, creation, card import and export. */
export const botsRoutes: FastifyPluginAsyncZod<{
  service: BotsService;
  gallery: BotsGalleryService;
  pictureWork: PictureWork;
}> = async (app, { service, gallery, pictureWork }) => {
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1 } });

  app.get(
    '/api/bots/available',
    {
      schema: {
        tags: ['bots'],
        summary:
          'The catalogue, newest first (30 first, then 15 through next_param); `q` searches names, tags, descriptions and greetings in every language, best match first',
        querystring: BotListQuerySchema,
        response: { 200: BotListSchema, 400: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      if (request.userId || !service.guestCatalogueCached)
        return service.listAvailableBots(request.userId ?? null, request.query, request.locale);
      // A guest's page is the same for every guest: sent as cached, compressed once.
      // A fresh page held by this process and its compressed copy are sent without an await.
      const held = service.guestCataloguePage(request.query, request.locale);
      const page = held instanceof CachedPage ? held : await held;
      // The official characters' texts are in the reader's language (Accept-Language).
      reply.type('application/json; charset=utf-8').header('vary', 'Accept-Encoding, Accept-Language');
      const encoding =
        page.json.length >= COMPRESS_MIN_BYTES ? preferredEncoding(request.headers['accept-encoding']) : null;
      // The JSON as serialised once (Fastify sends a Buffer as it is, unchecked by the schema).
      const body =
        !encoding || request.method === 'HEAD'
          ? page.json
          : (page.encodedNow(encoding) ?? (await page.encoded(encoding)));
      if (encoding && request.method !== 'HEAD') reply.header('content-encoding', encoding);
      return reply.send(body as unknown as BotList);
    },
  );

  app.get(
    '/api/bots/popular',
    {
      schema: {
        tags: ['bots'],
        summary:
          'Popular this week: the listed characters most people chatted with in the last 7 days (ranked every 10 min)',
        response: { 200: BotPopularListSchema },
      },
    },
    async (request) => service.popularThisWeek(request.userId ?? null),
  );

  app.get(
    '/api/creators/:id',
    {
      schema: {
        tags: ['bots'],
        summary: "A creator's page: their name and public characters; 404 when hidden or without any",
        params: CreatorParamsSchema,
        response: { 200: CreatorPageSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => service.creatorPage(request.params.id, request.userId ?? null),
  );

  app.get(
    '/api/bots/mine',
    {
      preHandler: requireUser,
      schema: {
        tags: ['bots'],
        summary: "The user's own characters and personas (kind=persona for personas)",
        querystring: BotMineQuerySchema,
        response: { 200: BotMineListSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => ({ results: await service.listMyBots(currentUserId(request), request.query.kind) }),
  );

  app.get(
    '/api/bot/:slug',
    {
      schema: {
        tags: ['bots'],
        summary: 'One character; private ones only for their author',
        params: BotSlugParamsSchema,
        response: { 200: BotDetailSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => service.getBotDetail(request.params.slug, request.userId ?? null, request.locale),
  );

  // Picture uploads per user, counted before the body is read (CHARACTER_PHOTOS_PER_HOUR); a
  // full picture queue answers 503 before the body is read too.
  const photoLimit = async (request: FastifyRequest) => {
    pictureWork.refuseWhenFull();
    if (request.isMultipart()) await service.takePhotoUpload(currentUserId(request));
  };
  // The upload waits on disk for its turn; its bytes are read into memory only then.
  const withSpooled = async <T>(spooled: SpooledFile | null, work: (file: Buffer | null) => Promise<T>) => {
    try {
      return await pictureWork.run(async () => work(spooled ? await spooled.read() : null));
    } finally {
      await spooled?.discard();
    }
  };

  galleryRoutes(app, { gallery, photoLimit, withSpooled });

  app.post(
    '/api/bot/create',
    {
      preHandler: [requireUser, photoLimit],
      schema: {
        tags: ['bots'],
        summary: 'Create a character or persona (multipart with `photo`, or JSON)',
        response: { 201: BotDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const userId = currentUserId(request);
      let raw: unknown = request.body;
      let spooled: SpooledFile | null = null;
      if (request.isMultipart()) {
        const form = await receiveMultipart(request, 'photo', IMAGE_MAX_BYTES);
        raw = form.fields;
        spooled = form.file;
      }
      let input: BotCreate;
      try {
        input = parseCreateFields(request, raw);
      } catch (error) {
        await spooled?.discard();
        throw error;
      }
      const created = await withSpooled(spooled, (photo) =>
        service.createBot(userId, input, photo && photo.length ? photo : null),
      );
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/api/bot/import',
    {
      preHandler: [requireUser, photoLimit],
      bodyLimit: CARD_MAX_BYTES,
      schema: {
        tags: ['bots'],
        summary: 'Import a Character Card V1/V2/V3 (multipart `file`: PNG or JSON; or a JSON body)',
        response: { 201: BotDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const userId = currentUserId(request);
      let spooled: SpooledFile | null = null;
      let body: Buffer | null = null;
      let visibility: 'public' | 'private' = 'private';
      if (request.isMultipart()) {
        const form = await receiveMultipart(request, 'file', CARD_MAX_BYTES);
        spooled = form.file;
        if (form.fields.visibility === 'public') visibility = 'public';
      } else if (request.body && typeof request.body === 'object') {
        // Parsed by the JSON body parser, so already bounded in depth.
        body = Buffer.from(JSON.stringify(request.body), 'utf8');
      }
      if (!spooled?.size && !body?.length) {
        await spooled?.discard();
        throw requiredFileError(request, 'file');
      }
      try {
        const imported = await withSpooled(spooled, (file) => service.importBotCard(userId, file ?? body!, visibility));
        return reply.status(201).send(imported);
      } catch (error) {
        if (error instanceof CardFieldsError) throw translatedFieldErrors(request.locale, error.errors);
        throw error;
      }
    },
  );

  app.patch(
    '/api/bot/:slug',
    {
      preHandler: requireUser,
      schema: {
        tags: ['bots'],
        summary: "Edit one's own character; a rejected one goes back to the review queue",
        params: BotSlugParamsSchema,
        body: BotUpdateSchema,
        response: { 200: BotDetailSchema, ...errorResponses },
      },
    },
    async (request) => service.updateOwnBot(currentUserId(request), request.params.slug, request.body),
  );

  app.delete(
    '/api/bot/:slug',
    {
      preHandler: requireUser,
      schema: {
        tags: ['bots'],
        summary:
          "Delete one's own character or persona: gone from every list and page; other people's chats with it keep their history",
        params: BotSlugParamsSchema,
        response: { 204: z.null(), 400: ApiErrorSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      await service.deleteOwnBot(currentUserId(request), request.params.slug);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/bot/:slug/duplicate',
    {
      preHandler: requireUser,
      schema: {
        tags: ['bots'],
        summary: "A private copy of one's own character or persona (texts, voice, avatar)",
        params: BotSlugParamsSchema,
        response: {
          201: BotDetailSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.duplicateOwnBot(currentUserId(request), request.params.slug)),
  );

  app.put(
    '/api/bot/:slug/photo',
    {
      preHandler: [requireUser, photoLimit],
      schema: {
        tags: ['bots'],
        summary: "Replace the photo of one's own character or persona (multipart `photo`), checked as at creation",
        params: BotSlugParamsSchema,
        response: { 200: BotDetailSchema, ...errorResponses, 429: ApiErrorSchema },
      },
    },
    async (request) => {
      const userId = currentUserId(request);
      if (!request.isMultipart()) throw new AppError('unsupported_media_type', { status: 415 });
      const form = await receiveMultipart(request, 'photo', IMAGE_MAX_BYTES);
      if (!form.file?.size) {
        await form.file?.discard();
        throw requiredFileError(request, 'photo');
      }
      return withSpooled(form.file, (photo) => service.replaceOwnPhoto(userId, request.params.slug, photo!));
    },
  );

  app.get(
    '/api/bot/:slug/card.png',
    {
      schema: {
        tags: ['bots'],
        summary: 'The character as a card PNG with `chara` (V2) and `ccv3` (V3) chunks',
        params: BotSlugParamsSchema,
        response: { 200: z.any().describe('image/png'), 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const { png, row } = await service.exportCardPng(request.params.slug, request.userId ?? null, request.locale);
      return reply
        .header('content-type', 'image/png')
        .header('content-disposition', `attachment; filename="${row.slug}.png"`)
        .header('cache-control', 'private, no-store')
        .send(png);
    },
  );

  app.get(
    '/api/bot/:slug/card.json',
    {
      schema: {
        tags: ['bots'],
        summary: 'The character as a card JSON (V3 by default, `?spec=v2` for V2)',
        params: BotSlugParamsSchema,
        querystring: z.object({ spec: z.enum(['v2', 'v3']).default('v3') }),
        response: { 200: z.any().describe('Character Card JSON'), 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const card = await service.exportCardJson(
        request.params.slug,
        request.userId ?? null,
        request.query.spec,
        request.locale,
      );
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${request.params.slug}.json"`)
        .header('cache-control', 'private, no-store')
        .send(JSON.stringify(card));
    },
  );
};
