import type { BotDetail } from '@reverie/shared';

/** A character as the API gives it, for component tests. */
export const testBot = (overrides: Partial<BotDetail> = {}): BotDetail => ({
  id: 'b1',
  slug: 'mara-1',
  name: 'Mara',
  age: 31,
  kind: 'character',
  avatar_url: null,
  description: 'A lighthouse keeper.',
  greeting: 'Hi',
  occupation: [],
  personality: [],
  tags: ['realistic'],
  is_official: false,
  visibility: 'public',
  author_id: 'me',
  voice: 'en-us+f3',
  created_at: '2026-01-01T00:00:00.000Z',
  scenario: '',
  gallery: [],
  review_state: 'approved',
  review_reason: null,
  alternate_greetings: [],
  creator_notes: '',
  example_messages: '',
  ...overrides,
});
