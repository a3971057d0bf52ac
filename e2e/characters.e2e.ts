import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startPgApp, type PgApp } from './support/pg-app';

/**
 * Journey: explore → Anime filter → scrolling loads 15 more → a character's page shows its
 * name and greeting; then a signed-in user creates a character with a photo and finds it
 * first in the list. The server runs on its own PostgreSQL database so the test can insert
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
  browser = await launchChromium();
});

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
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 20_000 }).toBe('30');
    const cards = page.getByTestId('character-card');
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
    const greeting = await page.getByTestId('greeting').innerText();
    expect(greeting.length).toBeGreaterThan(5);
    await context.close();
  });

  it('a signed-in user creates a character with a photo and it is first in the list', async () => {
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
    const first = page.getByTestId('character-card').first();
    await expect.poll(() => first.locator('h3').innerText(), { timeout: 20_000 }).toContain('Juniper Vale');
    const avatar = first.locator('img');
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 })
      .toBe(true);
    await context.close();
  });
});
