import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useChatJourney } from './harness';

/**
 * The installable app (issue 31): the manifest is valid for Chromium, the service worker
 * installs, the app shell loads with the network gone and shows the offline page with the
 * last chats, and a push delivered to the service worker (CDP `ServiceWorker.deliverPushMessage`)
 * shows a notification whose tap opens that chat.
 */
const slug = 'mira-pwa-e2e';

const journey = useChatJourney({
  behaviour: { mode: 'slow', delayMs: 20, text: 'Good evening.' },
  character: {
    slug,
    name: 'Mira',
    age: 27,
    description: 'A night-shift astronomer.',
    greeting: 'Hello, {{user}}.',
    voice: null,
  },
});

const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 20_000, ...options });

/** A user with one chat with Mira holding an unread message of hers. */
async function userWithUnreadChat() {
  const userId = await journey.app.createUser({ name: 'Pia' });
  const [bot] = await journey.app.sql<{ id: string }[]>`select id from bots where slug = ${slug}`;
  const [chat] = await journey.app.sql<{ id: string }[]>`
    insert into chats (user_id, bot_id) values (${userId}, ${bot!.id}) returning id`;
  await journey.app.sql`insert into messages (chat_id, user_id, role, kind, text)
    values (${chat!.id}, ${userId}, 'bot', 1, 'I found a new comet tonight.')`;
  return { userId, chatId: chat!.id };
}

async function serviceWorkerActive(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state ?? null;
  });
}

describe('the installable app', () => {
  it('manifest, service worker, offline page with the last chats, and a push that opens the chat', async () => {
    const { userId, chatId } = await userWithUnreadChat();
    const context = await journey.signedIn(userId, { width: 390, height: 844 });
    context.setDefaultTimeout(20_000);
    await context.grantPermissions(['notifications'], { origin: journey.app.baseUrl });
    const page = await context.newPage();

    // The manifest: Chromium reads it without errors, as the edition's standalone app starting at /chat.
    await page.goto(`${journey.app.baseUrl}/chat`);
    const cdp = await context.newCDPSession(page);
    const { errors, data } = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; data?: string };
    expect(errors).toEqual([]);
    const manifest = JSON.parse(data!) as {
      name: string;
      start_url: string;
      display: string;
      icons: Array<{ sizes: string; purpose: string }>;
    };
    expect(manifest).toMatchObject({ name: 'Reverie', start_url: '/chat', display: 'standalone' });
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual([
      '192x192 any',
      '192x192 maskable',
      '512x512 any',
      '512x512 maskable',
    ]);
    const icon = await page.request.get(`${journey.app.baseUrl}/icons/maskable-512.png`);
    expect(icon.headers()['content-type']).toBe('image/png');

    // The chats list with its unread count, and the Chats tab's badge.
    await poll(() => page.getByTestId('chat-row-unread').innerText()).toBe('1');
    await poll(() => page.getByTestId('chats-tab-badge').first().innerText()).toBe('1');

    // The service worker installs and, after a reload, controls the page.
    await poll(() => serviceWorkerActive(page), { timeout: 30_000 }).toBe('activated');
    await page.reload();
    await poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.getByTestId('chat-row').first().waitFor();

    // The network is gone: the precached shell loads, and the offline page lists the last chats.
    await context.setOffline(true);
    const offline = await page.reload();
    expect(offline?.fromServiceWorker()).toBe(true);
    await page.getByTestId('offline-page').waitFor();
    expect(await page.getByTestId('offline-chat').first().innerText()).toContain('Mira');
    expect(await page.getByTestId('offline-chat').first().getAttribute('href')).toBe(`/${slug}?chat=${chatId}`);
    // Back online: the app returns by itself (it asks the server every few seconds).
    await context.setOffline(false);
    await page.getByTestId('chat-row').first().waitFor();
    await page.goto(`${journey.app.baseUrl}/settings`);
    await page.getByTestId('notifications').waitFor();

    // A push delivered to the service worker shows a notification; tapping it opens the chat.
    await cdp.send('ServiceWorker.enable');
    const registrationId = await new Promise<string>((resolve) => {
      cdp.on(
        'ServiceWorker.workerRegistrationUpdated',
        (event: { registrations: Array<{ registrationId: string; scopeURL: string }> }) => {
          const found = event.registrations.find((r) => r.scopeURL === `${journey.app.baseUrl}/`);
          if (found) resolve(found.registrationId);
        },
      );
    });
    const payload = {
      title: 'Mira',
      body: 'I kept thinking about the comet…',
      icon: null,
      url: `/${slug}?chat=${chatId}`,
      tag: `chat-${chatId}`,
      chat_id: chatId,
      unread: 2,
      off_label: 'Turn off notifications',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: journey.app.baseUrl,
      registrationId,
      data: JSON.stringify(payload),
    });
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data as unknown,
        }));
      });
    await poll(shown).toEqual([
      { title: 'Mira', body: payload.body, tag: `chat-${chatId}`, data: { url: payload.url, chat_id: chatId } },
    ]);
    // The tap: the service worker's notificationclick, with the notification it showed.
    const [worker] = context.serviceWorkers();
    expect(worker).toBeDefined();
    await worker!.evaluate(async () => {
      // In the service worker's global scope (its types are not the page's).
      const sw = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notification] = await sw.registration.getNotifications();
      sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification: notification! }));
    });
    await poll(() => new URL(page.url()).searchParams.get('chat')).toBe(chatId);
    await page.getByTestId('chat-view').waitFor();
    expect(await shown()).toEqual([]);
    // Opening the chat read it: the badges are gone.
    await page.goto(`${journey.app.baseUrl}/chat`);
    await page.getByTestId('chat-row').first().waitFor();
    await poll(() => page.getByTestId('chat-row-unread').count()).toBe(0);
    await context.close();
  });
});
