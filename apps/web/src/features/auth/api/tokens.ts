import type { TokenPair } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/token/refresh: the refresh token rotates. */
export const refreshTokenPair = (refresh: string) =>
  request<TokenPair>('/api/token/refresh', {
    method: 'POST',
    body: { refresh },
    retry: 0,
    refreshOnUnauthorized: false,
  });

/** POST /api/token/revoke: log-out. */
export const revokeRefreshToken = (refresh: string) =>
  request<void>('/api/token/revoke', { method: 'POST', body: { refresh }, refreshOnUnauthorized: false });
