import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import en from '../packages/shared/src/locales/en.json';
import { artifactsDir, useChatJourney } from './harness';

/**
 * Issue 26 item 4, on a phone (390×844): a paid picture is never free elsewhere. A free user
 * opens a character whose page shows her avatar and a page picture; she asks for selfies: each
 * one is one of the character's private pictures, blurred, never the avatar nor a page picture
 * nor one sent before; unblurring costs 3 desires; when none is left the character says so
 * kindly and nothing is charged. No private picture appears unblurred anywhere on the page,
 * in the catalogue, in the link preview or to a guest asking the media route.
 */
const privateKeys: string[] = [];

const png = (background: string) =>
  sharp({ create: { width: 320, height: 480, channels: 3, background } })
    .png()
    .toBuffer();

/** Every picture address the page shows (img src, srcset). */
const pictureAddresses = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('img')).flatMap((img) => [img.getAttribute('src') ?? '', img.srcset ?? '']),
  );

const journey = useChatJourney({
  behaviour: { mode: 'ok', text: 'Hello!' },
  character: {
    slug: 'nova-private-e2e',
    name: 'Nova',
    age: 27,
    description: 'A street photographer who loves neon nights.',
    greeting: 'Hey! Want to see the city through my eyes?',
  },
  // Her avatar, one page picture and two private pictures, in the server's media storage.
  prepare: async ({ app, bot }) => {
    const avatarKey = `bots/${bot.id}/avatar.png`;
    app.putMedia(avatarKey, await png('#0ea5e9'));
    await app.sql`update bots set avatar_key = ${avatarKey}, avatar_url = ${`/api/media/${avatarKey}`} where id = ${bot.id}`;
    const pageKey = `bots/${bot.id}/gallery-1.png`;
    app.putMedia(pageKey, await png('#f59e0b'));
    await app.sql`insert into bot_pictures (bot_id, media_key, position) values (${bot.id}, ${pageKey}, 0)`;
    for (const [n, colour] of ['#db2777', '#16a34a'].entries()) {
      const key = `bots/${bot.id}/private-${n + 1}.png`;
      privateKeys.push(key);
      app.putMedia(key, await png(colour));
      await app.sql`insert into bot_pictures (bot_id, media_key, position, visibility)
        values (${bot.id}, ${key}, ${n + 1}, 'private')`;
    }
  },
});

const leaked = (texts: string[]) => privateKeys.filter((key) => texts.some((text) => text.includes(key)));

describe('a paid picture is never free elsewhere (phone)', () => {
  it('asks for selfies: private ones only, each once, blurred until unblurred; then she has none left, free', async () => {
    const userId = await journey.app.createUser({ name: 'Phone User', numTokens: 10 });
    const context = await journey.signedIn(userId, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${journey.app.baseUrl}/${journey.bot.slug}`);
    await expect.poll(() => page.getByTestId('chat-title').innerText()).toContain('Nova');
    // The header's avatar and the intro's page picture: public ones only.
    await expect
      .poll(async () => (await pictureAddresses(page)).join(' '))
      .toContain(`bots/${journey.bot.id}/gallery-1.png`);
    expect(leaked(await pictureAddresses(page))).toEqual([]);

    const ask = async (text: string) => {
      await page.getByTestId('composer').locator('textarea').fill(text);
      await page.getByTestId('send-button').click();
    };
    const balance = async () =>
      (await journey.app.sql`select num_tokens from users where id = ${userId}`)[0]!.num_tokens;

    await ask('Send me a selfie');
    await page.getByTestId('chat-picture-blurred').last().waitFor({ timeout: 20_000 });
    expect(leaked(await pictureAddresses(page))).toEqual([]);
    await page.getByTestId('unblur-button').last().click();
    const full = page.getByTestId('chat-picture').last().locator('img');
    await expect
      .poll(() => full.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 })
      .toBe(true);
    expect(await balance()).toBe(7);

    await ask('another photo!');
    await expect.poll(() => page.getByTestId('chat-picture-blurred').count(), { timeout: 20_000 }).toBe(1);
    // Two different private pictures: the originals name the gallery picture they copy.
    const sent = await journey.app.sql`select original_key from messages
      where user_id = ${userId} and original_key is not null order by seq`;
    expect(sent).toHaveLength(2);
    const ids = sent.map((m) => /-([0-9a-f-]{36})\.webp$/.exec(m.original_key as string)![1]!);
    expect(new Set(ids).size).toBe(2);
    const rows = await journey.app.sql`select id, visibility from bot_pictures where id = any(${ids})`;
    expect(rows.map((r) => r.visibility)).toEqual(['private', 'private']);

    await ask('one more pic?');
    await expect
      .poll(() => page.getByTestId('message-text').last().innerText(), { timeout: 20_000 })
      .toBe(en.pictures.none_left);
    expect(await balance()).toBe(7);
    expect(leaked(await pictureAddresses(page))).toEqual([]);
    fs.mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'private-pictures-phone.png') });

    // After a reload the unblurred picture is still there, the blurred one still blurred.
    await page.reload();
    await expect.poll(() => page.getByTestId('chat-picture-blurred').count(), { timeout: 20_000 }).toBe(1);
    expect(leaked(await pictureAddresses(page))).toEqual([]);
    await context.close();
  });

  it('the catalogue, the link preview and a guest never get a private picture', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('age_confirmed', '1'));
    const page = await context.newPage();
    await page.goto(`${journey.app.baseUrl}/`);
    await page.getByText('Nova').first().waitFor({ timeout: 20_000 });
    expect(leaked(await pictureAddresses(page))).toEqual([]);
    await page.goto(`${journey.app.baseUrl}/${journey.bot.slug}`);
    await expect.poll(() => page.getByTestId('chat-title').innerText()).toContain('Nova');
    expect(leaked(await pictureAddresses(page))).toEqual([]);
    await context.close();

    const html = await (await fetch(`${journey.app.baseUrl}/${journey.bot.slug}`)).text();
    expect(html).toContain(`og:image" content="${journey.app.baseUrl}/api/media/bots/${journey.bot.id}/avatar.png"`);
    expect(leaked([html])).toEqual([]);
    for (const key of privateKeys) {
      expect((await fetch(`${journey.app.baseUrl}/api/media/${key}`)).status).toBe(404);
      expect((await fetch(`${journey.app.baseUrl}/api/media/${key}?w=256`)).status).toBe(404);
    }
    expect((await fetch(`${journey.app.baseUrl}/api/media/bots/${journey.bot.id}/gallery-1.png`)).status).toBe(200);
  });
});
