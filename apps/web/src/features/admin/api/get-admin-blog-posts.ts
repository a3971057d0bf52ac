import { useQuery } from '@tanstack/react-query';
import type { AdminBlogList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { contentKeys } from './content-keys';

/** GET /api/admin/blog: every post, drafts included. */
export function useAdminBlogPosts() {
  return useQuery({
    queryKey: contentKeys.blog,
    queryFn: () => request<AdminBlogList>('/api/admin/blog').then((data) => data.results),
  });
}
