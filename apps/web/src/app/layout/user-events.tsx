import { useCallback } from 'react';
import alerts from 'virtual:reverie-en/settings@alerts';
import type { UserEvent } from '@reverie/shared';
import { showAlert } from '../../components/ui/alerts';
import { addEnglishTexts, useTranslation } from '../../lib/i18n';
import { useUserEvents } from '../../lib/user-events';

// The data archive's alerts, in English, come with this chunk (ENGLISH_PARTS in vite.config.ts).
addEnglishTexts({ settings: alerts });

/**
 * Follows the signed-in user's events (badges across devices) and says, wherever the user is,
 * that their data archive is ready or failed (Settings → Download my data); renders nothing.
 */
export function UserEvents({ viewer }: { viewer: string }) {
  const { t } = useTranslation();
  const onEvent = useCallback(
    (event: UserEvent) => {
      if (event.type !== 'data_export') return;
      if (event.state === 'ready') showAlert(t('settings.data_ready_alert'), { type: 'success' });
      else showAlert(t('settings.data_failed_alert'), { type: 'error' });
    },
    [t],
  );
  useUserEvents(viewer, onEvent);
  return null;
}
