import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CompanionSettings, CompanionSettingsBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { companionKeys } from './keys';

/** PATCH /api/companion/settings: every planned message is planned again with them. */
export const updateCompanionSettings = (body: CompanionSettingsBody) =>
  request<CompanionSettings>('/api/companion/settings', { method: 'PATCH', body });

export function useUpdateCompanionSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateCompanionSettings,
    onSuccess: (saved) => {
      client.setQueryData(companionKeys.settings(), saved);
      // The chats' next planned times moved.
      void client.invalidateQueries({ queryKey: ['companion', 'chat'] });
    },
  });
}
