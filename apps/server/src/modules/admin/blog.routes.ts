import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminBlogIdParamsSchema,
  AdminBlogListSchema,
  AdminBlogPostInputSchema,
  AdminBlogPostPatchSchema,
  AdminBlogPostSchema,
  AdminBlogPublishSchema,
  IMAGE_MAX_BYTES,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { readUpload } from '../../lib/forms.js';
import { currentUserId } from '../../plugins/auth.js';
import type { AdminBlogService } from './blog.service.js';

const errors = apiErrors(400, 401, 403, 404, 409, 413, 415);

/** The console's Blog section (`/api/admin/blog…`; docs/admin.md "Blog"). */
export const adminBlogRoutes: FastifyPluginAsyncZod<{ service: AdminBlogService }> = async (app, { service }) => {
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1 } });
  const tags = ['admin'];

  app.get(
    '/blog',
    {
      schema: {
        tags,
        summary: 'Every post, drafts included, last changed first',
        response: { 200: AdminBlogListSchema, ...errors },
      },
    },
    async () => service.list(),
  );

  app.post(
    '/blog',
    {
      schema: {
        tags,
        summary: 'A new draft (the id is its address, /blog/{id}; 409 blog_id_taken)',
        body: AdminBlogPostInputSchema,
        response: { 201: AdminBlogPostSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(currentUserId(request), request.body)),
  );

  app.get(
    '/blog/:id',
    {
      schema: {
        tags,
        summary: 'One post, a draft too',
        params: AdminBlogIdParamsSchema,
        response: { 200: AdminBlogPostSchema, ...errors },
      },
    },
    async (request) => service.one(request.params.id),
  );

  app.patch(
    '/blog/:id',
    {
      schema: {
        tags,
        summary: 'Edit a post (title, summary, Markdown body, SEO fields; remove_cover)',
        params: AdminBlogIdParamsSchema,
        body: AdminBlogPostPatchSchema,
        response: { 200: AdminBlogPostSchema, ...errors },
      },
    },
    async (request) => service.update(currentUserId(request), request.params.id, request.body),
  );

  app.post(
    '/blog/:id/publish',
    {
      schema: {
        tags,
        summary: 'Publish (published_at set the first time) or take back to a draft',
        params: AdminBlogIdParamsSchema,
        body: AdminBlogPublishSchema,
        response: { 200: AdminBlogPostSchema, ...errors },
      },
    },
    async (request) => service.publish(currentUserId(request), request.params.id, request.body.published),
  );

  app.post(
    '/blog/:id/cover',
    {
      bodyLimit: IMAGE_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Upload the cover picture (multipart `file`)',
        params: AdminBlogIdParamsSchema,
        response: { 200: AdminBlogPostSchema, ...errors },
      },
    },
    async (request) => {
      const form = await readUpload(request, 'file', IMAGE_MAX_BYTES);
      return service.setCover(currentUserId(request), request.params.id, form.file);
    },
  );

  app.delete(
    '/blog/:id',
    {
      schema: {
        tags,
        summary: 'Delete a post',
        params: AdminBlogIdParamsSchema,
        response: { 204: z.null().describe('deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(currentUserId(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
