import type { Profile, ProfileUpdateBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** PATCH /api/profile/update: name and age. */
export const updateProfileRequest = (body: ProfileUpdateBody) =>
  request<Profile>('/api/profile/update', { method: 'PATCH', body });
