import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useChatJourney } from './harness';

/**
 * A long chat on a phone (issue 29; docs/chat.md "Long chats", "Author's note"): it opens at the
 * newest of 3 000 messages; scrolled up, "jump to latest" shows, counts a reply that arrives
 * meanwhile and brings the user down; a send from far up lands the user on their message; a
 * scroll up at once after a send holds while the reply streams; leaving the chat and coming back
 * (in the app, and on a reload) lands on the message read last; "Go to…" opens the first
 * message; the author's note reaches the model.
 */
const slug = 'vela-e2e';
const COUNT = 3000;

const journey = useChatJourney({
  behaviour: { mode: 'slow', delayMs: 20, text: 'The harbour lights are on.' },
  character: { slug, name: 'Vela', age: 31, description: 'A harbour pilot.', greeting: 'Welcome aboard, {{user}}.' },
});

/** Polls for up to 45 s: a loaded machine answers slowly (vitest's default is 1 s). */
const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 45_000, ...options });

/** Whether a message with this text is inside the list's visible box. */
const inView = (page: Page, text: string) =>
  page.evaluate((wanted) => {
    const scroller = document.querySelector('[data-testid="message-scroller"]');
    if (!scroller) return false;
    const box = scroller.getBoundingClientRect();
    return Array.from(scroller.querySelectorAll('li')).some((li) => {
      if (!li.textContent?.includes(wanted)) return false;
      const rect = li.getBoundingClientRect();
      return rect.bottom > box.top && rect.top < box.bottom;
    });
  }, text);

/** The number of the first message in view ("Message 2917: …"), or null. */
const firstInView = (page: Page) =>
  page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="message-scroller"]');
    if (!scroller) return null;
    const box = scroller.getBoundingClientRect();
    // A day's separator (a `li` of its own) is no message.
    const first = Array.from(scroller.querySelectorAll('li:not([role="separator"])')).find(
      (li) => li.getBoundingClientRect().bottom > box.top + 1,
    );
    const found = /Message (\d+):/.exec(first?.textContent ?? '');
    return found ? Number(found[1]) : null;
  });

const scrollUp = (page: Page, px: number) =>
  page.evaluate((by) => {
    const scroller = document.querySelector('[data-testid="message-scroller"]')!;
    scroller.scrollTop = Math.max(0, scroller.scrollTop - by);
  }, px);

