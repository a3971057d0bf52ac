import type { Suggestions } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/chat/{id}/suggestions: three short replies (asked only when the user turned them on). */
export const getSuggestions = (chatId: string, signal?: AbortSignal) =>
  request<Suggestions>(`/api/chat/${encodeURIComponent(chatId)}/suggestions`, { method: 'POST', signal });
