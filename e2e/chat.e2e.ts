import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useChatJourney } from './harness';

/**
 * Journeys of the chat (issues 5 and 7): a member logs in, opens a character, sends a
 * message, the reply streams in and survives a reload; a free user asks for a picture,
 * unblurs it and pays 3 desires; a premium user plays a character's voice message. The
 * server talks to a fake OpenAI-compatible model inside this test (real HTTP, real SSE).
 */
// The character of the chat and voice journeys (the picture journey makes its own).
const journey = useChatJourney({
  behaviour: { mode: 'slow', delayMs: 120 },
  character: {
    slug: 'mira-e2e',
    name: 'Mira',
    age: 26,
    description: 'A cheerful barista who loves jazz.',
    greeting: 'Hi {{user}}! Coffee or tea?',
  },
});

describe('chat journey', () => {
  it('log in → open a character → send → the reply streams in → reload → the history is intact', async () => {
    const email = `chat-${Date.now()}@example.test`;
    const registered = await fetch(`${journey.app.baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ChatJourney', email, password: 'chat-password', age_confirmed: true }),
    });
    expect(registered.status).toBe(201);

    const context = await journey.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    context.setDefaultTimeout(20_000);
    await context.addInitScript(() => localStorage.setItem('age_confirmed', '1'));
    const page = await context.newPage();
    await page.goto(`${journey.app.baseUrl}/?login=1`);
    const login = page.getByTestId('login-form');
    await login.getByLabel('E-mail').fill(email);
    await login.getByLabel('Password', { exact: true }).fill('chat-password');
    await login.getByRole('button', { name: 'Log in' }).click();
    await login.waitFor({ state: 'detached' });

    await page.goto(`${journey.app.baseUrl}/${journey.bot.slug}`);
    await expect.poll(() => page.getByTestId('chat-title').innerText()).toContain('Mira');
    await expect.poll(() => page.getByTestId('greeting').innerText(), { timeout: 15_000 }).toContain('Coffee or tea?');

    journey.model.setBehaviour({ mode: 'slow', delayMs: 150, text: 'I would love a cappuccino with you, darling.' });
    const composer = page.getByTestId('composer');
    await composer.locator('textarea').fill('What do you like to drink?');
    await page.getByTestId('send-button').click();
    await expect
      .poll(() => page.getByTestId('message-user').last().innerText())
      .toContain('What do you like to drink?');
    // Streaming: part of the reply is visible before all of it.
    const reply = page.getByTestId('message-text').last();
    await expect.poll(async () => (await reply.innerText()).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const partial = await reply.innerText();
    expect(partial.length).toBeLessThan('I would love a cappuccino with you, darling.'.length);
    await expect
      .poll(() => reply.innerText(), { timeout: 20_000 })
      .toBe('I would love a cappuccino with you, darling.');
    await expect.poll(() => page.getByTestId('stop-button').count()).toBe(0);

    await page.reload();
    await expect
      .poll(() => page.getByTestId('message-text').last().innerText(), { timeout: 20_000 })
      .toBe('I would love a cappuccino with you, darling.');
    await expect
      .poll(() => page.getByTestId('message-user').last().innerText())
      .toContain('What do you like to drink?');
    await expect.poll(() => page.getByTestId('greeting').innerText(), { timeout: 15_000 }).toContain('Coffee or tea?');

    // The chat is in the chats list.
    await page.goto(`${journey.app.baseUrl}/chat`);
    await expect.poll(() => page.getByTestId('chat-row-name').first().innerText()).toContain('Mira');
    await context.close();
  });

  it('a free user asks for a picture, sees it blurred, unblurs it and the balance drops by 3', async () => {
    // A character created through the page, so her photo lands in the server's own storage;
    // then approved and given a private picture directly.
    const authorId = await journey.app.createUser({ name: 'Author' });
    const authorContext = await journey.signedIn(authorId);
    const photo = await sharp({ create: { width: 320, height: 480, channels: 3, background: '#f472b6' } })
      .png()
      .toBuffer();
    const authorPage = await authorContext.newPage();
    await authorPage.goto(`${journey.app.baseUrl}/?create=1`);
    const form = authorPage.getByTestId('create-character-form');
    await form.waitFor({ timeout: 20_000 });
    await authorPage.getByTestId('photo-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
    await form.locator('input[name=name]').fill('Selene');
    await form.locator('input[name=age]').fill('29');
    await form.locator('textarea[name=description]').fill('A night-owl photographer who loves the city lights.');
    await form.locator('textarea[name=greeting]').fill('Hey you. Want to see my latest shots?');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await form.waitFor({ state: 'detached', timeout: 20_000 });
    await authorContext.close();
    const [selene] = await journey.app.sql`select id, slug, avatar_key from bots where name = 'Selene'`;
    await journey.app.sql`update bots set visibility = 'public', review_state = 'approved' where id = ${selene!.id}`;
    // A private picture (sent in chat only; her avatar and page pictures never are).
    const privateKey = `bots/${selene!.id}/private-1.png`;
    journey.app.putMedia(
      privateKey,
      await sharp({ create: { width: 320, height: 480, channels: 3, background: '#7c3aed' } })
        .png()
        .toBuffer(),
    );
    await journey.app
      .sql`insert into bot_pictures (bot_id, media_key, position, visibility) values (${selene!.id}, ${privateKey}, 0, 'private')`;

    const userId = await journey.app.createUser({ name: 'Free User', numTokens: 10 });
    const context = await journey.signedIn(userId, { width: 1280, height: 800 });
    const page = await context.newPage();
    await page.goto(`${journey.app.baseUrl}/${selene!.slug}`);
    await page.getByTestId('composer').locator('textarea').fill('Send me a photo of you');
    await page.getByTestId('send-button').click();
    const picture = page.getByTestId('chat-picture-blurred').last();
    await picture.waitFor({ timeout: 20_000 });
    const balanceBefore = await journey.app.sql`select num_tokens from users where id = ${userId}`;
    expect(balanceBefore[0]!.num_tokens).toBe(10);
    await page.getByTestId('unblur-button').last().click();
    const full = page.getByTestId('chat-picture').last().locator('img');
    await expect
      .poll(() => full.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 })
      .toBe(true);
    await expect.poll(() => page.getByTestId('chat-picture-blurred').count()).toBe(0);
    const balanceAfter = await journey.app.sql`select num_tokens from users where id = ${userId}`;
    expect(balanceAfter[0]!.num_tokens).toBe(7);
    await context.close();
  });

  it('a premium user plays a voice message and the audio has a duration', async () => {
    const userId = await journey.app.createUser({ name: 'Premium User', premium: true });
    const context = await journey.signedIn(userId, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${journey.app.baseUrl}/${journey.bot.slug}`);
    journey.model.setBehaviour({ mode: 'ok', text: 'Good evening! Let me sing you a little song.' });
    await page.getByTestId('composer').locator('textarea').fill('Say something sweet');
    await page.getByTestId('send-button').click();
    await expect
      .poll(() => page.getByTestId('message-text').last().innerText(), { timeout: 20_000 })
      .toBe('Good evening! Let me sing you a little song.');
    // The reply has finished (its own voice button is there, under the last bubble).
    await expect.poll(() => page.getByTestId('stop-button').count()).toBe(0);
    const reply = page.getByTestId('message-bot').last();
    await reply.getByTestId('voice-button').click();
    const audio = reply.getByTestId('voice-audio');
    await expect
      .poll(() => audio.evaluate((el: HTMLAudioElement) => (Number.isFinite(el.duration) ? el.duration : 0)), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0.5);
    // The playback bar: position and duration, and seeking works (the media is served with
    // Range, which Chromium needs to seek).
    const seek = reply.getByTestId('voice-seek');
    await expect.poll(() => seek.isEnabled(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => reply.getByTestId('voice-time').innerText()).toMatch(/^\d:\d\d \/ \d:\d\d$/);
    await expect
      .poll(() => audio.evaluate((el: HTMLAudioElement) => (el.seekable.length ? el.seekable.end(0) : 0)))
      .toBeGreaterThan(0.5);
    await audio.evaluate((el: HTMLAudioElement) => {
      el.pause();
      el.currentTime = el.duration / 2;
    });
    await expect
      .poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime / el.duration))
      .toBeGreaterThan(0.4);
    await context.close();
  });

  it('a greeting with *actions* shows them as emphasis, without asterisks, and **bold** as bold', async () => {
    const [bot] = await journey.app.sql`
      insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, voice)
      values ('lena-e2e', 'Lena', 29, 'A bartender with a story for every glass.',
              '*She pours a glass of red and slides it over.* Here you go, **darling**. <b>Cheers</b>',
              ${['realistic']}, 'public', 'approved', true, 'en-gb+f4')
      returning slug`;
    const context = await journey.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    context.setDefaultTimeout(20_000);
    await context.addInitScript(() => localStorage.setItem('age_confirmed', '1'));
    const page = await context.newPage();
    await page.goto(`${journey.app.baseUrl}/${bot!.slug}`);
    const greeting = page.getByTestId('greeting');
    await expect.poll(() => greeting.innerText()).toContain('Here you go');
    expect(await greeting.locator('em').innerText()).toBe('She pours a glass of red and slides it over.');
    expect(await greeting.locator('strong').innerText()).toBe('darling');
    expect(await greeting.innerText()).not.toContain('*');
    // Markup in a character's text stays text.
    expect(await greeting.innerText()).toContain('<b>Cheers</b>');
    expect(await greeting.locator('b').count()).toBe(0);
    await context.close();
  });
});
