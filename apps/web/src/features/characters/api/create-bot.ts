import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotCreateInput, BotDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { botKeys } from '../../../lib/query-keys';
import { prependCreatedBot } from './get-bots';

export type CreateBotInput = Omit<BotCreateInput, 'occupation' | 'personality' | 'tags'> & {
  occupation: string[];
  personality: string[];
  tags: string[];
  photo: File | null;
};

/** POST /api/bot/create as multipart: the photo plus the text fields. */
export function createBot(input: CreateBotInput) {
  const form = new FormData();
  const { photo, occupation, personality, tags, ...fields } = input;
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined && value !== null) form.append(key, String(value));
  occupation.forEach((v) => form.append('occupation', v));
  personality.forEach((v) => form.append('personality', v));
  form.append('tags', tags.join(','));
  if (photo) form.append('photo', photo);
  return request<BotDetail>('/api/bot/create', { method: 'POST', body: form });
}

/**
 * A character or persona made (`create`) or imported: a character goes first in the viewer's
 * lists; `mine`: the viewer's own list is read again too.
 */
export function useBotWrite<Input>(write: (input: Input) => Promise<BotDetail>, mine: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (bot) => {
      if (bot.kind === 'character') prependCreatedBot(client, bot);
      if (mine) void client.invalidateQueries({ queryKey: botKeys.mine() });
    },
  });
}

export const useCreateBot = () => useBotWrite(createBot, true);
