import { useQuery } from '@tanstack/react-query';
import type { BlogPost } from '@reverie/shared';
import { request, type ApiRequestError } from '../../../lib/api-client';

export const getBlogPost = (id: string) => request<BlogPost>(`/api/blog/${encodeURIComponent(id)}`);

export function useBlogPost(id: string) {
  return useQuery<BlogPost, ApiRequestError>({
    queryKey: ['blog', 'post', id],
    queryFn: () => getBlogPost(id),
    retry: false,
  });
}
