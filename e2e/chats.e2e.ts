import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifactsDir, useChatJourney } from './harness';

/**
 * Chats addressed by id (issue 13, part A): "New chat" asks first; the chat left behind is
 * one tap away in the chat menu's history and in the chats list (two rows, two addresses,
 * two different chats); renaming shows the title; deleting a chat removes it everywhere.
 */
const slug = 'noor-e2e';

const journey = useChatJourney({
  behaviour: { mode: 'slow', delayMs: 20, text: 'The tide is high tonight.' },
  character: {
    slug,
    name: 'Noor',
    age: 29,
    description: 'A lighthouse keeper with stories.',
    greeting: 'Welcome to the lighthouse, {{user}}.',
  },
});

async function send(page: Page, text: string) {
  await page.getByTestId('composer').locator('textarea').fill(text);
  await page.getByTestId('send-button').click();
  await poll(() => page.getByTestId('message-user').last().innerText()).toContain(text);
  await poll(() => page.getByTestId('message-text').last().innerText(), { timeout: 20_000 }).toContain(
    'The tide is high tonight.',
  );
}

/** Polls for up to 20 s: a loaded machine answers slowly (vitest's default is 1 s). */
const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 20_000, ...options });

const chatIdOf = (page: Page) => new URL(page.url()).searchParams.get('chat');

describe('chats by id', () => {
  for (const viewport of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 800 },
  ]) {
    it(`${viewport.name}: New chat asks; the old chat stays reachable from the history and the list; delete removes one`, async () => {
      const userId = await journey.app.createUser({ name: `Ann ${viewport.name}` });
      const context = await journey.signedIn(userId, { width: viewport.width, height: viewport.height });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();

      // `/{slug}` alone opens (here: starts) the latest chat and moves to its address by id.
      await page.goto(`${journey.app.baseUrl}/${slug}`);
      await poll(() => chatIdOf(page)).toBeTruthy();
      const firstId = chatIdOf(page)!;
      await poll(() => page.getByTestId('greeting').innerText()).toContain('Welcome to the lighthouse');
      await send(page, 'Tell me about the first storm');

      // "New chat" asks first; cancelling changes nothing.
      await page.getByTestId('chat-menu').click();
      await page.getByTestId('chat-menu-new').click();
      const ask = page.getByRole('dialog');
      await poll(() => ask.innerText()).toContain('Start a new chat?');
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached' });
      expect(chatIdOf(page)).toBe(firstId);

      await page.getByTestId('chat-menu').click();
      await page.getByTestId('chat-menu-new').click();
      await page.getByTestId('new-chat-confirm').click();
      await poll(() => chatIdOf(page)).not.toBe(firstId);
      const secondId = chatIdOf(page)!;
      await poll(() => page.getByTestId('message-user').count()).toBe(0);
      await send(page, 'A new evening begins');

      // The menu's history: both chats, the first one tap away.
      await page.getByTestId('chat-menu').click();
      await page.getByTestId('chat-menu-history').click();
      const rows = page.getByTestId('chat-history-row');
      await poll(() => rows.count()).toBe(2);
      expect(await rows.nth(0).getAttribute('href')).toBe(`/${slug}?chat=${secondId}`);
      expect(await rows.nth(1).getAttribute('href')).toBe(`/${slug}?chat=${firstId}`);
      expect(await rows.nth(1).innerText()).toContain('The tide is high tonight.');
      if (viewport.name === 'phone')
        await page.screenshot({ path: path.join(artifactsDir, `chats-history-${viewport.name}.png`) });
      await rows.nth(1).click();
      await poll(() => chatIdOf(page)).toBe(firstId);
      await poll(() => page.getByTestId('message-user').first().innerText()).toContain('Tell me about the first storm');

      // Rename the first chat: the header shows the title.
      await page.getByTestId('chat-menu').click();
      await page.getByTestId('chat-menu-rename').click();
      await page.getByTestId('chat-title-field').fill('First storm');
      await page.getByTestId('chat-title-save').click();
      await poll(() => page.getByTestId('chat-title').innerText()).toBe('First storm');
      await page.screenshot({ path: path.join(artifactsDir, `chats-renamed-${viewport.name}.png`) });

      // The chats list: two rows, two links, each opening its own chat.
      await page.goto(`${journey.app.baseUrl}/chat`);
      const list = page.getByTestId('chat-row');
      await poll(() => list.count()).toBe(2);
      const hrefs = await list.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect(new Set(hrefs)).toEqual(new Set([`/${slug}?chat=${firstId}`, `/${slug}?chat=${secondId}`]));
      expect(await page.getByTestId('chat-list').innerText()).toContain('First storm');
      // Previews: the last real message, never the AI notice.
      expect(await page.getByTestId('chat-list').innerText()).not.toContain('is an AI character');
      await page.screenshot({ path: path.join(artifactsDir, `chats-list-${viewport.name}.png`) });

      await page.locator(`a[href="/${slug}?chat=${secondId}"]`).click();
      await poll(() => chatIdOf(page)).toBe(secondId);
      await poll(() => page.getByTestId('message-user').first().innerText()).toContain('A new evening begins');
      await page.goBack();
      await page.locator(`a[href="/${slug}?chat=${firstId}"]`).click();
      await poll(() => chatIdOf(page)).toBe(firstId);
      await poll(() => page.getByTestId('message-user').first().innerText()).toContain('Tell me about the first storm');

      // Search on the server: by title and by message text.
      await page.goto(`${journey.app.baseUrl}/chat`);
      await poll(() => list.count()).toBe(2);
      await page.getByTestId('chats-search').fill('new evening');
      await poll(() => list.count()).toBe(1);
      expect(await list.first().getAttribute('href')).toBe(`/${slug}?chat=${secondId}`);
      await page.getByTestId('chats-search').fill('');
      await poll(() => list.count()).toBe(2);

      // Delete the second chat from its row's menu: it goes from the list and its address.
      const secondRow = page.locator('li', { has: page.locator(`a[href="/${slug}?chat=${secondId}"]`) });
      await secondRow.getByTestId('chat-row-menu').click();
      await page.getByTestId('chat-row-delete').click();
      await page.getByTestId('delete-chat-confirm').click();
      await poll(() => list.count()).toBe(1);
      expect(await list.first().getAttribute('href')).toBe(`/${slug}?chat=${firstId}`);
      await page.goto(`${journey.app.baseUrl}/${slug}?chat=${secondId}`);
      await poll(() => page.getByRole('alert').first().innerText()).toContain('This chat no longer exists.');
      const [left] = await journey.app.sql<{ count: number }[]>`
        select count(*)::int as count from messages where chat_id = ${secondId}`;
      expect(left?.count).toBe(0);

      // Delete the first from the chat menu: back to an empty list.
      await page.goto(`${journey.app.baseUrl}/${slug}?chat=${firstId}`);
      await page.getByTestId('chat-menu').click();
      await page.getByTestId('chat-menu-delete').click();
      await page.getByTestId('delete-chat-confirm').click();
      await poll(() => new URL(page.url()).pathname).toBe('/chat');
      await poll(() => page.getByTestId('chats-empty').count()).toBe(1);
      await context.close();
    });
  }
});
