import type { AdminBlogPost, AdminBlogPostPatch } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useBlogWrite } from './admin-writes';

export type BlogPostFields = Partial<Omit<AdminBlogPostPatch, 'remove_cover'>> & { id: string };

/** POST /api/admin/blog (a new draft) or PATCH /api/admin/blog/{id} (an edit). */
export const useSaveBlogPost = () =>
  useBlogWrite(({ isNew, fields }: { isNew: boolean; fields: BlogPostFields & { remove_cover?: boolean } }) => {
    const { id, ...rest } = fields;
    return isNew
      ? request<AdminBlogPost>('/api/admin/blog', { method: 'POST', body: { id, ...rest } })
      : request<AdminBlogPost>(`/api/admin/blog/${encodeURIComponent(id)}`, { method: 'PATCH', body: rest });
  });
