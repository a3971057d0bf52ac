import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminUserList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys, queryOf } from './keys';

export const ADMIN_USERS_PAGE = 25;

export const searchUsers = (q: string, offset: number) =>
  request<AdminUserList>('/api/admin/users', { query: queryOf({ q, offset, size: ADMIN_USERS_PAGE }) });

/** Users whose name, username or e-mail contains `q`, one page from `offset`. */
export function useAdminUsers(q: string, offset: number) {
  return useQuery({
    queryKey: adminKeys.users(q, offset),
    queryFn: () => searchUsers(q, offset),
    placeholderData: keepPreviousData,
  });
}
