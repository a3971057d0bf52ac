import type { QueryClient } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useApiWrite } from '../../../lib/api-write';
import { chatKeys } from './keys';

/** POST /api/chat/create: a new chat with the character (greeting and AI disclosure first). */
export const createChat = (botID: string) => request<Chat>('/api/chat/create', { method: 'POST', body: { botID } });

/** A chat the server answered with (new or changed): cached by its id; the viewer's lists load again. */
export const chatWritten = (viewer: string) => (client: QueryClient, chat: Chat) => {
  client.setQueryData(chatKeys.detail(viewer, chat.id), chat);
  void client.invalidateQueries({ queryKey: chatKeys.lists(viewer) });
};

/** Starts a new chat: cached by its id (the page opens it at once); the lists load again. */
export const useCreateChat = (viewer: string) => useApiWrite(createChat, chatWritten(viewer));
