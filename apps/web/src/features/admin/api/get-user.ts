import { useQuery } from '@tanstack/react-query';
import type { AdminUserDetail } from '@reverie/shared';
import { request, type ApiRequestError } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const getUser = (id: string) => request<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}`);

export function useAdminUser(id: string) {
  return useQuery<AdminUserDetail, ApiRequestError>({
    queryKey: adminKeys.user(id),
    queryFn: () => getUser(id),
    retry: false,
  });
}
