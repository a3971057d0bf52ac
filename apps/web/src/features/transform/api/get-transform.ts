import { useQuery } from '@tanstack/react-query';
import type { Transform } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { transformKeys } from './keys';

/** How often a transform being made is asked for. */
export const POLL_MS = 1000;

export function getTransform(id: string): Promise<Transform> {
  return request<Transform>(`/api/image_transform/${encodeURIComponent(id)}/`);
}

/** One transform, asked every second while it is `processing`. */
export function useTransform(id: string | null) {
  return useQuery({
    queryKey: transformKeys.one(id ?? ''),
    queryFn: () => getTransform(id!),
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.state === 'processing' ? POLL_MS : false),
  });
}
