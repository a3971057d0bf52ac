import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminBlogPost } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { contentKeys } from './content-keys';

/** POST /api/admin/blog/{id}/cover: the cover picture (multipart `file`). */
export function useUploadBlogCover() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) =>
      request<AdminBlogPost>(`/api/admin/blog/${encodeURIComponent(id)}/cover`, {
        method: 'POST',
        body: fileForm(file),
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: contentKeys.blog }),
  });
}
