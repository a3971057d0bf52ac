import { useQuery } from '@tanstack/react-query';
import type { Bot } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { botKeys } from './keys';

/** GET /api/bots/mine?kind=persona: the user's personas (who the character talks to). */
export const getMyPersonas = () =>
  request<{ results: Bot[] }>('/api/bots/mine', { query: { kind: 'persona' } }).then((list) => list.results);

/**
 * Under `['bots', 'mine']`, so a persona created anywhere (the create form invalidates
 * `botKeys.mine()`) shows here at once.
 */
export function useMyPersonas(viewer: string, enabled = true) {
  return useQuery({ queryKey: botKeys.myPersonas(viewer), queryFn: getMyPersonas, enabled });
}