describe('a long chat on a phone', () => {
  it('opens at the newest, jumps, counts new replies, brings a send into view and holds a scroll up after it, reopens where the user read; the author note reaches the model', async () => {
    const userId = await journey.app.createUser({ name: 'Ilse' });
    const context = await journey.signedIn(userId, { width: 390, height: 844 });
    context.setDefaultTimeout(45_000);
    const page = await context.newPage();
    await page.goto(`${journey.app.baseUrl}/${slug}`);
    await poll(() => new URL(page.url()).searchParams.get('chat')).toBeTruthy();
    const chatId = new URL(page.url()).searchParams.get('chat')!;
    await journey.app.sql`
      insert into messages (chat_id, user_id, role, kind, text, state, tokens, selected, created_at)
      select ${chatId}::uuid, ${userId}::uuid, case when g % 2 = 0 then 'user' else 'bot' end, 1,
             'Message ' || g || ': the tide turns.', 'done', 10, true,
             now() - interval '1 hour' - (${COUNT} - g) * interval '1 minute'
      from generate_series(1, ${COUNT}) g`;
    await page.reload();

    // Opens at the newest; only a few dozen rows are in the page.
    await poll(() => inView(page, `Message ${COUNT}:`)).toBe(true);
    expect(await page.locator('[data-testid="message-scroller"] li').count()).toBeLessThan(120);
    expect(await page.getByTestId('jump-to-latest').count()).toBe(0);

    // Scrolled up: the button shows; older pages load on the way.
    for (let i = 0; i < 8; i++) {
      await scrollUp(page, 1500);
      await page.waitForTimeout(150);
    }
    await poll(() => page.getByTestId('jump-to-latest').isVisible()).toBe(true);
    await poll(() => inView(page, `Message ${COUNT}:`)).toBe(false);

    // A send from far up: the user lands on their message, then the reply follows.
    await page.getByTestId('composer').locator('textarea').fill('Where are we heading?');
    await page.getByTestId('send-button').click();
    await poll(() => inView(page, 'Where are we heading?')).toBe(true);
    await poll(() => inView(page, 'The harbour lights are on.'), { timeout: 60_000 }).toBe(true);
    await poll(() => page.getByTestId('jump-to-latest').count()).toBe(0);

    // A scroll up at once after a send holds: not the saved message replacing the one shown at
    // once, not the list measuring its rows, not the reply streaming in pulls the user down.
    // The reply, arriving while they read further up, is counted on the button.
    journey.model.setBehaviour({ mode: 'slow', delayMs: 40, firstDelayMs: 1500, text: 'A gull lands on the mast.' });
    await page.getByTestId('composer').locator('textarea').fill('Look up');
    await page.getByTestId('send-button').click();
    await poll(() => inView(page, 'Look up')).toBe(true);
    await scrollUp(page, 3000);
    const seen: (number | null)[] = [];
    for (let i = 0; i < 30; i++) {
      await page.waitForTimeout(100);
      expect(await inView(page, 'Look up')).toBe(false);
      seen.push(await firstInView(page));
    }
    // The rows at the new place are drawn a frame after the scroll: the first in view is read then.
    const held = seen[2]!;
    expect(held).not.toBeNull();
    expect(
      seen.every((n) => Math.abs((n ?? 0) - held) <= 2),
      `${held}: ${seen.join(' ')}`,
    ).toBe(true);
    await poll(() => page.getByTestId('new-count').innerText(), { timeout: 60_000 }).toBe('1');
    expect(await inView(page, 'A gull lands on the mast.')).toBe(false);
    expect(Math.abs(((await firstInView(page)) ?? 0) - held)).toBeLessThanOrEqual(2);
    await page.getByTestId('jump-to-latest').click();
    await poll(() => inView(page, 'A gull lands on the mast.')).toBe(true);

    // The place is kept: leaving the chat and coming back, in the app and on a reload, lands on
    // the message read last (the first in view), not on a row rendered above the view.
    for (let i = 0; i < 4; i++) {
      await scrollUp(page, 1500);
      await page.waitForTimeout(150);
    }
    await page.waitForTimeout(600);
    const reading = await firstInView(page);
    expect(reading).not.toBeNull();
    await page.getByTestId('chat-back').click();
    await page.getByTestId('chat-row').first().click();
    await poll(async () => Math.abs(((await firstInView(page)) ?? 0) - reading!)).toBeLessThanOrEqual(1);
    expect(await inView(page, 'A gull lands on the mast.')).toBe(false);
    await page.waitForTimeout(600);
    await page.reload();
    await poll(async () => Math.abs(((await firstInView(page)) ?? 0) - reading!)).toBeLessThanOrEqual(1);
    expect(await inView(page, 'A gull lands on the mast.')).toBe(false);

    // Go to… the first message; then back to the newest with the button.
    await page.getByTestId('chat-menu').click();
    await page.getByTestId('chat-menu-jump').click();
    await page.getByTestId('jump-first').click();
    await poll(() => inView(page, 'Message 1:')).toBe(true);
    await page.getByTestId('jump-to-latest').click();
    await poll(() => inView(page, 'A gull lands on the mast.')).toBe(true);

    // The author's note, written on the phone, reaches the model at its depth.
    await page.getByTestId('chat-menu').click();
    await page.getByTestId('chat-menu-author-note').click();
    await page.getByTestId('author-note-field').fill('Vela speaks in short sentences.');
    await page.getByTestId('author-note-depth').fill('0');
    await page.getByTestId('author-note-save').click();
    // The dialog closes once the note is saved; until then it traps the focus, and a fill would
    // type into the dialog's field instead of the composer.
    await poll(() => page.getByTestId('author-note-field').count()).toBe(0);
    journey.model.setBehaviour({ mode: 'slow', delayMs: 20, text: 'Aye.' });
    await page.getByTestId('composer').locator('textarea').fill('Ready?');
    await page.getByTestId('send-button').click();
    await poll(() => inView(page, 'Aye.'), { timeout: 60_000 }).toBe(true);
    const turns = journey.model.requests.at(-1)!.messages as { role: string; content: string }[];
    expect(turns.at(-1)).toEqual({ role: 'system', content: '[Vela speaks in short sentences.]' });
    await context.close();
  }, 400_000);
});
