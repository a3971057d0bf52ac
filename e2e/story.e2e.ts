import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifactsDir, useChatJourney } from './harness';

/**
 * Shaping the story on a phone (issue 29): edit a message, branch from a reply, switch between
 * the branch and the main story, search in the chat and open a hit's neighbourhood.
 */
const slug = 'mira-story-e2e';

const journey = useChatJourney({
  behaviour: { mode: 'slow', delayMs: 10, text: 'The storm came at dawn.' },
  character: { slug, name: 'Mira', age: 31, description: 'A sailor who tells stories.', greeting: 'Ahoy, {{user}}.' },
});

/** Polls for up to 20 s: a loaded machine answers slowly. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const chatIdOf = (page: Page) => new URL(page.url()).searchParams.get('chat');
const userTexts = (page: Page) => page.getByTestId('message-user').allInnerTexts();

async function send(page: Page, text: string) {
  const before = await page.getByTestId('message-bot').count();
  await page.getByTestId('composer').locator('textarea').fill(text);
  await page.getByTestId('send-button').click();
  await poll(() => page.getByTestId('message-bot').count()).toBe(before + 1);
  await poll(() => page.getByTestId('message-bot').last().getAttribute('data-state')).toBe('done');
}

/** Opens the menu of the message (user or bot) holding `text` and picks an item. */
async function messageMenu(page: Page, text: string, item: string) {
  const row = page
    .locator('li', { hasText: text })
    .filter({ has: page.getByTestId('message-menu') })
    .last();
  await row.getByTestId('message-menu').click();
  await row.getByTestId(`message-menu-${item}`).click();
}

describe('the story on a phone', () => {
  it('edit, branch, switch branch, search and open a hit', async () => {
    const userId = await journey.app.createUser({ name: 'Ines' });
    const context = await journey.signedIn(userId, { width: 390, height: 844 });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await page.goto(`${journey.app.baseUrl}/${slug}`);
    await poll(() => chatIdOf(page)).toBeTruthy();
    const rootId = chatIdOf(page)!;
    await send(page, 'Tell me about the harbour');
    await send(page, 'And the lighthouse?');

    // Edit my message: saved, marked edited.
    await messageMenu(page, 'And the lighthouse?', 'edit');
    await page.getByTestId('edit-message-field').fill('And the old lighthouse?');
    await page.getByTestId('edit-save').click();
    await poll(() => userTexts(page)).toContainEqual(expect.stringContaining('And the old lighthouse?'));
    await poll(() => page.getByTestId('message-edited').count()).toBe(1);
    await page.screenshot({ path: path.join(artifactsDir, 'story-edited-phone.png') });

    // Branch from the first reply: a new chat with the history up to it.
    const firstReply = page.getByTestId('message-bot').nth(1);
    await firstReply.getByTestId('message-menu').click();
    await firstReply.getByTestId('message-menu-branch').click();
    await poll(() => chatIdOf(page)).not.toBe(rootId);
    const branchId = chatIdOf(page)!;
    await poll(() => userTexts(page)).toEqual([expect.stringContaining('Tell me about the harbour')]);
    await send(page, 'Take the other road instead');
    await poll(() => userTexts(page)).toHaveLength(2);

    // The switcher in the header shows the tree; the main story opens with its own history.
    await page.getByTestId('chat-branches').click();
    const rows = page.getByTestId('branch-row');
    await poll(() => rows.count()).toBe(2);
    await poll(() => rows.nth(1).getAttribute('aria-current')).toBe('true');
    await page.screenshot({ path: path.join(artifactsDir, 'story-branches-phone.png') });
    await rows.nth(0).click();
    await poll(() => chatIdOf(page)).toBe(rootId);
    await poll(() => userTexts(page)).toContainEqual(expect.stringContaining('And the old lighthouse?'));
    expect(await userTexts(page)).not.toContainEqual(expect.stringContaining('Take the other road'));

    // Search in the chat and open a hit: its neighbourhood loads with the words marked.
    await page.getByTestId('chat-search').click();
    await page.getByTestId('chat-search-field').fill('lighthouses');
    const hit = page.getByTestId('chat-search-hit').first();
    await poll(() => hit.innerText()).toContain('lighthouse');
    await poll(() => hit.getByTestId('search-mark').first().innerText()).toBe('lighthouse');
    await hit.click();
    await poll(() => page.getByTestId('around-hit').innerText()).toContain('And the old lighthouse?');
    await poll(() => page.getByTestId('search-neighbourhood').getByRole('listitem').count()).toBeGreaterThan(2);
    await page.screenshot({ path: path.join(artifactsDir, 'story-search-phone.png') });
    await page.keyboard.press('Escape');

    // The chats list shows the branch under its root.
    await page.goto(`${journey.app.baseUrl}/chat`);
    const listRows = page.getByTestId('chat-row');
    await poll(() => listRows.count()).toBe(2);
    await poll(() => page.locator('li[data-branch="true"]').count()).toBe(1);
    expect(await page.locator('li[data-branch="true"] a').getAttribute('href')).toContain(branchId);
    await context.close();
  }, 180_000);
});
