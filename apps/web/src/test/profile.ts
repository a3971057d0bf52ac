import type { QueryClient } from '@tanstack/react-query';
import type { Profile } from '@reverie/shared';
import { createQueryClient } from '../app/providers';
import { profileKeys } from '../lib/query-keys';

/**
 * Tests' access to the profile query: `seedProfile` puts a profile in the query cache of the
 * next render (as the bootstrap would have loaded it), `loadedProfile` reads the cache of the
 * last one.
 */
let seeded: Profile | null = null;
let last: QueryClient | null = null;

export function seedProfile(profile: Profile): void {
  seeded = profile;
}

/** The query client for a render: with the seeded profile, if any. */
export function testQueryClient(): QueryClient {
  const client = createQueryClient();
  if (seeded) client.setQueryData(profileKeys.me(), seeded);
  seeded = null;
  last = client;
  return client;
}

/** The profile in the query cache of the last render. */
export const loadedProfile = (): Profile | undefined => last?.getQueryData<Profile>(profileKeys.me());
