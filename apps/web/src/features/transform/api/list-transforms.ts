import { useQuery } from '@tanstack/react-query';
import type { TransformList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { transformKeys } from './keys';

export function listTransforms(): Promise<TransformList> {
  return request<TransformList>('/api/image_transform');
}

/** The user's gallery, newest first. */
export function useTransforms(enabled: boolean) {
  return useQuery({ queryKey: transformKeys.list(), queryFn: listTransforms, enabled });
}
