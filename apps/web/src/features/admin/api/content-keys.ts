/** Query keys of the console's Characters, Review and Blog sections. */
export const contentKeys = {
  characters: (query: { q: string; scope: string }) => ['admin', 'characters', 'list', query] as const,
  charactersAll: ['admin', 'characters'] as const,
  character: (id: string) => ['admin', 'characters', 'one', id] as const,
  voices: ['admin', 'characters', 'voices'] as const,
  review: ['admin', 'review'] as const,
  blog: ['admin', 'blog'] as const,
};
