import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { fakeApi, json, renderRoutes, type Call } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { NotificationSettings } from './settings-notifications';

/** Settings → Notifications (issue 31): the permission is asked on the user's tap, never on load. */
const PUBLIC_KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const config = (changes: Record<string, unknown> = {}) => ({
  public_key: PUBLIC_KEY,
  preview: true,
  replies: false,
  devices: 0,
  ...changes,
});

function browserPush(permission: NotificationPermission) {
  const subscription = {
    endpoint: 'https://push.example/device-1',
    toJSON: () => ({ endpoint: 'https://push.example/device-1', keys: { p256dh: 'BPk', auth: 'au' } }),
    unsubscribe: vi.fn(async () => true),
  };
  const pushManager = {
    getSubscription: vi.fn(async () => null),
    subscribe: vi.fn(async (_options: PushSubscriptionOptionsInit) => subscription),
  };
  const registration = { pushManager };
  const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, { permission, requestPermission }),
  );
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(registration), getRegistration: async () => registration },
  });
  return { requestPermission, pushManager, subscription };
}

function open(answer: (call: Call) => Response | undefined) {
  setTokens('a.b.c', 'd.e.f');
  seedProfile(testProfile({ id: 'u1' }));
  const calls = fakeApi((call) => answer(call));
  renderRoutes([{ path: '/settings', element: <NotificationSettings viewer="u1" /> }], '/settings');
  return calls;
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('Settings: notifications', () => {
  it('asks the permission only when the user taps Turn on, then registers this device', async () => {
    const push = browserPush('default');
    const calls = open((call) => {
      if (call.path === '/api/push/config') return json(config());
      if (call.path === '/api/push/subscriptions' && call.method === 'POST') return json(null, 204);
      return undefined;
    });
    const button = await screen.findByRole('button', { name: 'Turn on' });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/push/config')).toBe(true));
    expect(push.requestPermission).not.toHaveBeenCalled();
    fireEvent.click(button);
    expect(await screen.findByText('On for this device')).toBeTruthy();
    expect(push.requestPermission).toHaveBeenCalledTimes(1);
    const key = push.pushManager.subscribe.mock.calls[0]![0]!.applicationServerKey as Uint8Array;
    expect(key).toHaveLength(65);
    expect(calls.find((c) => c.path === '/api/push/subscriptions')).toMatchObject({
      method: 'POST',
      body: { endpoint: 'https://push.example/device-1', keys: { p256dh: 'BPk', auth: 'au' } },
    });
  });

  it('hides the preview and chooses long-reply notices through the server', async () => {
    browserPush('default');
    const calls = open((call) => {
      if (call.path === '/api/push/config') return json(config());
      if (call.path === '/api/push/preferences') return json(config(call.body as Record<string, unknown>));
      return undefined;
    });
    const preview = await screen.findByRole('switch', { name: /Show the first words/ });
    await waitFor(() => expect((preview as HTMLInputElement).disabled).toBe(false));
    expect((preview as HTMLInputElement).checked).toBe(true);
    fireEvent.click(preview);
    await waitFor(() => expect((preview as HTMLInputElement).checked).toBe(false));
    expect(calls.find((c) => c.path === '/api/push/preferences')).toMatchObject({
      method: 'PATCH',
      body: { preview: false },
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Tell me when a long reply or a picture is ready' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/push/preferences').map((c) => c.body)).toContainEqual({
        replies: true,
      }),
    );
  });

  it('says how to allow a blocked permission, and what an iPhone needs first', async () => {
    const push = browserPush('denied');
    open((call) => (call.path === '/api/push/config' ? json(config()) : undefined));
    expect(await screen.findByText(/Notifications are blocked for this site/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Turn on' }) as HTMLButtonElement).disabled).toBe(true);
    expect(push.requestPermission).not.toHaveBeenCalled();
    clearSession();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)');
    open(() => undefined);
    expect(await screen.findByText(/add the app to your Home Screen/)).toBeTruthy();
    vi.restoreAllMocks();
  });
});
