import { useInfiniteQuery } from '@tanstack/react-query';
import type { BlogList } from '@reverie/shared';
import { request } from '../../../lib/api-client';

export const getBlogPosts = (cursor: string | null) =>
  request<BlogList>('/api/blog', { query: cursor ? { c: cursor } : {} });

/** Posts, newest first, page after page. */
export function useBlogPosts() {
  return useInfiniteQuery({
    queryKey: ['blog', 'list'],
    queryFn: ({ pageParam }) => getBlogPosts(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_param,
  });
}
