import type { LoginBody, TokenPair } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/token: access and refresh tokens. */
export const login = (body: LoginBody) => request<TokenPair>('/api/token', { method: 'POST', body });
