import type { Chat } from '@reverie/shared';

/**
 * The one address of a chat (API.md: the web addresses a chat by its id): `/{slug}?chat=<id>`.
 * `/{slug}` alone opens the latest chat with that character.
 */
export const chatPath = (chat: Pick<Chat, 'id'> & { bot: { slug: string } }) =>
  `/${chat.bot.slug}?chat=${encodeURIComponent(chat.id)}`;
