import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../apps/server/test/fake-openai';
import { launchChromium, startPgApp, type PgApp } from './support/pg-app';

/**
 * Lorebooks on a phone (issue 29; docs/lorebooks.md): from Settings the user creates a book,
 * makes it global and adds an entry (its chance under "Advanced"); in a chat a message names the
 * entry's keyword, the model receives the entry, and the last reply's "What went into the
 * prompt" says it fired on that keyword. Then the chat's menu in German fits on the phone's screen
 * and on a laptop's, every entry on one line.
 */
let app: PgApp;
let model: FakeOpenAi;
let browser: Browser;
const slug = 'wren-lore-e2e';

beforeAll(async () => {
  model = await startFakeOpenAi({ behaviour: { mode: 'slow', delayMs: 10, text: 'The lamp is lit.' } });
  app = await startPgApp({
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: model.url,
    LLM_MODEL: 'fake-model',
    SEED_ON_START: 'false',
  });
  await app.sql`
    insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, voice)
    values (${slug}, 'Wren', 29, 'A lighthouse keeper.', 'Evening, {{user}}.',
            ${['realistic']}, 'public', 'approved', true, 'en-us+f3')`;
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  await app?.stop();
  await model?.close();
});

/** A screenshot for a human look, when E2E_SHOTS_DIR names a folder. */
const shot = async (page: Page, name: string) => {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
};

const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 45_000, ...options });

describe('lorebooks on a phone', () => {
  it('creates an entry in Settings and sees it fire in “What went into the prompt”', async () => {
    const userId = await app.createUser({ name: 'Ilse' });
    const context = await app.signedInContext(browser, userId, { width: 390, height: 844 });
    context.setDefaultTimeout(45_000);
    const page = await context.newPage();

    await page.goto(`${app.baseUrl}/settings`);
    await page.getByTestId('settings-lorebooks').click();
    await page.getByTestId('lorebook-new-name').fill('Lighthouse lore');
    await page.getByTestId('lorebook-create').click();
    await page.getByTestId('lorebook-editor').waitFor();
    await page.getByTestId('lorebook-global').check();
    await page.getByTestId('lorebook-save').click();

    await page.getByTestId('lore-entry-add').click();
    const form = page.getByTestId('lore-entry-form');
    await form.getByTestId('lore-entry-comment').fill('The old lamp');
    await form.getByTestId('lore-entry-keys').fill('lamp, lantern');
    await form.getByTestId('lore-entry-content').fill('LORE-E2E: the lamp was lit by Wren’s grandmother.');
    await form.getByTestId('lore-entry-advanced').locator('summary').click();
    await form.getByTestId('lore-entry-probability').fill('100');
    await form.getByTestId('lore-entry-save').click();
    await page.getByTestId('lore-entry').filter({ hasText: 'The old lamp' }).waitFor();
    await shot(page, 'lorebook-editor-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'lorebook-editor-desktop');
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto(`${app.baseUrl}/${slug}`);
    await poll(() => new URL(page.url()).searchParams.get('chat')).toBeTruthy();
    await page.getByTestId('composer').locator('textarea').fill('Is the lamp still working?');
    await page.getByTestId('send-button').click();
    await page.getByText('The lamp is lit.').waitFor({ timeout: 60_000 });
    const system = (model.requests.at(-1)!.messages as { role: string; content: string }[])[0]!.content;
    expect(system).toContain('LORE-E2E');

    await page.getByTestId('message-menu').last().click();
    await page.getByTestId('message-menu-prompt').click();
    const trace = page.getByTestId('prompt-trace');
    await trace.waitFor();
    await poll(() => trace.getByTestId('trace-lore').first().innerText()).toContain('The old lamp');
    expect(await trace.getByTestId('trace-lore').first().innerText()).toContain('keyword “lamp”');
    expect(await trace.getByTestId('trace-lore-status').first().innerText()).toBe('Included');
    await shot(page, 'prompt-trace-phone');

    // The chat's menu in German (its longest words; about twenty entries): on the phone a bottom
    // sheet with every entry on one line, on a laptop a drop-down; either way all on the screen,
    // nothing to scroll.
    await context.addCookies([{ name: 'lang', value: 'de', url: app.baseUrl }]);
    await page.evaluate(() => localStorage.setItem('lang', 'de'));
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      await page.reload();
      await page.getByTestId('composer').waitFor();
      await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
      await page.getByTestId('chat-menu').click();
      const menu = page.getByRole('menu');
      await page.getByTestId('chat-menu-delete').waitFor();
      await shot(page, `chat-menu-de-${viewport.width}`);
      const box = (await menu.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      const fits = await menu.evaluate((element) => ({
        scrolls: element.scrollHeight > element.clientHeight + 1,
        items: Array.from(element.querySelectorAll('[role=menuitem]')).map(
          (item) => item.getBoundingClientRect().height,
        ),
      }));
      expect(fits.scrolls, `the menu scrolls at ${viewport.width}px`).toBe(false);
      expect(fits.items.length).toBeGreaterThanOrEqual(18);
      // One line each (an icon and a line of text, at most 40 px): no label wraps.
      expect(Math.max(...fits.items)).toBeLessThanOrEqual(40);
      await page.keyboard.press('Escape');
      await expect.poll(() => menu.count()).toBe(0);
    }
    await context.close();
  }, 400_000);
});
