import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  BlogIdParamsSchema,
  BlogListQuerySchema,
  BlogListSchema,
  BlogPostSchema,
} from '@reverie/shared';
import type { BlogService } from './blog.service.js';

/** `GET /api/blog` and `GET /api/blog/{id}` (thin: the service decides). */
export const blogRoutes: FastifyPluginAsyncZod<{ service: BlogService }> = async (app, { service }) => {
  app.get(
    '/api/blog',
    {
      schema: {
        tags: ['blog'],
        summary: 'Published posts, newest first',
        querystring: BlogListQuerySchema,
        response: { 200: BlogListSchema, 400: ApiErrorSchema },
      },
    },
    async (request) => service.list(request.query.size, request.query.c, request.locale),
  );

  app.get(
    '/api/blog/:id',
    {
      schema: {
        tags: ['blog'],
        summary: 'One post',
        params: BlogIdParamsSchema,
        response: { 200: BlogPostSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => service.get(request.params.id, request.locale),
  );
};
