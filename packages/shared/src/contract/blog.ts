import { z } from 'zod';
import { singleLine } from '../input.js';
import { BLOG_ID_PATTERN } from '../routes.js';

export const BlogPostSummarySchema = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    cover_url: z.string().nullable(),
    published_at: z.string(),
  })
  .meta({ id: 'BlogPostSummary' });
export type BlogPostSummary = z.infer<typeof BlogPostSummarySchema>;

export const BlogPostSchema = BlogPostSummarySchema.extend({
  body: z.string().describe('Markdown'),
}).meta({ id: 'BlogPost' });
export type BlogPost = z.infer<typeof BlogPostSchema>;

export const BlogListQuerySchema = z.object({
  c: singleLine().max(300).optional(),
  size: z.coerce.number().int().min(1).max(50).default(12),
});

export const BlogListSchema = z
  .object({
    results: z.array(BlogPostSummarySchema),
    next_param: z.string().nullable(),
  })
  .meta({ id: 'BlogList' });
export type BlogList = z.infer<typeof BlogListSchema>;

export const BlogIdParamsSchema = z.object({
  id: z.string().max(120).regex(BLOG_ID_PATTERN),
});
