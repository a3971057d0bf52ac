import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminBlogPost } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { contentKeys } from './content-keys';

/** POST /api/admin/blog/{id}/publish: publish, or take back to a draft. */
export function usePublishBlogPost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, published }: { id: string; published: boolean }) =>
      request<AdminBlogPost>(`/api/admin/blog/${encodeURIComponent(id)}/publish`, {
        method: 'POST',
        body: { published },
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: contentKeys.blog }),
  });
}
