import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from './harness';
import { launchChromium, startPgApp, type PgApp } from './support/pg-app';

/**
 * Journey on a 390×844 phone (issue 30): create a character → land in her chat with her
 * greeting → Profile → My characters → edit her photo → delete her. Then the page at
 * 1280×800. Screenshots go to e2e/artifacts/shots/my-characters-*.png for a human look.
 */

let app: PgApp;
let browser: Browser | null = null;
const shots = path.join(artifactsDir, 'shots');

const picture = (background: string) =>
  sharp({ create: { width: 320, height: 320, channels: 3, background } })
    .png()
    .toBuffer();

beforeAll(async () => {
  app = await startPgApp();
  browser = await launchChromium();
  fs.mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  await app?.stop();
});

describe('my characters journey', () => {
  it('create → her chat → My characters → edit the photo → delete', async () => {
    const userId = await app.createUser({ name: 'Phone Author', age: 30 });
    const context = await app.signedInContext(browser!, userId, { width: 390, height: 844 });
    const page = await context.newPage();

    await page.goto(`${app.baseUrl}/?create=1`);
    const form = page.getByTestId('create-character-form');
    await form.waitFor({ timeout: 20_000 });
    await page
      .getByTestId('photo-input')
      .setInputFiles({ name: 'first.png', mimeType: 'image/png', buffer: await picture('#e879f9') });
    await form.locator('input[name=name]').fill('Saoirse Quill');
    await form.locator('input[name=age]').fill('29');
    await form.locator('textarea[name=description]').fill('A cartographer who draws maps of places she dreams of.');
    await form.locator('textarea[name=greeting]').fill('You found my map room. Sit, tell me where you want to go.');
    await form.getByRole('button', { name: 'Create', exact: true }).click();

    // She greets the user in her chat (the dialog, and with it the typed greeting, is gone).
    // The photo is judged before the character exists: slow on a busy machine.
    await form.waitFor({ state: 'detached', timeout: 60_000 });
    await page.waitForURL(/\/saoirse-quill-[0-9a-z]+\?chat=[0-9a-f-]{36}$/, { timeout: 30_000 });
    await page.getByText('You found my map room. Sit, tell me where you want to go.').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: path.join(shots, 'my-characters-landed-phone.png') });

    // Profile → My characters.
    await page.goto(`${app.baseUrl}/settings`);
    await page.getByTestId('settings-my-characters').click({ timeout: 20_000 });
    await page.waitForURL(/\/settings\/characters$/);
    const row = page.getByTestId('my-character').filter({ hasText: 'Saoirse Quill' });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getByTestId('my-character-state').innerText()).toBe('Private');
    expect(await row.getByTestId('my-character-counts').innerText()).toBe('1 chat');
    await page.screenshot({ path: path.join(shots, 'my-characters-phone.png') });
    const [before] = await app.sql<{ avatar_key: string }[]>`select avatar_key from bots where name = 'Saoirse Quill'`;

    // Edit: a new photo.
    await row.getByTestId('my-character-menu').click();
    await page.getByTestId('my-character-menu-edit').click();
    const edit = page.getByTestId('edit-character-form');
    await edit.waitFor({ timeout: 20_000 });
    await edit
      .getByTestId('photo-input')
      .setInputFiles({ name: 'second.png', mimeType: 'image/png', buffer: await picture('#38bdf8') });
    await page.screenshot({ path: path.join(shots, 'my-characters-edit-phone.png') });

    // Her own gallery, in the same form: two pictures, one made private; seen on the phone.
    const gallery = edit.getByTestId('edit-character-gallery');
    const galleryInput = gallery.locator('input[type=file]');
    await galleryInput.setInputFiles({ name: 'g1.png', mimeType: 'image/png', buffer: await picture('#f472b6') });
    await expect.poll(() => gallery.getByTestId('gallery-picture').count(), { timeout: 20_000 }).toBe(1);
    await galleryInput.setInputFiles({ name: 'g2.png', mimeType: 'image/png', buffer: await picture('#a3e635') });
    await expect.poll(() => gallery.getByTestId('gallery-picture').count(), { timeout: 20_000 }).toBe(2);
    await gallery.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'my-characters-gallery-phone.png') });
    const [pictures] = await app.sql<{ count: number }[]>`
      select count(*)::int as count from bot_pictures p join bots b on b.id = p.bot_id where b.name = 'Saoirse Quill'`;
    expect(pictures!.count).toBe(2);

    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await edit.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('Saved.', { exact: true }).waitFor({ timeout: 10_000 });
    const [after] = await app.sql<{ avatar_key: string }[]>`select avatar_key from bots where name = 'Saoirse Quill'`;
    expect(after!.avatar_key).not.toBe(before!.avatar_key);
    await expect
      .poll(() => row.locator('img').first().getAttribute('src'), { timeout: 10_000 })
      .toContain(after!.avatar_key.split('/').pop()!);

    // Delete.
    await row.getByTestId('my-character-menu').click();
    await page.getByTestId('my-character-menu-delete').click();
    const dialog = page.getByTestId('delete-character-dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Your own chats with this character stay in your chat list');
    await dialog.getByTestId('delete-character-confirm').click();
    await page.getByText('Saoirse Quill was deleted.').waitFor({ timeout: 10_000 });
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    const [gone] = await app.sql<{ deleted: boolean; visibility: string }[]>`
      select deleted_at is not null as deleted, visibility from bots where name = 'Saoirse Quill'`;
    expect(gone).toEqual({ deleted: true, visibility: 'private' });
    // Her chat stays in the user's chats, with its history.
    await page.goto(`${app.baseUrl}/chat`);
    await page.getByText('Saoirse Quill').first().waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('the page on a desktop (1280×800): states and counts side by side', async () => {
    const userId = await app.createUser({ name: 'Desk Author', age: 30 });
    const fan = await app.createUser({ name: 'Fan', age: 30 });
    await app.sql`insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, author_id)
      values ('wren-harbor', 'Wren Harbor', 31, ${'A harbour pilot.'}, ${'Tide is turning.'}, ${['realistic']}, 'public', 'approved', false, ${userId}),
             ('ilse-dorn', 'Ilse Dorn', 27, ${'A night-shift baker.'}, ${'Fresh bread?'}, ${['anime']}, 'public', 'rejected', false, ${userId})`;
    await app.sql`update bots set review_reason = 'Please choose another photo.' where slug = 'ilse-dorn'`;
    await app.sql`insert into chats (user_id, bot_id) select ${fan}, id from bots where slug = 'wren-harbor'`;
    const context = await app.signedInContext(browser!, userId, { width: 1280, height: 800 });
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/settings/characters`);
    const wren = page.getByTestId('my-character').filter({ hasText: 'Wren Harbor' });
    await wren.waitFor({ timeout: 20_000 });
    expect(await wren.getByTestId('my-character-counts').innerText()).toBe('1 chat · 1 person chatting');
    const ilse = page.getByTestId('my-character').filter({ hasText: 'Ilse Dorn' });
    expect(await ilse.getByTestId('my-character-reason').innerText()).toBe('Reason: Please choose another photo.');
    await page.screenshot({ path: path.join(shots, 'my-characters-desktop.png') });

    // Chat from the list: on a desktop the user's chats are beside the conversation.
    await wren.getByTestId('my-character-chat').click();
    await page.waitForURL(/\/wren-harbor\?chat=/, { timeout: 20_000 });
    const beside = page.getByTestId('chats-beside');
    await beside.getByTestId('chat-row').first().waitFor({ timeout: 20_000 });
    expect(await beside.locator('[aria-current=page]').innerText()).toContain('Wren Harbor');
    await page.getByText('Tide is turning.').first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: path.join(shots, 'chat-beside-desktop.png') });

    // Explore: "Continue chatting" first.
    await page.goto(`${app.baseUrl}/`);
    const continuing = page.getByTestId('continue-chatting');
    await continuing.waitFor({ timeout: 20_000 });
    expect(await continuing.getByTestId('continue-chatting-item').first().innerText()).toContain('Wren Harbor');
    await page.screenshot({ path: path.join(shots, 'explore-member-desktop.png') });
    await context.close();
  });
});
