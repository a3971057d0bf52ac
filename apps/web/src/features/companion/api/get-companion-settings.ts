import { useQuery } from '@tanstack/react-query';
import type { CompanionSettings } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { companionKeys } from './keys';

/** GET /api/companion/settings: quiet hours, time zone, daily cap, e-mail digest. */
export const getCompanionSettings = () => request<CompanionSettings>('/api/companion/settings');

export function useCompanionSettings(enabled = true) {
  return useQuery({ queryKey: companionKeys.settings(), queryFn: getCompanionSettings, enabled });
}
