import type { AdminBlogPost } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useBlogWrite } from './admin-writes';

/** POST /api/admin/blog/{id}/publish: publish, or take back to a draft. */
export const usePublishBlogPost = () =>
  useBlogWrite(({ id, published }: { id: string; published: boolean }) =>
    request<AdminBlogPost>(`/api/admin/blog/${encodeURIComponent(id)}/publish`, {
      method: 'POST',
      body: { published },
    }),
  );
