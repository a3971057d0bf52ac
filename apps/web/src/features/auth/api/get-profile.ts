import type { Profile } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** GET /api/profile: the signed-in user. No automatic retry: a 401 is handled by the bootstrap. */
export const getProfile = () => request<Profile>('/api/profile', { retry: 0, refreshOnUnauthorized: false });
