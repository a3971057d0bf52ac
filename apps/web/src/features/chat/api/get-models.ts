import { useQuery } from '@tanstack/react-query';
import type { ModelInfo } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** The ModelList shape of the contract. */
export interface ModelList {
  results: ModelInfo[];
  default_id: string;
}

/** GET /api/models: the model catalogue; `available` is false where the user may not pick. */
export const getModels = () => request<ModelList>('/api/models');

export function useModels(viewer: string, enabled = true) {
  return useQuery({ queryKey: chatKeys.models(viewer), queryFn: getModels, enabled, staleTime: 5 * 60_000 });
}
