/** Query keys of the chat feature: everything under `chats`, so one invalidation reaches all. */
export const chatKeys = {
  all: ['chats'] as const,
  available: (viewer: string) => ['chats', 'available', viewer] as const,
  bySlug: (slug: string, viewer: string) => ['chats', 'by-slug', slug, viewer] as const,
  history: (chatId: string) => ['chats', 'history', chatId] as const,
  memory: (chatId: string) => ['chats', 'memory', chatId] as const,
  models: (viewer: string) => ['chats', 'models', viewer] as const,
  personas: (viewer: string) => ['chats', 'personas', viewer] as const,
};
