import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifactsDir, useChatJourney } from './harness';

/**
 * The memory journey (issue 28) on a phone (390×844): a member adds memories on the page
 * "What Nora remembers about you", pins one, chats — the pinned memory is in the prompt the
 * fake model receives and the reply's "remembered" mark lists it, highlighted as drawn on —,
 * opens it from the mark, corrects it (its history keeps the old wording), searches, forgets
 * one (it never reaches a later prompt), turns "don't remember this chat" on, reads the
 * journal, and forgets everything. Screenshots at 390×844 and 1280×800 go to
 * e2e/artifacts/memory/.
 */
const slug = 'nora-e2e';
const shots = path.join(artifactsDir, 'memory');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const journey = useChatJourney({
  behaviour: { mode: 'ok' },
  character: {
    slug,
    name: 'Nora',
    age: 27,
    description: 'A bookshop owner who loves the sea.',
    greeting: 'Hi {{user}}! Back at the shop?',
  },
  prepare: async () => void fs.mkdirSync(shots, { recursive: true }),
});

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: false });

/** The chat completion requests of replies (not the memory extraction's structured ones). */
const replyPrompts = () =>
  journey.model.requests.filter((body) => !body.response_format).map((body) => JSON.stringify(body.messages));

async function addMemory(page: Page, text: string, kind: string, day?: string) {
  await page.getByTestId('memory-add').click();
  const form = page.getByTestId('memory-form');
  await form.getByTestId('memory-text-field').fill(text);
  await form.getByTestId(`memory-kind-${kind}`).click();
  if (day) await form.getByTestId('memory-date-field').fill(day);
  await form.getByTestId('memory-save').click();
  await form.waitFor({ state: 'detached' });
  await page.getByTestId('memory').filter({ hasText: text }).waitFor();
}

const memoryCard = (page: Page, text: string) => page.getByTestId('memory').filter({ hasText: text });

async function send(page: Page, text: string, reply: string) {
  journey.model.setBehaviour({ mode: 'ok', text: reply });
  const before = replyPrompts().length;
  await page.getByTestId('composer').locator('textarea').fill(text);
  await page.getByTestId('send-button').click();
  await expect.poll(() => page.getByTestId('message-text').last().innerText(), { timeout: 20_000 }).toBe(reply);
  await expect.poll(() => page.getByTestId('stop-button').count()).toBe(0);
  await expect.poll(() => replyPrompts().length).toBeGreaterThan(before);
  return replyPrompts().at(-1)!;
}

