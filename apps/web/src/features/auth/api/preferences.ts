import { useQuery } from '@tanstack/react-query';
import type { Preferences, PreferencesBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { profileKeys } from '../../../lib/query-keys';

export const getPreferences = () => request<Preferences>('/api/profile/preferences');

/** PATCH /api/profile/preferences: language, interests, marketing mail. */
export const updatePreferences = (body: PreferencesBody) =>
  request<Preferences>('/api/profile/preferences', { method: 'PATCH', body });

export function usePreferences(enabled: boolean) {
  return useQuery({ queryKey: profileKeys.preferences(), queryFn: getPreferences, enabled });
}
