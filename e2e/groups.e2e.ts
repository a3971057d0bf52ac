import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../apps/server/test/fake-openai';
import { artifactsDir } from './harness';
import { launchChromium, startPgApp, type PgApp } from './support/pg-app';

/**
 * Group scenes (issue 32; docs/groups.md "Web"), two people on phones: the owner starts a group
 * with two characters from the chats list, makes an invite link in "People"; the second person
 * opens the link, confirms 18+ and joins; she sees the AI disclosure (only hers), types (the
 * owner sees it), sends a message naming a character; both see the message with her name and
 * the character's reply streamed under the character's own name; both are "here".
 * The second journey drives the scene's actions on the real server: a tapped face speaks,
 * "Continue" runs and is stopped by the other person, a mute reaches both, the owner removes
 * a person (who is sent back to the chats) and closes the link; a full, closed and expired
 * link each say so on the join page.
 */
let app: PgApp;
let model: FakeOpenAi;
let browser: Browser;
const REPLY = 'The lanterns sway over the harbour bar.';
const shots = path.join(artifactsDir, 'groups');

/** A round-ish coloured avatar with an initial (a real picture for the faces row). */
const avatar = (letter: string, colour: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="${colour}"/>` +
        `<text x="128" y="168" font-size="120" font-family="sans-serif" fill="white" text-anchor="middle">${letter}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();

async function addCharacter(slug: string, name: string, colour: string) {
  const [bot] = await app.sql<{ id: string }[]>`
    insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, voice)
    values (${slug}, ${name}, 28, ${`${name} keeps the harbour bar.`}, ${`Hi {{user}}, I'm ${name}.`},
            ${['realistic']}, 'public', 'approved', true, 'en-us+f3')
    returning id`;
  const key = `bots/${bot!.id}/avatar.png`;
  app.putMedia(key, await avatar(name[0]!, colour));
  await app.sql`update bots set avatar_key = ${key} where id = ${bot!.id}`;
}

beforeAll(async () => {
  model = await startFakeOpenAi({ behaviour: { mode: 'slow', delayMs: 40, text: REPLY } });
  app = await startPgApp({
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: model.url,
    LLM_MODEL: 'fake-model',
    SEED_ON_START: 'false',
  });
  await addCharacter('mira-group-e2e', 'Mira', '#7c3aed');
  await addCharacter('jun-group-e2e', 'Jun', '#0e7490');
  fs.mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  await app?.stop();
  await model?.close();
});

/** Polls for up to 30 s: a loaded machine answers slowly. */
const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 30_000, ...options });

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });

/** The API as the page's signed-in user (its tokens are in localStorage). */
async function api<T = unknown>(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(u, {
        method: m,
        headers: {
          authorization: `Bearer ${localStorage.getItem('access_token')}`,
          ...(b === null ? {} : { 'content-type': 'application/json' }),
        },
        body: b === null ? undefined : JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    },
    [method, url, body ?? null] as const,
  ) as Promise<{ status: number; body: T }>;
}

describe('a group scene shared by two people', () => {
  it('owner starts a group and invites; a second person joins by the link; a message and a streamed reply reach both', async () => {
    const ownerId = await app.createUser({ name: 'Ilse' });
    const guestId = await app.createUser({ name: 'Tomas' });
    const phone = { width: 390, height: 844 };
    const ownerContext = await app.signedInContext(browser, ownerId, phone);
    const guestContext = await app.signedInContext(browser, guestId, phone);
    ownerContext.setDefaultTimeout(30_000);
    guestContext.setDefaultTimeout(30_000);
    const owner = await ownerContext.newPage();
    const guest = await guestContext.newPage();

    // The owner: "New group" on the chats list, two characters, the place.
    await owner.goto(`${app.baseUrl}/chat`);
    await owner.getByTestId('new-group').click();
    const form = owner.getByTestId('new-group-form');
    await form.getByTestId('scene-pick-option').filter({ hasText: 'Mira' }).click();
    await form.getByTestId('scene-pick-option').filter({ hasText: 'Jun' }).click();
    await form.getByTestId('scene-place').fill('The harbour bar');
    await shot(owner, 'new-group-phone');
    await form.getByTestId('new-group-create').click();
    await poll(() => new URL(owner.url()).searchParams.get('chat')).toBeTruthy();
    const chatId = new URL(owner.url()).searchParams.get('chat')!;
    await poll(() => owner.getByTestId('scene-face').count()).toBe(2);
    await expect(owner.getByTestId('chat-title').innerText()).resolves.toBe('Mira and Jun');

    // "People": an invite link.
    await owner.getByTestId('scene-people-open').click();
    await owner.getByTestId('scene-invite-create').click();
    const link = await owner.getByTestId('scene-invite-url').first().inputValue();
    expect(link).toMatch(/\/scene\/join\/[\w-]{10,}$/);
    await shot(owner, 'people-phone');
    await owner.keyboard.press('Escape');

    // The second person opens the link: the preview, 18+, join.
    await guest.goto(link.replace(/^https?:\/\/[^/]+/, app.baseUrl));
    await poll(() => guest.getByTestId('scene-join-name').innerText()).toBe('Mira and Jun');
    await expect(guest.getByTestId('scene-join-disclosure').isVisible()).resolves.toBe(true);
    await expect(guest.getByTestId('scene-join-submit').isDisabled()).resolves.toBe(true);
    await shot(guest, 'join-phone');
    await guest.getByTestId('scene-join-adult').check();
    await guest.getByTestId('scene-join-submit').click();
    await poll(() => new URL(guest.url()).searchParams.get('chat')).toBe(chatId);
    await poll(() => guest.getByTestId('scene-face').count()).toBe(2);
    // Her AI disclosure is hers alone.
    await poll(() => guest.getByTestId('message-private').count()).toBeGreaterThan(0);
    // Both have the scene open: the owner sees two people here.
    await poll(() => owner.getByTestId('scene-online').innerText()).toContain('2');

    // She types: the owner sees it; she sends a message naming Mira.
    const field = guest.getByTestId('composer').locator('textarea');
    await field.pressSequentially('Hello @Mi');
    await poll(() => guest.getByTestId('mention-option').first().innerText()).toBe('@Mira');
    await guest.getByTestId('mention-option').first().click();
    await poll(() => owner.getByTestId('scene-typing').innerText()).toContain('Tomas');
    await field.pressSequentially('what are you pouring tonight?');
    await guest.getByTestId('send-button').click();

    // Both see her message (the owner with her name) and Mira's reply under Mira's name.
    await poll(() => guest.getByTestId('message-user').last().innerText()).toContain('Hello @Mira');
    await poll(() => owner.getByTestId('message-person').last().innerText()).toContain('Hello @Mira');
    await expect(owner.getByTestId('message-person').last().getByTestId('message-speaker').innerText()).resolves.toBe(
      'Tomas',
    );
    for (const page of [guest, owner]) {
      await poll(() => page.getByTestId('message-bot').last().getByTestId('message-text').innerText()).toBe(REPLY);
      await expect(page.getByTestId('message-bot').last().getByTestId('message-speaker').innerText()).resolves.toBe(
        'Mira',
      );
    }
    // The reply was streamed to the owner too (followed while written), and saved once.
    const saved =
      await app.sql`select count(*)::int as n from messages where chat_id = ${chatId} and role = 'bot' and text = ${REPLY}`;
    expect(saved[0]!.n).toBe(1);
    await shot(owner, 'scene-owner-phone');
    await shot(guest, 'scene-guest-phone');

    // The chats list shows the group's faces for both.
    await owner.goto(`${app.baseUrl}/chat`);
    await poll(() => owner.getByTestId('stacked-faces').count()).toBeGreaterThan(0);
    await shot(owner, 'chats-phone');

    // Desktop, for a look.
    await owner.setViewportSize({ width: 1280, height: 800 });
    await owner.goto(`${app.baseUrl}/mira-group-e2e?chat=${chatId}`);
    await poll(() => owner.getByTestId('message-bot').count()).toBeGreaterThan(0);
    await shot(owner, 'scene-owner-desktop');
    await owner.getByTestId('chat-call').click();
    await poll(() => owner.getByTestId('scene-call-option').count()).toBe(2);
    await shot(owner, 'call-picker-desktop');
    await owner.keyboard.press('Escape');
    await owner.getByTestId('scene-people-open').click();
    await poll(() => owner.getByTestId('scene-person').count()).toBe(2);
    await shot(owner, 'people-desktop');
    await owner.keyboard.press('Escape');
    await owner.getByTestId('scene-characters-open').click();
    await poll(() => owner.getByTestId('scene-character').count()).toBe(2);
    await shot(owner, 'characters-desktop');

    await ownerContext.close();
    await guestContext.close();
  });

  it('speak, Continue and its stop, mute, removal, closing the link; full, closed and expired links', async () => {
    const phone = { width: 390, height: 844 };
    const [ownerId, guestId, lateId] = await Promise.all([
      app.createUser({ name: 'Vera' }),
      app.createUser({ name: 'Tomas' }),
      app.createUser({ name: 'Lina' }),
    ]);
    const contexts = await Promise.all([ownerId, guestId, lateId].map((id) => app.signedInContext(browser, id, phone)));
    for (const context of contexts) context.setDefaultTimeout(30_000);
    const [owner, guest, late] = await Promise.all(contexts.map((context) => context.newPage()));
    await Promise.all([owner!, guest!, late!].map((page) => page.goto(`${app.baseUrl}/chat`)));

    // Set up through the API: a group of Mira and Jun; a link for two people, which Tomas uses.
    const created = await api<{ id: string }>(owner!, 'POST', '/api/chat/group', {
      bot_ids: ['mira-group-e2e', 'jun-group-e2e'],
    });
    expect(created.status).toBe(201);
    const chatId = created.body.id;
    const invite = await api<{ code: string }>(owner!, 'POST', `/api/chat/${chatId}/scene/invites`, {
      max_members: 2,
    });
    expect(invite.status).toBe(201);
    expect(
      (await api(guest!, 'POST', `/api/scene-invites/${invite.body.code}/join`, { adult_confirmed: true })).status,
    ).toBe(201);
    const sceneUrl = `${app.baseUrl}/mira-group-e2e?chat=${chatId}`;
    await Promise.all([owner!.goto(sceneUrl), guest!.goto(sceneUrl)]);
    for (const page of [owner!, guest!]) await poll(() => page.getByTestId('scene-face').count()).toBe(2);

    // A full link: Lina sees the scene, confirms 18+, and is told it is full.
    const joinUrl = `${app.baseUrl}/scene/join/${invite.body.code}`;
    await late!.goto(joinUrl);
    await poll(() => late!.getByTestId('scene-join-name').innerText()).toBe('Mira and Jun');
    await late!.getByTestId('scene-join-adult').check();
    await late!.getByTestId('scene-join-submit').click();
    await poll(() => late!.getByTestId('scene-join-error').innerText()).toBe('The scene is full.');

    // Speak: the owner taps Jun's face; both see Jun's reply under her name.
    await owner!.getByTestId('scene-face').filter({ hasText: 'Jun' }).click();
    // (The scene's first line answers nothing: its text is marked as a greeting.)
    for (const page of [owner!, guest!]) {
      await poll(() => page.getByTestId('message-bot').last().innerText()).toContain(REPLY);
      await expect(page.getByTestId('message-bot').last().getByTestId('message-speaker').innerText()).resolves.toBe(
        'Jun',
      );
    }

    // Continue: the owner starts it (slow replies now); Tomas stops it from his phone.
    model.setBehaviour({ mode: 'slow', delayMs: 400, text: REPLY });
    await owner!.getByTestId('scene-continue').click();
    await poll(() => guest!.getByTestId('scene-continue-stop').count()).toBe(1);
    await shot(guest!, 'continue-running-phone');
    await guest!.getByTestId('scene-continue-stop').click();
    for (const page of [owner!, guest!]) await poll(() => page.getByTestId('scene-continue').count()).toBe(1);
    await poll(
      async () =>
        (await app.sql`select count(*)::int as n from messages where chat_id = ${chatId} and state = 'streaming'`)[0]!
          .n,
    ).toBe(0);
    const after = (
      await app.sql`select count(*)::int as n from messages where chat_id = ${chatId} and role = 'bot'`
    )[0]!.n;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [later] = await app.sql`select continue_remaining, (select count(*)::int from messages
      where chat_id = ${chatId} and role = 'bot') as n from chats where id = ${chatId}`;
    expect(later).toMatchObject({ continue_remaining: 0, n: after });
    model.setBehaviour({ mode: 'slow', delayMs: 40, text: REPLY });

    // Mute: Tomas mutes Mira in "Characters"; the owner's row of faces shows it.
    await guest!.getByTestId('scene-characters-open').click();
    await guest!.getByTestId('scene-character').filter({ hasText: 'Mira' }).getByTestId('scene-mute').click();
    await poll(() => owner!.getByTestId('scene-face').filter({ hasText: 'Mira' }).getAttribute('data-muted')).toBe(
      'true',
    );
    await guest!.keyboard.press('Escape');

    // Removal: the owner removes Tomas; his page leaves the scene for the chats list.
    await owner!.getByTestId('scene-people-open').click();
    await owner!.getByTestId('scene-person').filter({ hasText: 'Tomas' }).getByTestId('scene-remove-person').click();
    await poll(() => new URL(guest!.url()).pathname).toBe('/chat');
    await poll(() => owner!.getByTestId('scene-person').count()).toBe(1);

    // Closing the link: it leaves the list, and Lina is told it was closed.
    await owner!.getByTestId('scene-invite-revoke').click();
    await poll(() => owner!.getByTestId('scene-invite').count()).toBe(0);
    await shot(owner!, 'people-link-closed-phone');
    await late!.goto(joinUrl);
    await poll(() => late!.getByTestId('scene-join-problem').innerText()).toBe(
      "The scene's owner closed this invite link.",
    );

    // An expired link says so.
    const old = await api<{ code: string }>(owner!, 'POST', `/api/chat/${chatId}/scene/invites`, {});
    await app.sql`update chat_invites set expires_at = now() - interval '1 minute' where code = ${old.body.code}`;
    await late!.goto(`${app.baseUrl}/scene/join/${old.body.code}`);
    await poll(() => late!.getByTestId('scene-join-problem').innerText()).toBe(
      'This invite link has expired. Ask the person who sent it for a new one.',
    );
    await shot(late!, 'join-expired-phone');

    for (const context of contexts) await context.close();
  });
});
