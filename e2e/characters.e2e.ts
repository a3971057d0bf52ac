import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startPgApp, type PgApp } from './support/pg-app';

/**
 * Journey: explore → Anime filter → scrolling loads 15 more → a character's page shows its
 * name and greeting; then a signed-in user creates a character with a photo and finds it
 * first in the list; an author makes their private character public from its page and sees it
 * waiting for a review. The server runs on its own PostgreSQL database so the test can insert
 * the user and sign its token with the server's secret.
 */

let app: PgApp;
let browser: Browser | null = null;
let baseUrl = '';

async function passAgeGate(page: Page) {
  await page.getByRole('button', { name: 'I am 18 or older' }).click();
}

beforeAll(async () => {
  app = await startPgApp();
  baseUrl = app.baseUrl;
  // Enough anime characters that the Anime filter has more than one page (30 + 15).
  for (let i = 0; i < 40; i++) {
    await app.sql`insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, created_at)
      values (${`extra-anime-${i}`}, ${`Extra Anime ${i}`}, ${21 + (i % 20)}, ${'A community anime character.'}, ${'Hey there!'},
              ${['anime']}, 'public', 'approved', false, ${new Date(Date.UTC(2025, 5, 1) - i * 60_000)})`;
  }
  // Found by the search journey: by a word of its name and by one of its tags.
  await app.sql`insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, created_at)
    values ('zephyrine-vale', 'Zephyrine Vale', 29, ${'A lighthouse keeper who reads the stars.'}, ${'Hello, sailor.'},
            ${['realistic', 'stargazer']}, 'public', 'approved', false, ${new Date(Date.UTC(2024, 0, 1))})`;
  browser = await launchChromium();
});

/** The cards whose whole box is within the first screen of a 844 px tall phone. */
async function cardsOnFirstScreen(page: Page): Promise<number> {
  return page.getByTestId('character-card').evaluateAll(
    (cards) =>
      cards.filter((card) => {
        const box = card.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= 844;
      }).length,
  );
}

afterAll(async () => {
  await browser?.close().catch(() => {});
  await app?.stop();
});

