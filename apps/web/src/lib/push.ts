import { useCallback, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PushConfig, PushPreferencesBody } from '@reverie/shared';
import { request } from './api-client';
import { pushKeys } from './query-keys';

/**
 * Web Push and unread badges on the page's side (issue 31, docs/companion.md "Push and the
 * app"). `usePushNotifications` is the one place that asks the browser's permission — only
 * from a user's tap (Settings' "Notify me", the chat's "She can write to me first"), never on
 * load. Shared here (lib/) so that the settings page and the chat feature use the same hook.
 */

export const getPushConfig = () => request<PushConfig>('/api/push/config');
export const updatePushPreferences = (body: PushPreferencesBody) =>
  request<PushConfig>('/api/push/preferences', { method: 'PATCH', body });

export function usePushConfig(viewer: string | null) {
  return useQuery({ queryKey: pushKeys.config(viewer ?? 'guest'), queryFn: getPushConfig, enabled: Boolean(viewer) });
}

/** Whether this browser can receive pushes at all (iOS only once the app is on the Home Screen). */
export const pushSupported = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const toKey = (base64url: string) => {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

/**
 * Signing out ends this browser's subscription (the next push to it answers 410 and the server
 * forgets it): another account signing in here never receives the previous one's notifications.
 */
export async function forgetPushSubscription(): Promise<void> {
  await (await currentSubscription().catch(() => null))?.unsubscribe().catch(() => false);
}

/**
 * This device's notifications: `state`, and `enable` (asks the permission, subscribes with the
 * server's VAPID key, registers the device) / `disable` (unsubscribes it everywhere).
 */
export function usePushNotifications(viewer: string | null) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<PushState>(() =>
    !pushSupported() ? 'unsupported' : Notification.permission === 'denied' ? 'denied' : 'off',
  );
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void currentSubscription().then((subscription) => {
      if (live && subscription && Notification.permission === 'granted') setState('on');
    });
    return () => {
      live = false;
    };
  }, []);

  const enable = useCallback(async (): Promise<boolean> => {
    if (!pushSupported() || !viewer) return false;
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setState(permission === 'denied' ? 'denied' : 'off');
        return false;
      }
      const config = await queryClient.fetchQuery({ queryKey: pushKeys.config(viewer), queryFn: getPushConfig });
      const registration = await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: toKey(config.public_key),
        }));
      await request('/api/push/subscriptions', { method: 'POST', body: subscription.toJSON() });
      await queryClient.invalidateQueries({ queryKey: pushKeys.config(viewer) });
      setState('on');
      return true;
    } finally {
      setBusy(false);
    }
  }, [queryClient, viewer]);

  const disable = useCallback(async (): Promise<void> => {
    setBusy(true);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await request('/api/push/subscriptions', { method: 'DELETE', body: { endpoint: subscription.endpoint } }).catch(
          () => undefined,
        );
        await subscription.unsubscribe();
      }
      if (viewer) await queryClient.invalidateQueries({ queryKey: pushKeys.config(viewer) });
      setState('off');
    } finally {
      setBusy(false);
    }
  }, [queryClient, viewer]);

  return { state, busy, enable, disable };
}
