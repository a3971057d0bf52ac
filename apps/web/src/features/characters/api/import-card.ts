import type { BotDetail } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { useBotWrite } from './create-bot';

/** POST /api/bot/import: a Character Card V1/V2/V3 as PNG or JSON. */
export function importCard(file: File) {
  return request<BotDetail>('/api/bot/import', { method: 'POST', body: fileForm(file) });
}

/** Imports a card; a character (not a persona) goes first in the viewer's lists. */
export const useImportCard = () => useBotWrite(importCard, false);