describe('characters journey', () => {
  it('explore → Anime → scroll loads 15 more → a character page shows name and greeting', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await passAgeGate(page);
    const grid = page.getByTestId('character-grid');
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 20_000 }).toBe('30');

    await page.getByRole('button', { name: 'Anime', exact: true }).click();
    await expect
      .poll(async () => page.getByRole('button', { name: 'Anime', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    const cards = page.getByTestId('character-card');
    // The previous results stay (dimmed, aria-busy) until the filtered page arrives: wait for
    // a full page of anime characters only.
    await expect
      .poll(
        async () =>
          (await grid.getAttribute('aria-busy')) === null &&
          (await grid.getAttribute('data-count')) === '30' &&
          (await cards.allInnerTexts()).every((text) => text.includes('Anime')),
        { timeout: 20_000 },
      )
      .toBe(true);
    const firstPageNames = await cards.locator('h3').allInnerTexts();

    await page.mouse.wheel(0, 20_000);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 20_000 }).toBe('45');
    const allNames = await cards.locator('h3').allInnerTexts();
    expect(allNames.slice(0, 30)).toEqual(firstPageNames);
    // The first two pages: 45 distinct characters (a third page may already be arriving while
    // the bottom of the grid stays in view, so only those 45 are compared).
    expect(new Set(allNames.slice(0, 45)).size).toBe(45);
    expect(new Set(allNames).size).toBe(allNames.length);

    const target = cards.first();
    const name = (await target.locator('h3').innerText()).replace(/\s*\d+$/, '').trim();
    await target.click();
    const profile = page.getByTestId('character-page');
    await expect.poll(() => profile.locator('h1').innerText(), { timeout: 20_000 }).toContain(name);
    // The greeting's row is measured before it shows (the list is virtualised): wait for its text.
    await expect
      .poll(async () => (await page.getByTestId('greeting').innerText()).length, { timeout: 20_000 })
      .toBeGreaterThan(5);
    await context.close();
  });

  it("a phone's first screen of / shows characters: a guest under a compact welcome, a member under none", async () => {
    const guest = await browser!.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    const page = await guest.newPage();
    await page.goto(`${baseUrl}/`);
    await passAgeGate(page);
    await page.getByTestId('character-card').nth(1).waitFor({ timeout: 20_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('guest-hero').waitFor();
    expect(await cardsOnFirstScreen(page)).toBeGreaterThanOrEqual(2);
    await guest.close();

    const userId = await app.createUser({ name: 'Phone Member', age: 30 });
    const member = await app.signedInContext(browser!, userId, { width: 390, height: 844 });
    const memberPage = await member.newPage();
    await memberPage.goto(`${baseUrl}/`);
    await memberPage.getByTestId('character-card').nth(1).waitFor({ timeout: 20_000 });
    await memberPage.getByTestId('daily-claim').waitFor();
    // None of the marketing welcome: no hero, no offers.
    expect(await memberPage.getByTestId('guest-hero').count()).toBe(0);
    for (const text of ['Your AI companion is waiting', '60% off', 'Free unlimited chat', 'Start chatting free']) {
      expect(await memberPage.getByText(text).count()).toBe(0);
    }
    expect(await cardsOnFirstScreen(memberPage)).toBeGreaterThanOrEqual(2);
    await member.close();
  });

  it('search finds a character by name and by tag, and keeps the search in the address', async () => {
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await passAgeGate(page);
    const grid = page.getByTestId('character-grid');
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 20_000 }).toBe('30');
    const names = () => page.getByTestId('character-card').locator('h3').allInnerTexts();
    const search = page.getByRole('searchbox', { name: 'Search characters' });

    await search.fill('zephyr');
    await expect.poll(() => new URL(page.url()).searchParams.get('q'), { timeout: 10_000 }).toBe('zephyr');
    await expect.poll(names, { timeout: 20_000 }).toEqual([expect.stringContaining('Zephyrine Vale')]);

    await search.fill('stargazer');
    await expect.poll(() => new URL(page.url()).searchParams.get('q'), { timeout: 10_000 }).toBe('stargazer');
    await expect.poll(names, { timeout: 20_000 }).toEqual([expect.stringContaining('Zephyrine Vale')]);

    // A shared link opens with the search applied.
    await page.goto(`${baseUrl}/?q=Zephyrine`);
    await expect.poll(names, { timeout: 20_000 }).toEqual([expect.stringContaining('Zephyrine Vale')]);
    expect(await search.inputValue()).toBe('Zephyrine');

    await search.fill('no such character anywhere');
    await page.getByText('No character matches “no such character anywhere”.').waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('a signed-in user creates a character with a photo, lands in her chat, and she is first in the list', async () => {
    const userId = await app.createUser({ name: 'E2E User', age: 30 });
    const context = await app.signedInContext(browser!, userId, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?create=1`);
    const form = page.getByTestId('create-character-form');
    await form.waitFor({ timeout: 20_000 });
    const photo = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#e879f9' } })
      .png()
      .toBuffer();
    await page.getByTestId('photo-input').setInputFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: photo });
    await form.locator('input[name=name]').fill('Juniper Vale');
    await form.locator('input[name=age]').fill('27');
    await form.locator('textarea[name=description]').fill('A botanist who names every plant in her greenhouse.');
    await form.locator('textarea[name=greeting]').fill('Mind the ferns — they bite. Kidding. Welcome!');
    await form.getByRole('button', { name: 'Create', exact: true }).click();

    await form.waitFor({ state: 'detached', timeout: 20_000 });
    // She greets the user in her chat (issue 30); Explore lists her first.
    await page.waitForURL(/\/juniper-vale-[0-9a-z]+\?chat=[0-9a-f-]{36}$/, { timeout: 20_000 });
    await page.getByText('Mind the ferns — they bite. Kidding. Welcome!').waitFor({ timeout: 20_000 });
    await page.goto(`${baseUrl}/`);
    const first = page.getByTestId('character-card').first();
    await expect.poll(() => first.locator('h3').innerText(), { timeout: 20_000 }).toContain('Juniper Vale');
    const avatar = first.locator('img');
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 })
      .toBe(true);
    await context.close();
  });

  it('an author makes their private character public from its page and sees it waiting for a review', async () => {
    const userId = await app.createUser({ name: 'Author', age: 30 });
    await app.sql`insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, author_id)
      values ('odile-marsh', 'Odile Marsh', 33, ${'A ferry captain on a foggy lake.'}, ${'All aboard.'},
              ${['realistic']}, 'private', 'pending', false, ${userId})`;
    const context = await app.signedInContext(browser!, userId, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/odile-marsh`);
    await page.getByTestId('edit-character').click({ timeout: 20_000 });
    const form = page.getByTestId('edit-character-form');
    await form.getByRole('radio', { name: 'Everyone' }).click();
    await form.getByText('Public characters are reviewed first').waitFor();
    await form.getByRole('button', { name: 'Save and send for review' }).click();

    await form.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('Saved and sent for review.', { exact: false }).waitFor({ timeout: 10_000 });
    const notice = page.getByTestId('own-character-review');
    await expect.poll(() => notice.innerText(), { timeout: 20_000 }).toContain('Odile Marsh is waiting for a review');
    const [row] = await app.sql<{ visibility: string; review_state: string }[]>`
      select visibility, review_state from bots where slug = 'odile-marsh'`;
    expect(row).toEqual({ visibility: 'public', review_state: 'pending' });
    await context.close();
  });
});
