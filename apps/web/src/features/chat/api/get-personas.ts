import { useQuery } from '@tanstack/react-query';
import type { Bot } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** GET /api/bots/mine?kind=persona: the user's personas (who the character talks to). */
export const getMyPersonas = () =>
  request<{ results: Bot[] }>('/api/bots/mine', { query: { kind: 'persona' } }).then((list) => list.results);

export function useMyPersonas(viewer: string, enabled = true) {
  return useQuery({ queryKey: chatKeys.personas(viewer), queryFn: getMyPersonas, enabled });
}
