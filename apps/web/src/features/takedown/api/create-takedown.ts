import { useMutation } from '@tanstack/react-query';
import type { TakedownBody, TakedownCreated } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/takedown: a takedown request; answers its reference. */
export const createTakedown = (body: TakedownBody) =>
  request<TakedownCreated>('/api/takedown', { method: 'POST', body });

export function useCreateTakedown() {
  return useMutation({ mutationFn: createTakedown });
}
