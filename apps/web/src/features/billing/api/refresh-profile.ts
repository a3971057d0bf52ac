import type { Profile } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { setProfile } from '../../../lib/session';

/** Reloads the profile after a purchase so the balance and premium show at once. */
export async function refreshProfile(): Promise<Profile | null> {
  try {
    const profile = await request<Profile>('/api/profile');
    setProfile(profile);
    return profile;
  } catch {
    return null;
  }
}