describe('memory journey (phone)', () => {
  it('add, pin, cited in a reply, open from the mark, correct, search, forget, journal, forget everything', async () => {
    const userId = await journey.app.createUser({ name: 'Sam' });
    const context = await journey.signedIn(userId, PHONE);
    const page = await context.newPage();

    // The empty page.
    await page.goto(`${journey.app.baseUrl}/memories/${slug}`);
    await expect.poll(() => page.getByTestId('memories-title').innerText()).toBe('What Nora remembers about you');
    await page.getByTestId('memories-empty').waitFor();
    await shot(page, 'phone-empty');

    // Three memories by hand; the shared moment on the timeline with its day.
    await addMemory(page, 'My sister is called Ana', 'user');
    await addMemory(page, 'We watched the fireworks at the harbour', 'event', '2026-08-15');
    await addMemory(page, 'I love old jazz records', 'story');
    await expect.poll(() => page.getByTestId('memory-day').innerText()).toBe('Aug 15, 2026');
    await memoryCard(page, 'My sister is called Ana').getByTestId('memory-pin').click();
    await expect
      .poll(() => memoryCard(page, 'My sister is called Ana').getByTestId('memory-pin').getAttribute('aria-pressed'))
      .toBe('true');
    await shot(page, 'phone-memories');

    // The chat: the pinned memory is in the prompt; the reply draws on it.
    await page.goto(`${journey.app.baseUrl}/${slug}`);
    await expect
      .poll(() => page.getByTestId('greeting').innerText(), { timeout: 15_000 })
      .toContain('Back at the shop?');
    const prompt = await send(page, 'Guess who called me today?', 'Your sister Ana! Tell her Nora says hello.');
    expect(prompt).toContain('My sister is called Ana');
    // The citations are stored as the reply ends: the history carries them.
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId('message-text').last().waitFor();
          return page.getByTestId('remembered-mark').count();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(1);
    const mark = page.getByTestId('remembered-mark');
    expect(await mark.getAttribute('data-drew-on')).toBe('true');
    await shot(page, 'phone-chat-mark');
    await mark.click();
    const cited = page.getByTestId('remembered-memory').filter({ hasText: 'My sister is called Ana' });
    expect(await cited.getAttribute('data-drew-on')).toBe('true');
    await expect.poll(() => cited.innerText()).toContain('Shaped this reply');
    await shot(page, 'phone-mark-sheet');

    // Tapping it opens it on the memory page, highlighted.
    await cited.click();
    await page.getByTestId('memories-page').waitFor();
    await expect.poll(() => memoryCard(page, 'My sister is called Ana').getAttribute('data-highlighted')).toBe('true');
    await shot(page, 'phone-opened-from-mark');

    // A correction; the history keeps how it read before.
    await memoryCard(page, 'My sister is called Ana').getByTestId('memory-menu').click();
    await page.getByTestId('memory-menu-edit').click();
    await page.getByTestId('memory-text-field').fill('My sister is called Anna');
    await page.getByTestId('memory-save').click();
    await page.getByTestId('memory-form').waitFor({ state: 'detached' });
    await memoryCard(page, 'My sister is called Anna').getByTestId('memory-menu').click();
    await page.getByTestId('memory-menu-history').click();
    const entries = page.getByTestId('memory-history-entry');
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(2);
    expect(await entries.first().innerText()).toContain('My sister is called Anna');
    await expect.poll(() => page.getByTestId('memory-history').innerText()).toContain('My sister is called Ana\n');
    await shot(page, 'phone-history');
    await page.keyboard.press('Escape');
    await page.getByTestId('memory-history').waitFor({ state: 'detached' });

    // Search, then forget one.
    await page.getByTestId('memories-search').fill('jazz');
    await expect.poll(() => page.getByTestId('memory').count()).toBe(1);
    await shot(page, 'phone-search');
    await memoryCard(page, 'I love old jazz records').getByTestId('memory-menu').click();
    await page.getByTestId('memory-menu-forget').click();
    await page.getByTestId('memory-forget-confirm').click();
    await page.getByTestId('memories-no-match').waitFor();
    await page.getByTestId('memories-search').fill('');
    await expect.poll(() => page.getByTestId('memory').count()).toBe(2);

    // The forgotten memory never reaches a later prompt; the corrected one does.
    await page.goto(`${journey.app.baseUrl}/${slug}`);
    await page.getByTestId('message-text').last().waitFor();
    const later = await send(page, 'What music do I like?', 'Tell me, I am curious.');
    expect(later).not.toContain('jazz');
    expect(later).toContain('My sister is called Anna');
    // The live reply gets its mark without a reload.
    await expect
      .poll(() => page.getByTestId('message-bot').last().getByTestId('remembered-mark').count(), { timeout: 10_000 })
      .toBe(1);

    // "Don't remember this chat" from the menu.
    await page.getByTestId('chat-menu').click();
    await page.getByTestId('chat-menu-remember').click();
    await page.getByTestId('chat-not-remembered').waitFor();
    await page.reload();
    await page.getByTestId('chat-not-remembered').waitFor();
    await page.getByTestId('chat-menu').click();
    await expect.poll(() => page.getByTestId('chat-menu-remember').innerText()).toContain('Remember this chat again');
    await shot(page, 'phone-chat-menu');
    await page.keyboard.press('Escape');

    // The journal: off, turned on, an entry written for a day of conversation.
    await page.getByTestId('chat-menu').click();
    await page.getByTestId('chat-menu-remembers').click();
    await page.getByTestId('memories-page').waitFor();
    await page.getByRole('radio', { name: 'Journal' }).click();
    const toggle = page.getByTestId('journal-toggle');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    const [bot] = await journey.app.sql`select id from bots where slug = ${slug}`;
    await journey.app.sql`insert into journal_entries (user_id, bot_id, day, text)
      values (${userId}, ${bot!.id}, '2026-11-26', 'Sam told me about Anna today. I hope I get to meet her.')`;
    await page.reload();
    await page.getByRole('radio', { name: 'Journal' }).click();
    await expect.poll(() => page.getByTestId('journal-entry').innerText()).toContain('I hope I get to meet her.');
    await shot(page, 'phone-journal');

    // The same page on a desktop.
    const desktop = await journey.signedIn(userId, DESKTOP);
    const wide = await desktop.newPage();
    await wide.goto(`${journey.app.baseUrl}/memories/${slug}`);
    await wide.getByTestId('memory').first().waitFor();
    await shot(wide, 'desktop-memories');
    await wide.goto(`${journey.app.baseUrl}/${slug}`);
    await wide.getByTestId('remembered-mark').first().click();
    await wide.getByTestId('remembered-list').waitFor();
    await shot(wide, 'desktop-mark-sheet');
    await desktop.close();

    // Forget everything.
    await page.getByRole('radio', { name: 'Memories' }).click();
    await page.getByTestId('memories-forget-all').click();
    await page.getByTestId('memories-forget-all-confirm').click();
    await page.getByTestId('memories-empty').waitFor();
    const [left] = await journey.app.sql`select count(*)::int as n from memories where user_id = ${userId}`;
    expect(left!.n).toBe(0);
    // Her journal retold those memories: its entries went with them.
    const [diary] = await journey.app.sql`select count(*)::int as n from journal_entries where user_id = ${userId}`;
    expect(diary!.n).toBe(0);
    await context.close();
  });
});
