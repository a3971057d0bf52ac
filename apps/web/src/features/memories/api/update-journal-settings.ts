import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JournalSettings } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { characterPath } from './paths';

/** PUT /api/characters/{botId}/journal: the character's journal on or off (off until the user turns it on). */
export const updateJournalSettings = (botId: string, enabled: boolean) =>
  request<JournalSettings>(characterPath(botId, 'journal'), { method: 'PUT', body: { enabled } });

/** Turns the journal on or off; the journal loads again. */
export function useUpdateJournalSettings(viewer: string, botId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => updateJournalSettings(botId, enabled),
    onSuccess: () => void client.invalidateQueries({ queryKey: memoryKeys.journal(viewer, botId) }),
  });
}
