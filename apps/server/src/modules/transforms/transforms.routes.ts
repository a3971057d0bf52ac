import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiErrorSchema,
  IMAGE_MAX_BYTES,
  TransformListSchema,
  TransformParamsSchema,
  TransformPaymentBodySchema,
  TransformPaymentSchema,
  TransformPreviewSchema,
  TransformSchema,
  TransformStepSchema,
  TransformVerifyBodySchema,
} from '@reverie/shared';
import { AppError, apiErrors } from '../../lib/errors.js';
import { receiveMultipart, type SpooledFile } from '../../lib/forms.js';
import type { PictureWork } from '../../lib/picture-work.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { TransformsService } from './transforms.service.js';

const errors = apiErrors(400, 401, 404, 409);

/** Reads the multipart form: the file `image` (≤ 5 MB, else 413; spooled to disk) and the field `style`. */
async function readImageForm(request: FastifyRequest): Promise<{ image: SpooledFile | null; style: string }> {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type', { status: 415 });
  const form = await receiveMultipart(request, 'image', IMAGE_MAX_BYTES, { fields: 5, fieldSize: 200 });
  const style = form.fields.style ?? '';
  return { image: form.file, style: Array.isArray(style) ? style.at(-1)! : style };
}

/** The image style transform (API.md "Image style transform", docs/transform.md). */
export const transformRoutes: FastifyPluginAsyncZod<{ service: TransformsService; pictureWork: PictureWork }> = async (
  app,
  { service, pictureWork },
) => {
  // A full picture queue answers 503 before the body is read; the photo waits on disk for its
  // turn and is read into memory only then.
  const refuseWhenBusy = async () => pictureWork.refuseWhenFull();
  const withImage = async <T>(request: FastifyRequest, work: (image: Buffer | null, style: string) => Promise<T>) => {
    const form = await readImageForm(request);
    try {
      return await pictureWork.run(async () => work(form.image ? await form.image.read() : null, form.style));
    } finally {
      await form.image?.discard();
    }
  };
  // Multipart in this plugin's scope only; a little over 5 MB for the form's own bytes.
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1 } });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/api/image_transform',
    {
      preHandler: [requireUser, refuseWhenBusy],
      bodyLimit: IMAGE_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['transform'],
        summary: 'Upload a photo (multipart `image` ≤ 5 MB, checked by its content; `style`) → uploaded',
        response: {
          201: TransformStepSchema,
          ...errors,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const step = await withImage(request, (image, style) => service.upload(currentUserId(request), image, style));
      return reply.status(201).send(step);
    },
  );

  app.post(
    '/api/image_transform/preview',
    {
      preHandler: [requireUser, refuseWhenBusy],
      bodyLimit: IMAGE_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['transform'],
        summary: 'Every style on a small copy of the photo (multipart `image`), nothing stored',
        response: {
          200: TransformPreviewSchema,
          ...errors,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request) => withImage(request, (image) => service.preview(currentUserId(request), image)),
  );

  app.post(
    '/api/image_transform/verify',
    {
      preHandler: requireUser,
      schema: {
        tags: ['transform'],
        summary: 'Confirm the rights to the photo; the photo check runs (422 "Inappropriate content")',
        body: TransformVerifyBodySchema,
        response: { 200: TransformStepSchema, ...errors, 422: ApiErrorSchema },
      },
    },
    async (request) => service.verify(currentUserId(request), request.body.id),
  );

  app.post(
    '/api/image_transform/payment',
    {
      preHandler: requireUser,
      schema: {
        tags: ['transform'],
        summary: 'Pay 5 desires once (premium: free) and start the transform; 402 insufficient_desires',
        body: TransformPaymentBodySchema,
        response: { 200: TransformPaymentSchema, ...errors, 402: ApiErrorSchema, 503: ApiErrorSchema },
      },
    },
    async (request) => service.pay(currentUserId(request), request.body.id),
  );

  app.get(
    '/api/image_transform',
    {
      preHandler: requireUser,
      schema: {
        tags: ['transform'],
        summary: "The user's transforms, newest first",
        response: { 200: TransformListSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => service.list(currentUserId(request)),
  );

  app.get(
    '/api/image_transform/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['transform'],
        summary: 'One transform: poll until `ready` (result_url) or `failed`',
        params: TransformParamsSchema,
        response: { 200: TransformSchema, ...errors },
      },
    },
    async (request) => service.get(currentUserId(request), request.params.id),
  );

  app.delete(
    '/api/image_transform/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['transform'],
        summary: 'Delete a transform: its row, original and result',
        params: TransformParamsSchema,
        response: { 204: z.null().describe('deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await service.delete(currentUserId(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
