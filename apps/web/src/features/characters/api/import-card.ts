import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotDetail } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { prependCreatedBot } from './get-bots';

/** POST /api/bot/import: a Character Card V1/V2/V3 as PNG or JSON. */
export function importCard(file: File) {
  return request<BotDetail>('/api/bot/import', { method: 'POST', body: fileForm(file) });
}

export function useImportCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importCard,
    onSuccess: (bot) => {
      if (bot.kind === 'character') prependCreatedBot(client, bot);
    },
  });
}
