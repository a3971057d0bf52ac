import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Chat, History, Message, Scene, SceneInvite } from '@reverie/shared';
import { botPictures, chatInvites, chats, memories, messages, users } from '../../db/schema.js';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { balanceOf, grantDesires } from '../../../test/billing-helpers.js';
import { createBot, createPremium, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { ScriptedLlm } from '../../../test/scripted-llm.js';

/** Group scenes (docs/groups.md): one app, several people and characters. */

async function setup(env: Record<string, string> = {}, deps: { storage?: MediaStorage } = {}) {
  const llm = new ScriptedLlm();
  const t = await createTestApp({ llm, env: { CHAT_MESSAGES_PER_MINUTE: '100', ...env }, ...deps });
  const owner = await createUser(t.app, t.database.db, { age: 30 });
  const ana = await createBot(t.database.db, { name: 'Ana', description: 'ANA-CARD: a lighthouse keeper.' });
  const bea = await createBot(t.database.db, { name: 'Bea', description: 'BEA-CARD: a jazz pianist.' });
  const cleo = await createBot(t.database.db, { name: 'Cleo', description: 'CLEO-CARD: a sailor.' });
  return { ...t, llm, owner, ana, bea, cleo };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function group(t: Setup, body: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/chat/group',
    headers: t.owner.auth,
    payload: { bot_ids: [t.ana.id, t.bea.slug, t.cleo.id], place: 'A harbour bar', situation: 'A storm', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Chat>();
}

async function send(app: TestApp['app'], auth: { authorization: string }, chatId: string, text: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/chat/${chatId}/messages`,
    headers: auth,
    payload: { client_id: randomUUID(), text },
  });
  return res;
}

/** The events of a send's stream (JSON bodies of `data:` lines) by name. */
function events(body: string): Array<{ event: string; data: Message }> {
  return body
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => {
      const event = /event: (.*)/.exec(block)?.[1] ?? '';
      return { event, data: JSON.parse(/data: (.*)/.exec(block)![1]!) as Message };
    });
}

async function history(app: TestApp['app'], auth: { authorization: string }, chatId: string) {
  const res = await app.inject({ method: 'GET', url: `/api/chat/history/${chatId}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<History>().results;
}

async function invite(t: Setup, chatId: string, body: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${chatId}/scene/invites`,
    headers: t.owner.auth,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<SceneInvite>();
}

async function join(t: Setup, code: string, auth: { authorization: string }, body: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/scene-invites/${code}/join`,
    headers: auth,
    payload: { adult_confirmed: true, ...body },
  });
}

describe('group chats', { timeout: 90_000 }, () => {
  it('a named character answers with her own card and memory; messages and history name the speaker', async () => {
    const t = await setup();
    const chat = await group(t);
    expect(chat.scene?.characters.map((c) => c.name)).toEqual(['Ana', 'Bea', 'Cleo']);
    const pinned = (botId: string, text: string) => ({
      userId: t.owner.user.id,
      botId,
      kind: 'user' as const,
      text,
      origin: 'user' as const,
      pinned: true,
      importance: 5,
      dedupeKey: text,
    });
    await t.database.db
      .insert(memories)
      .values([pinned(t.bea.id, 'BEA-MEMORY: plays at midnight'), pinned(t.ana.id, 'ANA-MEMORY: hates fog')]);
    t.llm.script = { mode: 'pieces', pieces: ['Bea', ' here.'] };
    const res = await send(t.app, t.owner.auth, chat.id, '@Bea, play something?');
    expect(res.statusCode, res.body).toBe(200);
    const final = events(res.body).find((e) => e.event === 'bot_message' && e.data.state === 'done')!.data;
    expect(final.speaker).toMatchObject({ kind: 'character', bot_id: t.bea.id, name: 'Bea' });
    await t.app.replies.idle();
    const prompt = t.llm.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('BEA-CARD');
    expect(prompt).not.toContain('ANA-CARD');
    expect(prompt).toContain('BEA-MEMORY');
    expect(prompt).not.toContain('ANA-MEMORY');
    expect(prompt).toContain('A harbour bar');
    expect(prompt).toMatch(/Also present: Ana, Cleo/);
    const shown = await history(t.app, t.owner.auth, chat.id);
    expect(shown[0]).toMatchObject({ role: 'bot', text: 'Bea here.', speaker: { bot_id: t.bea.id } });
    // One person: the user's message carries no speaker.
    expect(shown[1]).toMatchObject({ role: 'user' });
    expect(shown[1]!.speaker ?? null).toBeNull();

    // The next message names nobody: not Bea again; the rule picks one of the others, and the
    // model is asked only because Ana and Cleo never spoke (it answers "Cleo").
    t.llm.script = { mode: 'pieces', pieces: ['Cleo'] };
    const before = t.llm.requests.length;
    const next = await send(t.app, t.owner.auth, chat.id, 'and the others?');
    const reply = events(next.body).find((e) => e.event === 'bot_message')!.data;
    expect(reply.speaker).toMatchObject({ bot_id: t.cleo.id });
    expect(t.llm.requests.length - before).toBe(2);
    expect(t.llm.requests[before]!.messages.at(-1)!.content).toContain('Who speaks next?');
    await t.app.replies.idle();
    // Bea, then Cleo spoke: the rule now knows — Ana, silent longest, without asking the model.
    t.llm.script = { mode: 'pieces', pieces: ['Ana.'] };
    const third = await send(t.app, t.owner.auth, chat.id, 'go on');
    const ana = events(third.body).find((e) => e.event === 'bot_message')!.data;
    expect(ana.speaker).toMatchObject({ bot_id: t.ana.id });
    await t.app.replies.idle();
    // Regenerating a character's reply: the same character answers again, with her card.
    t.llm.script = { mode: 'pieces', pieces: ['Ana again.'] };
    const regen = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages/${ana.id}/regenerate`,
      headers: t.owner.auth,
    });
    expect(regen.statusCode, regen.body).toBe(200);
    const alt = events(regen.body).find((e) => e.event === 'bot_message' && e.data.state === 'done')!.data;
    expect(alt).toMatchObject({ alt_index: 1, text: 'Ana again.', speaker: { bot_id: t.ana.id } });
    expect(
      t.llm.requests
        .at(-1)!
        .messages.map((m) => m.content)
        .join('\n'),
    ).toContain('ANA-CARD');
    await t.app.replies.idle();
  });

  it("a member never sees which of the owner's memories shaped a reply (the Remembered mark is the owner's)", async () => {
    const t = await setup();
    const chat = await group(t);
    await t.database.db.insert(memories).values({
      userId: t.owner.user.id,
      botId: t.bea.id,
      kind: 'user',
      text: 'OWNER-MEMORY: afraid of storms',
      origin: 'user',
      pinned: true,
      importance: 5,
      dedupeKey: 'owner-memory',
    });
    t.llm.script = { mode: 'pieces', pieces: ['Bea', ' here.'] };
    expect((await send(t.app, t.owner.auth, chat.id, '@Bea, play something?')).statusCode).toBe(200);
    await t.app.replies.idle();
    const mine = (await history(t.app, t.owner.auth, chat.id)).find((m) => m.role === 'bot' && m.text === 'Bea here.')!;
    expect(mine.memories?.in_prompt).toHaveLength(1);

    const link = await invite(t, chat.id);
    const member = await createUser(t.app, t.database.db, { age: 30 });
    expect((await join(t, link.code, member.auth)).statusCode).toBe(201);
    const theirs = (await history(t.app, member.auth, chat.id)).find((m) => m.id === mine.id)!;
    expect(theirs.memories ?? null).toBeNull();
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/memories/${mine.memories!.in_prompt[0]}`,
      headers: member.auth,
    });
    expect(read.statusCode).toBe(404);
  });

  it('a character added to a one-to-one chat keeps the history; mute, manual turns, speak', async () => {
    const t = await setup();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/chat/create',
      headers: t.owner.auth,
      payload: { botID: t.ana.id },
    });
    const chat = created.json<Chat>();
    const before = await history(t.app, t.owner.auth, chat.id);
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/scene/characters`,
      headers: t.owner.auth,
      payload: { bot_id: t.bea.id },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<Scene>().characters.map((c) => c.name)).toEqual(['Ana', 'Bea']);
    expect((await history(t.app, t.owner.auth, chat.id)).map((m) => m.id)).toEqual(before.map((m) => m.id));
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/scene/characters`,
      headers: t.owner.auth,
      payload: { bot_id: t.bea.id },
    });
    expect(again.json()).toMatchObject({ code: 'already_in_scene' });

    // Manual turns: nobody answers unless named; a tapped face speaks.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/chat/${chat.id}/scene`,
      headers: t.owner.auth,
      payload: { turn_mode: 'manual' },
    });
    const quiet = await send(t.app, t.owner.auth, chat.id, 'hello all');
    expect(events(quiet.body).some((e) => e.event === 'bot_message')).toBe(false);
    t.llm.script = { mode: 'pieces', pieces: ['Bea speaks.'] };
    const spoke = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/scene/speak`,
      headers: t.owner.auth,
      payload: { bot_id: t.bea.id },
    });
    expect(spoke.statusCode, spoke.body).toBe(200);
    expect(events(spoke.body).find((e) => e.event === 'bot_message')!.data.speaker).toMatchObject({ bot_id: t.bea.id });
    await t.app.replies.idle();

    // Muted: never picked by the rule (auto), still there.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/chat/${chat.id}/scene`,
      headers: t.owner.auth,
      payload: { turn_mode: 'auto' },
    });
    const muted = await t.app.inject({
      method: 'PATCH',
      url: `/api/chat/${chat.id}/scene/characters/${t.ana.id}`,
      headers: t.owner.auth,
      payload: { muted: true },
    });
    expect(muted.json<Scene>().characters[0]).toMatchObject({ name: 'Ana', muted: true });
    // Bea spoke last and Ana is muted: nobody answers.
    const none = await send(t.app, t.owner.auth, chat.id, 'anyone?');
    expect(events(none.body).some((e) => e.event === 'bot_message')).toBe(false);
  });

  it('"Continue" takes up to N turns, never the same character twice in a row, and stops', async () => {
    const t = await setup();
    const chat = await group(t);
    t.llm.script = { mode: 'pieces', pieces: ['Line.'] };
    await send(t.app, t.owner.auth, chat.id, 'Ana, start.');
    await t.app.replies.idle();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/scene/continue`,
      headers: t.owner.auth,
      payload: { turns: 4 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ continue_remaining: 3 });
    // Each turn starts when the previous one is written: wait (by the clock, not by a number of
    // looks: a loaded machine is slow) until the last turn is taken and every reply is written.
    const botLines = async () =>
      (await history(t.app, t.owner.auth, chat.id)).filter((m) => m.role === 'bot').reverse();
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      await t.app.replies.idle();
      const scene = await t.app.inject({ method: 'GET', url: `/api/chat/${chat.id}/scene`, headers: t.owner.auth });
      if (scene.json<Scene>().continue_remaining === 0 && (await botLines()).length >= 5) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await t.app.replies.idle();
    const shown = await botLines();
    expect(shown).toHaveLength(5);
    const speakers = shown.map((m) => (m.speaker && 'bot_id' in m.speaker ? m.speaker.bot_id : null));
    for (let i = 1; i < speakers.length; i++) expect(speakers[i]).not.toBe(speakers[i - 1]);
    // The cap holds: nothing more after N turns.
    expect(SCENE_CONTINUE_CAP_OK(res.json().continue_remaining)).toBe(true);

    // Stop ends a running "Continue".
    t.llm.script = { mode: 'then-hang', pieces: ['...'] };
    await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/scene/continue`,
      headers: t.owner.auth,
      payload: { turns: 10 },
    });
    const stop = await t.app.inject({ method: 'POST', url: `/api/chat/${chat.id}/stop`, headers: t.owner.auth });
    expect(stop.statusCode).toBe(204);
    await t.app.replies.idle();
    const scene = await t.app.inject({ method: 'GET', url: `/api/chat/${chat.id}/scene`, headers: t.owner.auth });
    expect(scene.json<Scene>().continue_remaining).toBe(0);
    const tooMany = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/scene/continue`,
      headers: t.owner.auth,
      payload: { turns: 11 },
    });
    expect(tooMany.statusCode).toBe(400);
  });
});

const SCENE_CONTINUE_CAP_OK = (remaining: number) => remaining <= 10;

describe('multiplayer scenes', { timeout: 90_000 }, () => {
  it('invites expire, are revoked, hold a member limit; the owner removes and blocks; banned users are refused', async () => {
    const t = await setup();
    const chat = await group(t);
    const link = await invite(t, chat.id, { max_members: 3 });
    expect(link.url).toMatch(new RegExp(`/scene/join/${link.code}$`));
    const people = await Promise.all([1, 2, 3, 4].map(() => createUser(t.app, t.database.db)));
    const [p1, p2, p3, p4] = people;
    const preview = await t.app.inject({ method: 'GET', url: `/api/scene-invites/${link.code}`, headers: p1!.auth });
    expect(preview.json()).toMatchObject({ chat_id: chat.id, max_members: 3, already_member: false });
    // The 18+ confirmation is required.
    expect((await join(t, link.code, p1!.auth, { adult_confirmed: false })).statusCode).toBe(400);
    expect((await join(t, link.code, p1!.auth)).statusCode).toBe(201);
    expect((await join(t, link.code, p1!.auth)).statusCode).toBe(200);
    expect((await join(t, link.code, p2!.auth)).statusCode).toBe(201);
    // Owner + 2 = 3: full.
    expect((await join(t, link.code, p3!.auth)).json()).toMatchObject({ code: 'scene_full' });

    // A member cannot remove another; the owner removes and blocks p2, who cannot come back.
    const notOwner = await t.app.inject({
      method: 'DELETE',
      url: `/api/chat/${chat.id}/scene/people/${p2!.user.id}`,
      headers: p1!.auth,
    });
    expect(notOwner.json()).toMatchObject({ code: 'scene_owner_only' });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/chat/${chat.id}/scene/people/${p2!.user.id}?block=1`,
      headers: t.owner.auth,
    });
    expect(removed.statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: p2!.auth })).statusCode,
    ).toBe(404);
    const fresh = await invite(t, chat.id);
    expect((await join(t, fresh.code, p2!.auth)).json()).toMatchObject({ code: 'scene_blocked' });
    // A member leaves.
    const left = await t.app.inject({
      method: 'DELETE',
      url: `/api/chat/${chat.id}/scene/people/${p1!.user.id}`,
      headers: p1!.auth,
    });
    expect(left.statusCode).toBe(204);

    // Revoked and expired links.
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/chat/${chat.id}/scene/invites/${fresh.id}`,
      headers: t.owner.auth,
    });
    expect(revoke.statusCode).toBe(204);
    expect((await join(t, fresh.code, p3!.auth)).json()).toMatchObject({ code: 'invite_revoked' });
    const old = await invite(t, chat.id);
    await t.database.db
      .update(chatInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(chatInvites.id, old.id));
    expect((await join(t, old.code, p3!.auth)).json()).toMatchObject({ code: 'invite_expired' });
    expect((await join(t, 'no-such-code-at-all', p3!.auth)).json()).toMatchObject({ code: 'invite_not_found' });
    // A member cannot make links.
    const open = await invite(t, chat.id);
    await join(t, open.code, p3!.auth);
    const byMember = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/scene/invites`,
      headers: p3!.auth,
      payload: {},
    });
    expect(byMember.json()).toMatchObject({ code: 'scene_owner_only' });
    // A banned account is refused (its token no longer works at all).
    await t.database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, p4!.user.id));
    expect((await join(t, open.code, p4!.auth)).statusCode).toBeGreaterThanOrEqual(401);
  });

  it('each person speaks as themselves; crisis is private; AI disclosure on join; each counts their own limit', async () => {
    const t = await setup({ CHAT_MESSAGES_PER_MINUTE: '3' });
    const chat = await group(t);
    const member = await createUser(t.app, t.database.db, { name: 'Mara' });
    const link = await invite(t, chat.id);
    expect((await join(t, link.code, member.auth)).statusCode).toBe(201);

    // The member's history holds their private AI disclosure; the owner's does not show it.
    const mine = await history(t.app, member.auth, chat.id);
    expect(mine.find((m) => m.private)).toMatchObject({ notice: 'ai_disclosure', private: true });
    expect((await history(t.app, t.owner.auth, chat.id)).filter((m) => m.private)).toHaveLength(0);

    t.llm.script = { mode: 'pieces', pieces: ['Hi Mara.'] };
    const sent = await send(t.app, member.auth, chat.id, 'Ana, hi!');
    expect(sent.statusCode, sent.body).toBe(200);
    const user = events(sent.body).find((e) => e.event === 'user_message')!.data;
    expect(user.speaker).toMatchObject({ kind: 'person', user_id: member.user.id, name: 'Mara' });
    await t.app.replies.idle();
    // The prompt names the person who spoke.
    expect(t.llm.requests.at(-1)!.messages.at(-1)!.content).toContain('Mara: Ana, hi!');
    const ownerView = await history(t.app, t.owner.auth, chat.id);
    expect(ownerView[1]).toMatchObject({ role: 'user', speaker: { name: 'Mara' } });

    // Crisis: the fixed reply to the member only; no character answers; the owner sees nothing of it.
    const requests = t.llm.requests.length;
    const crisis = await send(t.app, member.auth, chat.id, 'I want to kill myself');
    const notice = events(crisis.body).find((e) => e.event === 'system_message')!.data;
    expect(notice).toMatchObject({ notice: 'crisis', private: true });
    expect(t.llm.requests.length).toBe(requests);
    expect((await history(t.app, member.auth, chat.id)).some((m) => m.notice === 'crisis')).toBe(true);
    const seenByOwner = await history(t.app, t.owner.auth, chat.id);
    expect(seenByOwner.some((m) => m.notice === 'crisis' || m.text.includes('kill myself'))).toBe(false);

    // Fair use counts each person's own messages: the member used 2 of 3, then 3; the fourth is refused; the owner still sends.
    t.llm.script = { mode: 'pieces', pieces: ['ok'] };
    expect((await send(t.app, member.auth, chat.id, 'one more')).statusCode).toBe(200);
    await t.app.replies.idle();
    expect((await send(t.app, member.auth, chat.id, 'and another')).statusCode).toBe(429);
    expect((await send(t.app, t.owner.auth, chat.id, 'my turn')).statusCode).toBe(200);
    await t.app.replies.idle();

    // Premium models only while the owner is premium, whoever writes.
    await t.database.db.update(chats).set({ modelId: 'test-premium' }).where(eq(chats.id, chat.id));
    const other = await createUser(t.app, t.database.db);
    await createPremium(t.database.db, other.user.id);
    expect((await join(t, link.code, other.auth)).statusCode).toBe(201);
    await send(t.app, other.auth, chat.id, 'Bea, hello');
    await t.app.replies.idle();
    expect(t.llm.requests.at(-1)!.model).toBe('test-small');
    await createPremium(t.database.db, t.owner.user.id);
    await send(t.app, other.auth, chat.id, 'Cleo, hello');
    await t.app.replies.idle();
    expect(t.llm.requests.at(-1)!.model).toBe('test-premium');

    // The member sees the scene in their chats list, with its faces.
    const list = await t.app.inject({ method: 'GET', url: '/api/chats/available', headers: member.auth });
    expect(list.json<Chat[]>().find((c) => c.id === chat.id)?.scene).toMatchObject({ role: 'member', people: 3 });
    // Someone outside the scene sees nothing of it.
    const stranger = await createUser(t.app, t.database.db);
    expect((await send(t.app, stranger.auth, chat.id, 'hi')).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/chat/${chat.id}/scene`, headers: stranger.auth })).statusCode,
    ).toBe(404);
  });

  it('each person has their own unread count: badges, the chats list, read marks, removal', async () => {
    const t = await setup();
    const chat = await group(t);
    const member = await createUser(t.app, t.database.db, { name: 'Mara', age: 30 });
    const link = await invite(t, chat.id);
    const total = async (auth: { authorization: string }) =>
      (await t.app.inject({ method: 'GET', url: '/api/chats/unread', headers: auth })).json<{ total: number }>().total;
    const listed = async (auth: { authorization: string }) =>
      (await t.app.inject({ method: 'GET', url: '/api/chats/available', headers: auth }))
        .json<Chat[]>()
        .find((c) => c.id === chat.id)!.unread;
    const read = (auth: { authorization: string }) =>
      t.app.inject({ method: 'POST', url: `/api/chat/${chat.id}/read`, headers: auth });
    // What was said before one joined is not unread.
    t.llm.script = { mode: 'pieces', pieces: ['Before.'] };
    await send(t.app, t.owner.auth, chat.id, 'Ana, hello');
    await t.app.replies.idle();
    expect((await join(t, link.code, member.auth)).statusCode).toBe(201);
    expect(await total(member.auth)).toBe(0);
    expect((await read(t.owner.auth)).json()).toMatchObject({ unread_total: 0 });

    // The owner's message and a character's reply: the member has both unread, the owner the reply.
    t.llm.script = { mode: 'pieces', pieces: ['Ana again.'] };
    await send(t.app, t.owner.auth, chat.id, 'Ana, tell Mara');
    await t.app.replies.idle();
    expect(await total(member.auth)).toBe(2);
    expect(await listed(member.auth)).toBe(2);
    expect(await total(t.owner.auth)).toBe(1);

    // Each one's read mark is their own.
    const memberRead = await read(member.auth);
    expect(memberRead.statusCode, memberRead.body).toBe(200);
    expect(memberRead.json()).toMatchObject({ chat_id: chat.id, unread_total: 0 });
    expect(await listed(member.auth)).toBe(0);
    expect(await total(t.owner.auth)).toBe(1);

    // The member writes: the owner has it and the reply unread, the member only the reply.
    t.llm.script = { mode: 'pieces', pieces: ['Bea here.'] };
    await send(t.app, member.auth, chat.id, 'Bea?');
    await t.app.replies.idle();
    expect(await total(t.owner.auth)).toBe(3);
    expect(await listed(t.owner.auth)).toBe(3);
    expect(await total(member.auth)).toBe(1);
    // Another person's private message (a crisis reply) is never unread for the owner.
    await send(t.app, member.auth, chat.id, 'I want to kill myself');
    expect(await total(t.owner.auth)).toBe(3);

    // Removed: nothing of the scene counts, and there is nothing to mark read.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/chat/${chat.id}/scene/people/${member.user.id}`,
      headers: t.owner.auth,
    });
    expect(removed.statusCode).toBe(204);
    expect(await total(member.auth)).toBe(0);
    expect((await read(member.auth)).statusCode).toBe(404);
  });

  it('a picture asked of a character is hers and names her as its speaker, live and in the history', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-scene-pictures-'));
    try {
      const storage = new LocalMediaStorage(dir);
      const t = await setup({}, { storage });
      const chat = await group(t);
      // Bea (not the scene's first character) has one private picture to send.
      const key = `bots/${t.bea.id}/private-0.png`;
      const png = await sharp({ create: { width: 64, height: 96, channels: 3, background: '#884422' } })
        .png()
        .toBuffer();
      await storage.put(key, png);
      await t.database.db
        .insert(botPictures)
        .values({ botId: t.bea.id, mediaKey: key, position: 0, visibility: 'private' });
      const res = await send(t.app, t.owner.auth, chat.id, '@Bea send me a selfie');
      expect(res.statusCode, res.body).toBe(200);
      const image = events(res.body).find((e) => e.event === 'image')?.data;
      expect(image, res.body).toBeDefined();
      expect([2, 3]).toContain(image!.kind);
      expect(image!.speaker).toMatchObject({ kind: 'character', bot_id: t.bea.id, name: 'Bea' });
      const shown = await history(t.app, t.owner.auth, chat.id);
      expect(shown.find((m) => m.id === image!.id)?.speaker).toMatchObject({ bot_id: t.bea.id, name: 'Bea' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pictures unblur per person: each pays their own once, premium free, the others still see it blurred', async () => {
    const t = await setup();
    const chat = await group(t);
    const link = await invite(t, chat.id);
    const payer = await createUser(t.app, t.database.db);
    const premium = await createUser(t.app, t.database.db);
    await createPremium(t.database.db, premium.user.id);
    await grantDesires(t.database.db, payer.user.id, 10);
    for (const person of [payer, premium]) expect((await join(t, link.code, person.auth)).statusCode).toBe(201);
    const [picture] = await t.database.db
      .insert(messages)
      .values({
        chatId: chat.id,
        userId: t.owner.user.id,
        role: 'bot',
        kind: 3,
        text: '',
        mediaKey: `chat/${randomUUID()}-preview.webp`,
        originalKey: `originals/${t.owner.user.id}/${randomUUID()}.png`,
      })
      .returning();
    const unblur = (auth: { authorization: string }) =>
      t.app.inject({ method: 'GET', url: `/api/unblur/image/${picture!.id}`, headers: auth });
    const paid = await unblur(payer.auth);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ num_tokens: 7 });
    expect(paid.json<{ img_url: string }>().img_url).toContain(picture!.originalKey!);
    expect((await unblur(payer.auth)).json()).toMatchObject({ num_tokens: 7 });
    expect(await balanceOf(t.database.db, payer.user.id)).toBe(7);
    expect((await unblur(premium.auth)).statusCode).toBe(200);
    expect(await balanceOf(t.database.db, premium.user.id)).toBe(0);
    // The owner has no desires: they pay their own, and still see it blurred.
    expect((await unblur(t.owner.auth)).statusCode).toBe(402);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, picture!.id));
    expect(row).toMatchObject({ kind: 3, mediaKey: picture!.mediaKey });
    const stranger = await createUser(t.app, t.database.db);
    expect((await unblur(stranger.auth)).statusCode).toBe(404);
  });
});
