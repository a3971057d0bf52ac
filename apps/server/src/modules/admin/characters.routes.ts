import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminCharacterInputSchema,
  AdminCharacterListQuerySchema,
  AdminCharacterListSchema,
  AdminCharacterPatchSchema,
  AdminCharacterSchema,
  AdminCountSchema,
  AdminIdParamsSchema,
  AdminPictureOrderSchema,
  AdminPictureParamsSchema,
  AdminPictureVisibilitySchema,
  AdminReasonBodySchema,
  AdminVisibilitySchema,
  AdminVoicesSchema,
  CARD_MAX_BYTES,
  IMAGE_MAX_BYTES,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { readUpload, translatedFieldErrors } from '../../lib/forms.js';
import { currentUserId } from '../../plugins/auth.js';
import { CardFieldsError } from '../bots/index.js';
import type { AdminCharactersService } from './characters.service.js';

const errors = apiErrors(400, 401, 403, 404, 409, 413, 422);

/**
 * The console's Characters section (`/api/admin/characters…`: official characters, their
 * gallery, voice, publishing, card import, unpublishing any public character) and the review
 * queue of public custom characters (`/api/admin/review…`). docs/admin.md.
 */
export const adminCharactersRoutes: FastifyPluginAsyncZod<{ service: AdminCharactersService }> = async (
  app,
  { service },
) => {
  await app.register(multipart, { limits: { fileSize: CARD_MAX_BYTES, files: 1 } });
  const tags = ['admin'];

  app.get(
    '/characters',
    {
      schema: {
        tags,
        summary: 'Official characters (or every public one, scope=public), newest first, with a search',
        querystring: AdminCharacterListQuerySchema,
        response: { 200: AdminCharacterListSchema, ...errors },
      },
    },
    async (request) => service.list(request.query),
  );

  app.get(
    '/characters/voices',
    {
      schema: { tags, summary: 'The voices a character may be given', response: { 200: AdminVoicesSchema, ...errors } },
    },
    async () => service.voices(),
  );

  app.post(
    '/characters',
    {
      schema: {
        tags,
        summary: 'Create an official character (every card field)',
        body: AdminCharacterInputSchema,
        response: { 201: AdminCharacterSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(currentUserId(request), request.body)),
  );

  app.post(
    '/characters/import',
    {
      bodyLimit: CARD_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Import a Character Card V1/V2/V3 (multipart `file`: PNG or JSON) as an official character',
        response: { 201: AdminCharacterSchema, ...errors },
      },
    },
    async (request, reply) => {
      const form = await readUpload(request, 'file', CARD_MAX_BYTES);
      const visibility = form.fields.visibility === 'public' ? 'public' : 'private';
      try {
        return reply.status(201).send(await service.importCard(currentUserId(request), form.file, visibility));
      } catch (error) {
        if (error instanceof CardFieldsError) throw translatedFieldErrors(request.locale, error.errors);
        throw error;
      }
    },
  );

  app.get(
    '/characters/:id',
    {
      schema: {
        tags,
        summary: 'One character with every card field',
        params: AdminIdParamsSchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.one(request.params.id),
  );

  app.patch(
    '/characters/:id',
    {
      schema: {
        tags,
        summary: 'Edit any card field, the voice or the visibility of a character',
        params: AdminIdParamsSchema,
        body: AdminCharacterPatchSchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.update(currentUserId(request), request.params.id, request.body),
  );

  app.post(
    '/characters/:id/visibility',
    {
      schema: {
        tags,
        summary: 'Publish or unpublish an official character',
        params: AdminIdParamsSchema,
        body: AdminVisibilitySchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.setVisibility(currentUserId(request), request.params.id, request.body.visibility),
  );

  app.post(
    '/characters/:id/unpublish',
    {
      schema: {
        tags,
        summary: 'Unpublish any public character (official or custom) with a reason',
        params: AdminIdParamsSchema,
        body: AdminReasonBodySchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.unpublish(currentUserId(request), request.params.id, request.body.reason),
  );

  app.post(
    '/characters/:id/pictures',
    {
      bodyLimit: IMAGE_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Add a gallery picture (multipart `file`; the photo check of every character picture)',
        params: AdminIdParamsSchema,
        response: { 201: AdminCharacterSchema, ...errors },
      },
    },
    async (request, reply) => {
      const form = await readUpload(request, 'file', IMAGE_MAX_BYTES);
      return reply.status(201).send(await service.addPicture(currentUserId(request), request.params.id, form.file));
    },
  );

  app.put(
    '/characters/:id/pictures/order',
    {
      schema: {
        tags,
        summary: "Put the gallery's pictures in this order",
        params: AdminIdParamsSchema,
        body: AdminPictureOrderSchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.reorderPictures(currentUserId(request), request.params.id, request.body.order),
  );

  app.post(
    '/characters/:id/pictures/:pictureId/avatar',
    {
      schema: {
        tags,
        summary: 'Make a gallery picture the avatar',
        params: AdminPictureParamsSchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.chooseAvatar(currentUserId(request), request.params.id, request.params.pictureId),
  );

  app.put(
    '/characters/:id/pictures/:pictureId/visibility',
    {
      schema: {
        tags,
        summary: 'Make a picture public (on the page) or private (sent in chat only; never the avatar)',
        params: AdminPictureParamsSchema,
        body: AdminPictureVisibilitySchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) =>
      service.setPictureVisibility(
        currentUserId(request),
        request.params.id,
        request.params.pictureId,
        request.body.visibility,
      ),
  );

  app.delete(
    '/characters/:id/pictures/:pictureId',
    {
      schema: {
        tags,
        summary: 'Delete a gallery picture (and its file)',
        params: AdminPictureParamsSchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.removePicture(currentUserId(request), request.params.id, request.params.pictureId),
  );

  app.get(
    '/review',
    {
      schema: {
        tags,
        summary: 'Public custom characters waiting for a review, oldest first',
        response: { 200: z.object({ results: z.array(AdminCharacterSchema) }), ...errors },
      },
    },
    async () => service.pending(),
  );

  app.get(
    '/review/count',
    {
      schema: {
        tags,
        summary: 'How many characters wait for a review',
        response: { 200: AdminCountSchema, ...errors },
      },
    },
    async () => service.pendingCount(),
  );

  app.post(
    '/review/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve a pending character: listed under Custom',
        params: AdminIdParamsSchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.approve(currentUserId(request), request.params.id),
  );

  app.post(
    '/review/:id/reject',
    {
      schema: {
        tags,
        summary: 'Reject a pending character with a reason (e-mailed to the author, shown on the character)',
        params: AdminIdParamsSchema,
        body: AdminReasonBodySchema,
        response: { 200: AdminCharacterSchema, ...errors },
      },
    },
    async (request) => service.reject(currentUserId(request), request.params.id, request.body.reason),
  );
};
