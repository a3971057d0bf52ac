import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** POST /api/chat/create: a new chat with the character (greeting and AI disclosure first). */
export const createChat = (botID: string) => request<Chat>('/api/chat/create', { method: 'POST', body: { botID } });

/** A chat the server answered with (new or changed): cached by its id; the viewer's lists load again. */
export const chatWritten = (viewer: string) => (client: QueryClient, chat: Chat) => {
  client.setQueryData(chatKeys.detail(viewer, chat.id), chat);
  void client.invalidateQueries({ queryKey: chatKeys.lists(viewer) });
};

/**
 * A write to the API (`write`), then what its answer changes in the query cache (`written`: an
 * answer to keep, lists to read again). The chat's writes: a new chat or group, a change.
 */
export function useApiWrite<Input, Answer>(
  write: (input: Input) => Promise<Answer>,
  written: (client: QueryClient, answer: Answer) => void,
) {
  const client = useQueryClient();
  return useMutation({ mutationFn: write, onSuccess: (answer: Answer) => written(client, answer) });
}

/** Starts a new chat: cached by its id (the page opens it at once); the lists load again. */
export const useCreateChat = (viewer: string) => useApiWrite(createChat, chatWritten(viewer));
