import { useQuery } from '@tanstack/react-query';
import type { ClientConfig } from '@reverie/shared';
import { request } from './api-client';

export const getClientConfig = () => request<ClientConfig>('/api/config');

/** Public server settings (community link, support address, affiliate key, calls, character review). */
export function useClientConfig() {
  return useQuery({ queryKey: ['client-config'], queryFn: getClientConfig, staleTime: Infinity, retry: 1 });
}
