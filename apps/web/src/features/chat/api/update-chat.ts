import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatWritten, useApiWrite } from './create-chat';

export interface ChatUpdate {
  persona_id?: string | null;
  model_id?: string | null;
  /** 1..80 characters; null clears it. */
  title?: string | null;
  /** False: "don't remember this chat" (nothing of it becomes a long-term memory). */
  remember?: boolean;
}

/** PATCH /api/chat/{id}: the chat's persona, model, title and whether it is remembered. */
export const updateChat = (chatId: string, changes: ChatUpdate) =>
  request<Chat>(`/api/chat/${encodeURIComponent(chatId)}`, { method: 'PATCH', body: changes });

/** Saves the change: the chat's query holds the answer; the lists (title, order) load again. */
export const useUpdateChat = (chatId: string, viewer: string) =>
  useApiWrite((changes: ChatUpdate) => updateChat(chatId, changes), chatWritten(viewer));
