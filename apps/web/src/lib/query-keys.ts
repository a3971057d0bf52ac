/**
 * The query keys of server state, one factory per resource (docs/ARCHITECTURE.md "Web
 * state"). A feature's queries and the invalidations that other features make after a change
 * meet here: features never import each other, and a hand-written key that differs by one
 * segment is a list that never refreshes.
 *
 * Each factory's `all` is the prefix of every key it makes, so invalidating it reaches them all.
 */

/** A chat list's filter: search text (`q`) and one character (`botId`, the chat menu's history). */
export interface ChatListFilter {
  q?: string;
  botId?: string;
}

/** Chats and what belongs to one chat: everything under `chats`. */
export const chatKeys = {
  all: ['chats'] as const,
  /** Every chat list (whoever's): new messages change their previews and order. */
  allLists: ['chats', 'list'] as const,
  /** Every chat list of the user (the chats page, searches, a character's history). */
  lists: (viewer: string) => ['chats', 'list', viewer] as const,
  list: (viewer: string, filter: ChatListFilter = {}) =>
    ['chats', 'list', viewer, { q: filter.q ?? '', botId: filter.botId ?? '' }] as const,
  /** Every chat by id (whoever's): a character's edit changes the name and texts they show. */
  allDetails: ['chats', 'detail'] as const,
  /** One chat by its id. */
  detail: (viewer: string, chatId: string) => ['chats', 'detail', viewer, chatId] as const,
  /** `/{slug}` alone: the user's latest chat with the character (resolved to an id). */
  latest: (viewer: string, slug: string) => ['chats', 'latest', viewer, slug] as const,
  history: (chatId: string) => ['chats', 'history', chatId] as const,
  memory: (chatId: string) => ['chats', 'memory', chatId] as const,
  models: (viewer: string) => ['chats', 'models', viewer] as const,
};

/** Characters and personas the user wrote (`/api/bots/mine`): a persona made anywhere refreshes them. */
export const botKeys = {
  all: ['bots'] as const,
  mine: () => ['bots', 'mine'] as const,
  /** The user's personas (the chat's persona dialog). */
  myPersonas: (viewer: string) => ['bots', 'mine', 'persona', viewer] as const,
};

/** The signed-in user's account data. */
export const profileKeys = {
  all: ['profile'] as const,
  /** The profile itself (balance, premium, e-mail state): `lib/profile.ts`. */
  me: () => ['profile', 'me'] as const,
  preferences: () => ['profile', 'preferences'] as const,
};
