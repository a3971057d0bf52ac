import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  BlogIdParamsSchema,
  BlogListQuerySchema,
  BlogListSchema,
  BlogPostSchema,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { getBlogPost, listBlogPosts } from './blog.service.js';

export const blogRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
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
    async (request) => listBlogPosts(db, request.query.size, request.query.c),
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
    async (request) => getBlogPost(db, request.params.id),
  );
};
