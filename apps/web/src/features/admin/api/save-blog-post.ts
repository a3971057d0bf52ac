import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminBlogPost, AdminBlogPostPatch } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { contentKeys } from './content-keys';

export type BlogPostFields = Partial<Omit<AdminBlogPostPatch, 'remove_cover'>> & { id: string };

/** POST /api/admin/blog (a new draft) or PATCH /api/admin/blog/{id} (an edit). */
export function useSaveBlogPost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ isNew, fields }: { isNew: boolean; fields: BlogPostFields & { remove_cover?: boolean } }) => {
      const { id, ...rest } = fields;
      return isNew
        ? request<AdminBlogPost>('/api/admin/blog', { method: 'POST', body: { id, ...rest } })
        : request<AdminBlogPost>(`/api/admin/blog/${encodeURIComponent(id)}`, { method: 'PATCH', body: rest });
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: contentKeys.blog }),
  });
}
