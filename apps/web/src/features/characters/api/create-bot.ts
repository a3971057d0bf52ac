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

export function useCreateBot() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createBot,
    onSuccess: (bot) => {
      if (bot.kind === 'character') prependCreatedBot(client, bot);
      void client.invalidateQueries({ queryKey: botKeys.mine() });
    },
  });
}
