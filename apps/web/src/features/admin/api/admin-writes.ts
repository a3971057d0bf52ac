import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { contentKeys } from './content-keys';
import { adminKeys } from './keys';

/**
 * A write on a user (ban, unban, role, deletion, sessions, desires): `post` sends it, then every
 * console query is read again (`adminKeys.all`).
 */
export function useUserWrite<Body, Answer>(post: (body: Body) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: post,
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/**
 * After a decision on a queue item (a report, a takedown request): the item's own query gets
 * the answer (when `itemKey` is given), its queue and the section's badge are read again.
 */
export function useDecisionWritten<Item>(keys: { item?: QueryKey; queue: QueryKey; countPath: string }) {
  const client = useQueryClient();
  return (item: Item) => {
    if (keys.item) client.setQueryData(keys.item, item);
    void client.invalidateQueries({ queryKey: keys.queue });
    void client.invalidateQueries({ queryKey: adminKeys.count(keys.countPath) });
  };
}

/** A page of a console list: the previous page stays on screen while the next one loads. */
export function useAdminPage<Page>(queryKey: QueryKey, read: () => Promise<Page>) {
  return useQuery({ queryKey, queryFn: read, placeholderData: keepPreviousData });
}

/** A write on a blog post: the console's posts are read again after it. */
export function useBlogWrite<Input, Answer>(write: (input: Input) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => void client.invalidateQueries({ queryKey: contentKeys.blog }),
  });
}
