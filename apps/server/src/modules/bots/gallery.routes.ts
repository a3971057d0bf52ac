import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  BotGalleryParamsSchema,
  BotGallerySchema,
  BotGalleryUploadQuerySchema,
  BotGalleryVisibilitySchema,
  BotSlugParamsSchema,
  IMAGE_MAX_BYTES,
} from '@reverie/shared';
import { receiveMultipart, requiredFileError, type SpooledFile } from '../../lib/forms.js';
import { AppError, apiErrors } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { BotsGalleryService } from './bots.gallery.js';

const errors = apiErrors(400, 401, 404, 409);

/**
 * The author's gallery (docs/characters.md, "The author's gallery"), registered by `botsRoutes`
 * in its scope (multipart, the picture queue and the per-account upload limit).
 */
export function galleryRoutes(
  app: FastifyInstance,
  {
    gallery,
    photoLimit,
    withSpooled,
  }: {
    gallery: BotsGalleryService;
    photoLimit: (request: FastifyRequest) => Promise<void>;
    withSpooled: <T>(spooled: SpooledFile | null, work: (file: Buffer | null) => Promise<T>) => Promise<T>;
  },
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/bot/:slug/gallery',
    {
      preHandler: requireUser,
      schema: {
        tags: ['bots'],
        summary: "Every picture of one's own character's gallery, public and private",
        params: BotSlugParamsSchema,
        response: { 200: BotGallerySchema, ...errors },
      },
    },
    async (request) => gallery.list(currentUserId(request), request.params.slug),
  );

  typed.post(
    '/api/bot/:slug/gallery',
    {
      preHandler: [requireUser, photoLimit],
      schema: {
        tags: ['bots'],
        summary: "Add a picture to one's own character's gallery (multipart `file`), checked as a photo",
        params: BotSlugParamsSchema,
        querystring: BotGalleryUploadQuerySchema,
        response: {
          201: BotGallerySchema,
          ...errors,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const userId = currentUserId(request);
      if (!request.isMultipart()) throw new AppError('unsupported_media_type', { status: 415 });
      const form = await receiveMultipart(request, 'file', IMAGE_MAX_BYTES);
      if (!form.file?.size) {
        await form.file?.discard();
        throw requiredFileError(request, 'file');
      }
      const result = await withSpooled(form.file, (file) =>
        gallery.add(userId, request.params.slug, file!, request.query.visibility),
      );
      return reply.status(201).send(result);
    },
  );

  typed.patch(
    '/api/bot/:slug/gallery/:pictureId',
    {
      preHandler: requireUser,
      schema: {
        tags: ['bots'],
        summary: 'Make a gallery picture public (the page) or private (sent in chat only)',
        params: BotGalleryParamsSchema,
        body: BotGalleryVisibilitySchema,
        response: { 200: BotGallerySchema, ...errors },
      },
    },
    async (request) =>
      gallery.setVisibility(
        currentUserId(request),
        request.params.slug,
        request.params.pictureId,
        request.body.visibility,
      ),
  );

  typed.delete(
    '/api/bot/:slug/gallery/:pictureId',
    {
      preHandler: requireUser,
      schema: {
        tags: ['bots'],
        summary: 'Delete a gallery picture and its file',
        params: BotGalleryParamsSchema,
        response: { 200: BotGallerySchema, ...errors },
      },
    },
    async (request) => gallery.remove(currentUserId(request), request.params.slug, request.params.pictureId),
  );
}
