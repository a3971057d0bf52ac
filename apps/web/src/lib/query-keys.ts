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
  authorNote: (chatId: string) => ['chats', 'author-note', chatId] as const,
  /** What went into a reply's prompt (the last reply's message menu). */
  promptTrace: (chatId: string, messageId: string) => ['chats', 'prompt-trace', chatId, messageId] as const,
  models: (viewer: string) => ['chats', 'models', viewer] as const,
  /** A group chat's scene (docs/groups.md): characters, people, setting. */
  scene: (chatId: string) => ['chats', 'scene', chatId] as const,
  /** A scene's invite links (its owner's). */
  sceneInvites: (chatId: string) => ['chats', 'scene-invites', chatId] as const,
  /** What an invite link shows before joining. */
  invitePreview: (code: string) => ['chats', 'invite', code] as const,
  /** The user's unread character messages over all chats (the Chats tab's badge). */
  unread: (viewer: string) => ['chats', 'unread', viewer] as const,
};

/** Lorebooks (docs/lorebooks.md): the user's, a character's, a chat's; any edit invalidates `all`. */
export const lorebookKeys = {
  all: ['lorebooks'] as const,
  list: () => ['lorebooks', 'list'] as const,
  detail: (id: string) => ['lorebooks', 'detail', id] as const,
  character: (slug: string) => ['lorebooks', 'character', slug] as const,
  chat: (chatId: string) => ['lorebooks', 'chat', chatId] as const,
};

/** Web Push: the VAPID key, the notification choices and the devices (`/api/push/config`). */
export const pushKeys = {
  config: (viewer: string) => ['push', 'config', viewer] as const,
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
  /** "Download my data": the latest archive (`/api/profile/data_export`). */
  dataExport: (viewer: string) => ['profile', 'data-export', viewer] as const,
};

/**
 * A user's long-term memories of one character (`features/memories`): the lists by search
 * text, one memory, its history and the character's journal, all under `['memories', …]`;
 * `character(viewer, botId)` is the prefix of every list and of the journal of that pair.
 */
export const memoryKeys = {
  all: ['memories'] as const,
  character: (viewer: string, botId: string) => ['memories', 'character', viewer, botId] as const,
  list: (viewer: string, botId: string, q: string) => ['memories', 'character', viewer, botId, 'list', q] as const,
  journal: (viewer: string, botId: string) => ['memories', 'character', viewer, botId, 'journal'] as const,
  /** Every memory by id of the user (dropped when they forget everything). */
  details: (viewer: string) => ['memories', 'detail', viewer] as const,
  detail: (viewer: string, id: string) => ['memories', 'detail', viewer, id] as const,
  histories: (viewer: string) => ['memories', 'history', viewer] as const,
  history: (viewer: string, id: string) => ['memories', 'history', viewer, id] as const,
};
