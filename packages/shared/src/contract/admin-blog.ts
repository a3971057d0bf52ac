import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import { BLOG_ID_PATTERN } from '../routes.js';

export const BLOG_LIMITS = {
  id: 120,
  title: 200,
  summary: 500,
  body: 100_000,
  seoTitle: 70,
  seoDescription: 200,
} as const;

/** A post as the console shows it: drafts too, with the SEO fields. */
export const AdminBlogPostSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    body: z.string().describe('Markdown'),
    cover_url: z.string().nullable(),
    is_published: z.boolean(),
    published_at: z.string().nullable().describe('null for a draft never published'),
    seo_title: z.string().nullable(),
    seo_description: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AdminBlogPost' });
export type AdminBlogPost = z.infer<typeof AdminBlogPostSchema>;

export const AdminBlogListSchema = z.object({ results: z.array(AdminBlogPostSchema) }).meta({ id: 'AdminBlogList' });
export type AdminBlogList = z.infer<typeof AdminBlogListSchema>;

const optionalLine = (max: number) =>
  singleLine()
    .trim()
    .max(max, { message: 'invalid_value' })
    .nullable()
    .optional()
    .transform((v) => (v ? v : v === undefined ? undefined : null));

export const AdminBlogPostInputSchema = z.object({
  id: z
    .string({ message: 'required' })
    .trim()
    .min(1, { message: 'required' })
    .max(BLOG_LIMITS.id, { message: 'invalid_value' })
    .regex(BLOG_ID_PATTERN, { message: 'slug_format' }),
  title: singleLine(z.string({ message: 'required' }))
    .trim()
    .min(1, { message: 'required' })
    .max(BLOG_LIMITS.title, { message: 'invalid_value' }),
  summary: freeText().trim().max(BLOG_LIMITS.summary, { message: 'invalid_value' }).default(''),
  body: freeText().max(BLOG_LIMITS.body, { message: 'invalid_value' }).default(''),
  seo_title: optionalLine(BLOG_LIMITS.seoTitle),
  seo_description: optionalLine(BLOG_LIMITS.seoDescription),
});
export type AdminBlogPostInput = z.output<typeof AdminBlogPostInputSchema>;

const blogText = (max: number) => freeText().trim().max(max, { message: 'invalid_value' });

/** An edit: any field but the id (a post's address does not change); what is not sent stays. */
export const AdminBlogPostPatchSchema = z
  .object({
    title: AdminBlogPostInputSchema.shape.title.optional(),
    summary: blogText(BLOG_LIMITS.summary).optional(),
    body: freeText().max(BLOG_LIMITS.body, { message: 'invalid_value' }).optional(),
    seo_title: optionalLine(BLOG_LIMITS.seoTitle),
    seo_description: optionalLine(BLOG_LIMITS.seoDescription),
    remove_cover: z.boolean().optional(),
  })
  .strict();
export type AdminBlogPostPatch = z.output<typeof AdminBlogPostPatchSchema>;

export const AdminBlogIdParamsSchema = z.object({
  id: z.string().max(BLOG_LIMITS.id).regex(BLOG_ID_PATTERN),
});

export const AdminBlogPublishSchema = z.object({ published: z.boolean() });
