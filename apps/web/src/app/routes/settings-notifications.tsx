import '../../lib/error-texts';
import { useQueryClient } from '@tanstack/react-query';
import type { PushPreferencesBody } from '@reverie/shared';
import { showAlert } from '../../components/ui/alerts';
import { SwitchRow } from '../../components/ui/switch-row';
import { useTranslation } from '../../lib/i18n';
import { isIos, isStandalone } from '../../lib/install-offer';
import { updatePushPreferences, usePushConfig, usePushNotifications } from '../../lib/push';
import { pushKeys } from '../../lib/query-keys';
import './settings-texts';

const button =
  'rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/5 disabled:opacity-60';

/**
 * Settings → Notifications (issue 31): this device's notifications — the browser's permission
 * is asked here, on the user's tap, never on load — the preview of a message's first words,
 * and whether a long reply is announced.
 */
export function NotificationSettings({ viewer }: { viewer: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const device = usePushNotifications(viewer);
  const config = usePushConfig(device.state === 'unsupported' ? null : viewer);

  const turnOn = async () => {
    try {
      if (!(await device.enable()) && Notification.permission !== 'denied') {
        showAlert(t('settings.notifications_failed'), { type: 'error' });
      }
    } catch {
      showAlert(t('settings.notifications_failed'), { type: 'error' });
    }
  };

  const choose = async (body: PushPreferencesBody) => {
    try {
      queryClient.setQueryData(pushKeys.config(viewer), await updatePushPreferences(body));
    } catch {
      showAlert(t('errors.something_went_wrong'), { type: 'error' });
    }
  };

  if (device.state === 'unsupported') {
    return (
      <p className="text-sm text-muted" data-testid="notifications-unsupported">
        {isIos() && !isStandalone() ? t('settings.notifications_ios') : t('settings.notifications_unsupported')}
      </p>
    );
  }
  /** One button turns this device's notifications on or off. */
  const on = device.state === 'on';
  return (
    <div className="grid gap-4 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-medium">{t('settings.notifications_device')}</p>
          <p className="text-muted">
            {device.state === 'denied' ? t('settings.notifications_denied') : t('settings.notifications_device_hint')}
          </p>
          {on && (
            <p className="text-primary" data-testid="notifications-on">
              {t('settings.notifications_on')}
            </p>
          )}
        </div>
        <button
          type="button"
          className={button}
          disabled={device.busy || device.state === 'denied'}
          onClick={() => void (on ? device.disable() : turnOn())}
          data-testid={on ? 'notifications-off' : 'notifications-enable'}
        >
          {on ? t('settings.notifications_turn_off') : t('settings.notifications_turn_on')}
        </button>
      </div>
      <SwitchRow
        className="border-t border-white/10 pt-4"
        label={
          <>
            <span className="block">{t('settings.notifications_preview')}</span>
            <span className="block text-muted">{t('settings.notifications_preview_hint')}</span>
          </>
        }
        disabled={!config.data}
        checked={config.data?.preview ?? true}
        onChange={(preview) => void choose({ preview })}
        testId="notifications-preview"
      />
      <SwitchRow
        label={t('settings.notifications_replies')}
        disabled={!config.data}
        checked={config.data?.replies ?? false}
        onChange={(replies) => void choose({ replies })}
        testId="notifications-replies"
      />
    </div>
  );
}
