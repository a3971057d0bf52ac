import type { QueryClient } from '@tanstack/react-query';
import type { Profile } from '@reverie/shared';
import { createQueryClient } from '../lib/providers';
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

/** The query client of the last render (a profile that arrives later is written into it). */
export const lastQueryClient = (): QueryClient | null => last;

/** The profile in the query cache of the last render. */
export const loadedProfile = (): Profile | undefined => last?.getQueryData<Profile>(profileKeys.me());

/** A member's profile for tests (Ann, free, 10 desires); `changes` override fields. */
export const testProfile = (changes: Partial<Profile> = {}): Profile => ({
  id: 'u1',
  name: 'Ann',
  age: null,
  email: 'ann@example.test',
  is_email_confirmed: true,
  has_subscription: false,
  num_tokens: 10,
  locale: 'en',
  role: 'user',
  subscription: null,
  next_claim_at: null,
  ...changes,
});
