import type { AdminBlogPost } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { useBlogWrite } from './admin-writes';

/** POST /api/admin/blog/{id}/cover: the cover picture (multipart `file`). */
export const useUploadBlogCover = () =>
  useBlogWrite(({ id, file }: { id: string; file: File }) =>
    request<AdminBlogPost>(`/api/admin/blog/${encodeURIComponent(id)}/cover`, {
      method: 'POST',
      body: fileForm(file),
    }),
  );
