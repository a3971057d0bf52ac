import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { transformKeys } from './keys';

/** DELETE /api/image_transform/{id}/: the transform, its original and its result. */
export function deleteTransform(id: string): Promise<void> {
  return request<void>(`/api/image_transform/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}

export function useDeleteTransform() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTransform,
    onSuccess: () => void client.invalidateQueries({ queryKey: transformKeys.all }),
  });
}
