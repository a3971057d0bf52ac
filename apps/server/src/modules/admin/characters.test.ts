import sharp from 'sharp';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { AdminCharacter, BotDetail, BotList } from '@reverie/shared';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';
import { auditLog, botPictures, bots, mailOutbox } from '../../db/schema.js';
import { seedDatabase } from '../../seed.js';
import { OFFICIAL_CHARACTERS } from '../bots/index.js';
import { createMediaStorage } from '../../providers/storage/index.js';
import type { ModerationProvider } from '../../providers/moderation/index.js';
import { RulesModerationProvider } from '../../providers/moderation/rules-moderation.js';
import { getEdition } from '@reverie/shared';

let t: TestApp;
let admin: { authorization: string };
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  const made = await createUser(t.app, t.database.db, { role: 'admin' });
  admin = made.auth;
  adminId = made.user.id;
});

const png = (background = '#c0aede') =>
  sharp({ create: { width: 64, height: 64, channels: 3, background } })
    .png()
    .toBuffer();

async function catalogue(tags: string, headers: Record<string, string> = {}): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/bots/available?size=100&tags=${tags}`, headers });
  expect(res.statusCode).toBe(200);
  return res.json<BotList>().results.map((b) => b.slug);
}

async function audits(targetId: string) {
  return t.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(asc(auditLog.id));
}

async function upload(id: string, data: Buffer) {
  const form = multipartBody({}, [{ field: 'file', filename: 'p.png', contentType: 'image/png', data }]);
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/characters/${id}/pictures`,
    headers: { ...admin, ...form.headers },
    payload: form.payload,
  });
}

const official = {
  name: 'Iris Vale',
  slug: 'iris-vale-official',
  age: 29,
  description: 'A botanist who runs a night greenhouse.',
  greeting: '*She looks up from the orchids.* Late visitor?',
  alternate_greetings: ['You found the greenhouse.'],
  personality_text: 'Patient, curious.',
  scenario: 'A greenhouse at midnight.',
  example_messages: '<START>\n{{user}}: Hi\n{{char}}: Hello.',
  system_prompt: 'Stay in character.',
  post_history_instructions: 'Keep it short.',
  creator_notes: 'Console test.',
  tags: ['realistic', 'plants'],
  occupation: ['Botanist'],
  personality: ['Calm'],
  voice: 'en-gb+f3',
};

describe('admin characters: access', () => {
  it('answers 401 to a guest and 403 to a user on every write', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db);
    const writes = [
      { method: 'POST' as const, url: '/api/admin/characters', payload: official },
      { method: 'PATCH' as const, url: `/api/admin/characters/${bot.id}`, payload: { name: 'X' } },
      { method: 'POST' as const, url: `/api/admin/characters/${bot.id}/unpublish`, payload: { reason: 'x' } },
      { method: 'POST' as const, url: `/api/admin/review/${bot.id}/approve`, payload: {} },
      { method: 'POST' as const, url: `/api/admin/review/${bot.id}/reject`, payload: { reason: 'x' } },
      { method: 'GET' as const, url: '/api/admin/review/count' },
    ];
    for (const write of writes) {
      expect((await t.app.inject(write)).statusCode).toBe(401);
      expect((await t.app.inject({ ...write, headers: auth })).statusCode).toBe(403);
    }
    expect((await audits(bot.id)).length).toBe(0);
  });
});

describe('admin characters: official characters', () => {
  it('creates, edits, adds pictures and publishes an official character; the audit log records each write', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/characters',
      headers: admin,
      payload: official,
    });
    expect(created.statusCode, created.body).toBe(201);
    const bot = created.json<AdminCharacter>();
    expect(bot).toMatchObject({
      slug: 'iris-vale-official',
      is_official: true,
      author_id: null,
      visibility: 'private',
      review_state: 'approved',
      voice: 'en-gb+f3',
      alternate_greetings: ['You found the greenhouse.'],
      example_messages: official.example_messages,
      system_prompt: 'Stay in character.',
      post_history_instructions: 'Keep it short.',
      creator_notes: 'Console test.',
      tags: ['realistic', 'plants'],
    });
    expect(await catalogue('official')).not.toContain(bot.slug);

    // A taken slug is a 409 with a code; a minor in any text is refused.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/characters',
      headers: admin,
      payload: official,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('slug_taken');
    const minor = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/characters/${bot.id}`,
      headers: admin,
      payload: { scenario: 'She is a 14-year-old schoolgirl.' },
    });
    expect(minor.statusCode).toBe(422);
    expect(minor.json().code).toBe('inappropriate_content');
    const young = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/characters/${bot.id}`,
      headers: admin,
      payload: { age: 17 },
    });
    expect(young.statusCode).toBe(400);

    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/characters/${bot.id}`,
      headers: admin,
      payload: { slug: 'iris-elsewhere' },
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().code).toBe('slug_locked');

    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/characters/${bot.id}`,
      headers: admin,
      payload: { name: 'Iris Vale-Moreau', voice: 'en-us+f2' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Iris Vale-Moreau', voice: 'en-us+f2', greeting: official.greeting });

    // Gallery: the first picture becomes the avatar; another can be chosen; order; delete.
    const first = await upload(bot.id, await png());
    expect(first.statusCode, first.body).toBe(201);
    const second = await upload(bot.id, await png('#ffd5dc'));
    expect(second.statusCode).toBe(201);
    let pictures = second.json<AdminCharacter>().pictures;
    expect(pictures).toHaveLength(2);
    expect(pictures[0]!.is_avatar).toBe(true);
    const chosen = await t.app.inject({
      method: 'POST',
      url: `/api/admin/characters/${bot.id}/pictures/${pictures[1]!.id}/avatar`,
      headers: admin,
    });
    expect(chosen.json<AdminCharacter>().pictures[1]!.is_avatar).toBe(true);
    const reordered = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/characters/${bot.id}/pictures/order`,
      headers: admin,
      payload: { order: [pictures[1]!.id, pictures[0]!.id] },
    });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json<AdminCharacter>().pictures.map((p) => p.id)).toEqual([pictures[1]!.id, pictures[0]!.id]);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/characters/${bot.id}/pictures/${pictures[0]!.id}`,
      headers: admin,
    });
    pictures = deleted.json<AdminCharacter>().pictures;
    expect(pictures).toHaveLength(1);
    expect(pictures[0]!.is_avatar).toBe(true);

    // Publish: listed under Official, with its gallery, for anyone.
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/admin/characters/${bot.id}/visibility`,
      headers: admin,
      payload: { visibility: 'public' },
    });
    expect(published.statusCode).toBe(200);
    expect(await catalogue('official')).toContain(bot.slug);
    const page = await t.app.inject({ method: 'GET', url: `/api/bot/${bot.slug}` });
    expect(page.json<BotDetail>().gallery).toHaveLength(1);
    expect(page.json<BotDetail>().avatar_url).toMatch(/^\/api\/media\/bots\//);
    const picture = await t.app.inject({ method: 'GET', url: page.json<BotDetail>().gallery[0]! });
    expect(picture.statusCode).toBe(200);

    const actions = (await audits(bot.id)).map((a) => a.action);
    expect(actions).toEqual([
      'character.create',
      'character.update',
      'character.picture_add',
      'character.picture_add',
      'character.avatar',
      'character.picture_order',
      'character.picture_delete',
      'character.publish',
    ]);
    const [update] = (await audits(bot.id)).filter((a) => a.action === 'character.update');
    expect(update).toMatchObject({
      actorId: adminId,
      before: { name: 'Iris Vale' },
      after: { name: 'Iris Vale-Moreau' },
    });
  });

  it('imports a Character Card as an official character', async () => {
    const card = {
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        name: 'Marin Console',
        description: 'A lighthouse keeper in her thirties.',
        personality: 'Calm',
        scenario: 'A storm.',
        first_mes: 'Come in.',
        mes_example: '',
        creator_notes: '',
        system_prompt: '',
        post_history_instructions: '',
        alternate_greetings: [],
        tags: ['realistic'],
        creator: 'tester',
        character_version: '1',
        extensions: {},
      },
    };
    const form = multipartBody({ visibility: 'public' }, [
      {
        field: 'file',
        filename: 'card.json',
        contentType: 'application/json',
        data: Buffer.from(JSON.stringify(card)),
      },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/characters/import',
      headers: { ...admin, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const bot = res.json<AdminCharacter>();
    expect(bot).toMatchObject({ name: 'Marin Console', is_official: true, author_id: null, visibility: 'public' });
    expect(await catalogue('official')).toContain(bot.slug);
    expect((await audits(bot.id)).map((a) => a.action)).toEqual(['character.import']);
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/characters?q=marin', headers: admin });
    expect(list.json().results.map((b: AdminCharacter) => b.id)).toContain(bot.id);
  });

  it('imports a card and writes its audit record in one transaction: no record, no character', async () => {
    const card = {
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: { name: 'Audit Less', description: 'Never stored.', first_mes: 'Hello.', tags: ['anime'] },
    };
    const form = multipartBody({ visibility: 'private' }, [
      {
        field: 'file',
        filename: 'card.json',
        contentType: 'application/json',
        data: Buffer.from(JSON.stringify(card)),
      },
    ]);
    await t.database.db.execute(sql`alter table audit_log rename to audit_log_away`);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/characters/import',
        headers: { ...admin, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await t.database.db.execute(sql`alter table audit_log_away rename to audit_log`);
    }
    expect(await t.database.db.select().from(bots).where(eq(bots.name, 'Audit Less'))).toEqual([]);
  });

  it('shows a character its author deleted as deleted, not as private', async () => {
    const { user, auth: userAuth } = await createUser(t.app, t.database.db);
    const custom = await createBot(t.database.db, { authorId: user.id, isOfficial: false });
    const before = await t.app.inject({ method: 'GET', url: `/api/admin/characters/${custom.id}`, headers: admin });
    expect(before.json<AdminCharacter>().deleted_at).toBeNull();
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/bot/${custom.slug}`, headers: userAuth });
    expect(gone.statusCode).toBeLessThan(300);
    const after = await t.app.inject({ method: 'GET', url: `/api/admin/characters/${custom.id}`, headers: admin });
    expect(after.statusCode).toBe(200);
    expect(after.json<AdminCharacter>().deleted_at).toEqual(expect.any(String));
  });

  it('unpublishes any public character with a reason', async () => {
    const { user, auth: userAuth } = await createUser(t.app, t.database.db);
    const custom = await createBot(t.database.db, { authorId: user.id, isOfficial: false });
    expect(await catalogue('custom')).toContain(custom.slug);
    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/admin/characters/${custom.id}/unpublish`,
      headers: admin,
      payload: { reason: ' ' },
    });
    expect(noReason.statusCode).toBe(400);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/characters/${custom.id}/unpublish`,
      headers: admin,
      payload: { reason: 'Copyrighted character' },
    });
    expect(res.statusCode).toBe(200);
    expect(await catalogue('custom')).not.toContain(custom.slug);
    const [entry] = await audits(custom.id);
    expect(entry).toMatchObject({
      action: 'character.unpublish',
      reason: 'Copyrighted character',
      before: { visibility: 'public' },
      after: { visibility: 'private' },
    });
    // Its author is told, in their language, with the reason, and sees the reason on it.
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, user.email), eq(mailOutbox.kind, 'character_unpublished')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(custom.name);
    expect(mails[0]!.text).toContain('Copyrighted character');
    const own = await t.app.inject({ method: 'GET', url: `/api/bot/${custom.slug}`, headers: userAuth });
    expect(own.json<BotDetail>()).toMatchObject({ review_state: 'rejected', review_reason: 'Copyrighted character' });
    // Made public again by its author, it waits for a review instead of being listed at once.
    const republished = await t.app.inject({
      method: 'PATCH',
      url: `/api/bot/${custom.slug}`,
      headers: userAuth,
      payload: { visibility: 'public' },
    });
    expect(republished.statusCode).toBe(200);
    expect(await catalogue('custom')).not.toContain(custom.slug);
    const queue = await t.app.inject({ method: 'GET', url: '/api/admin/review', headers: admin });
    expect(queue.json<{ results: { id: string }[] }>().results.map((c) => c.id)).toContain(custom.id);
  });

  it('unpublishes an official character without e-mailing anyone; it stays out of review', async () => {
    const official = await createBot(t.database.db, { isOfficial: true });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/characters/${official.id}/unpublish`,
      headers: admin,
      payload: { reason: 'Seasonal character' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<AdminCharacter>()).toMatchObject({ visibility: 'private', review_state: 'approved' });
  });
});

describe('admin characters: explicit pictures', () => {
  it('shows them sharp by signed URLs (a guest gets the blurred copy; the plain URL stays closed)', async () => {
    const { user } = await createUser(t.app, t.database.db);
    const data = await png('#d0a0a0');
    const storage = createMediaStorage(t.config);
    const bot = await createBot(t.database.db, {
      authorId: user.id,
      isOfficial: false,
      picturesReviewedAt: new Date(),
    });
    const key = `bots/${bot.id}/explicit-admin.png`;
    await storage.put(key, data, 'image/png');
    await t.database.db.update(bots).set({ avatarKey: key, avatarExplicit: true }).where(eq(bots.id, bot.id));
    await t.database.db.insert(botPictures).values({ botId: bot.id, mediaKey: key, position: 0, explicit: true });

    const page = await t.app.inject({ method: 'GET', url: `/api/admin/characters/${bot.id}`, headers: admin });
    expect(page.statusCode).toBe(200);
    const shown = page.json<AdminCharacter>();
    for (const url of [shown.avatar_url!, shown.gallery[0]!, shown.pictures[0]!.url]) {
      expect(url).not.toContain('.blurred.webp');
      expect(url).toContain('sig=');
      // An <img> sends no token: the signature alone opens it.
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    // A guest is given the blurred copy; the original's plain URL answers 404 without a token.
    const guest = await t.app.inject({ method: 'GET', url: `/api/bot/${bot.slug}` });
    expect(guest.json<BotDetail>().avatar_url).toContain('.blurred.webp');
    const plain = shown.avatar_url!.split('?')[0]!;
    expect((await t.app.inject({ method: 'GET', url: plain })).statusCode).toBe(404);
  });
});

describe('admin characters: a list page', () => {
  it.runIf(inject('testDb').kind === 'pglite')(
    'reads its galleries in one query, whatever the size of the page (PGlite: its client counts)',
    async () => {
      const db = t.database.db;
      const tag = `pagecount${Date.now()}`;
      for (let i = 0; i < 6; i++) {
        const bot = await createBot(db, { isOfficial: true, name: `${tag} ${i}` });
        await db.insert(botPictures).values({ botId: bot.id, mediaKey: `bots/${bot.id}/g${i}.webp` });
      }
      const client = (t.database.raw as { client: { query: (...args: unknown[]) => Promise<unknown> } }).client;
      const query = client.query;
      let count = 0;
      // Queries that read galleries (the job queue polls the same client meanwhile).
      client.query = (...args: unknown[]) => {
        if (typeof args[0] === 'string' && args[0].includes('"bot_pictures"')) count += 1;
        return query.apply(client, args);
      };
      const queriesFor = async (size: number) => {
        count = 0;
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/admin/characters?scope=official&q=${tag}&size=${size}`,
          headers: admin,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().results).toHaveLength(size);
        expect(res.json().results[0].gallery).toHaveLength(1);
        return count;
      };
      try {
        expect(await queriesFor(1)).toBe(1);
        expect(await queriesFor(6)).toBe(1);
      } finally {
        client.query = query;
      }
    },
  );
});

describe('admin characters: public and private pictures', () => {
  it('makes a picture private (sent in chat only, off the page), never the avatar; a private one cannot become the avatar', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/characters',
      headers: admin,
      payload: { ...official, slug: 'iris-private-pictures', visibility: 'public' },
    });
    const id = created.json<AdminCharacter>().id;
    await upload(id, await png('#111111'));
    const two = (await upload(id, await png('#222222'))).json<AdminCharacter>();
    const [avatar, other] = two.pictures;
    expect(two.pictures.map((p) => p.visibility)).toEqual(['public', 'public']);
    const put = (pictureId: string, visibility: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/characters/${id}/pictures/${pictureId}/visibility`,
        headers: admin,
        payload: { visibility },
      });
    expect((await put(avatar!.id, 'private')).json()).toMatchObject({ code: 'avatar_public' });
    const made = await put(other!.id, 'private');
    expect(made.statusCode).toBe(200);
    const character = made.json<AdminCharacter>();
    expect(character.pictures.find((p) => p.id === other!.id)!.visibility).toBe('private');
    expect(character.gallery).toEqual([avatar!.url]);
    const chosen = await t.app.inject({
      method: 'POST',
      url: `/api/admin/characters/${id}/pictures/${other!.id}/avatar`,
      headers: admin,
    });
    expect(chosen.statusCode).toBe(409);
    expect(chosen.json()).toMatchObject({ code: 'picture_private' });
    const page = (await t.app.inject({ url: '/api/bot/iris-private-pictures' })).json<BotDetail>();
    expect(page.gallery).toHaveLength(1);
    expect((await audits(id)).map((a) => a.action)).toContain('character.picture_visibility');
  });
});

describe('admin characters: seeded ones', () => {
  it('keeps an avatar and gallery changed in the console when the seed runs again', async () => {
    const storage = createMediaStorage(t.config);
    await seedDatabase(t.database.db, getEdition('reverie'), () => {}, { storage });
    const slug = OFFICIAL_CHARACTERS[0]!.slug;
    const list = await t.app.inject({ method: 'GET', url: `/api/admin/characters?q=${slug}`, headers: admin });
    const seeded = (list.json().results as AdminCharacter[]).find((c) => c.slug === slug)!;
    expect(seeded.pictures.length).toBeGreaterThan(1);
    const added = (await upload(seeded.id, await png('#112233'))).json<AdminCharacter>();
    const mine = added.pictures.at(-1)!;
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/characters/${seeded.id}/pictures/${mine.id}/avatar`,
      headers: admin,
    });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/characters/${seeded.id}/pictures/${added.pictures[0]!.id}`,
      headers: admin,
    });
    const before = removed.json<AdminCharacter>();
    await seedDatabase(t.database.db, getEdition('reverie'), () => {}, { storage });
    const after = (
      await t.app.inject({ method: 'GET', url: `/api/admin/characters/${seeded.id}`, headers: admin })
    ).json<AdminCharacter>();
    expect(after.pictures.map((p) => p.id)).toEqual(before.pictures.map((p) => p.id));
    expect(after.pictures.find((p) => p.is_avatar)?.id).toBe(mine.id);
    // The seed draws 42 × 16 pictures (12 private ones each) the first time.
  }, 240_000);
});

describe('admin review queue', () => {
  it('lists pending public custom characters oldest first, with a count; approve lists it under Custom', async () => {
    const { user } = await createUser(t.app, t.database.db);
    const older = await createBot(t.database.db, {
      authorId: user.id,
      isOfficial: false,
      reviewState: 'pending',
      createdAt: new Date(Date.UTC(2026, 0, 1)),
    });
    const newer = await createBot(t.database.db, { authorId: user.id, isOfficial: false, reviewState: 'pending' });
    await createBot(t.database.db, {
      authorId: user.id,
      isOfficial: false,
      reviewState: 'pending',
      visibility: 'private',
    });
    const count = await t.app.inject({ method: 'GET', url: '/api/admin/review/count', headers: admin });
    expect(count.json().count).toBeGreaterThanOrEqual(2);
    const queue = (await t.app.inject({ method: 'GET', url: '/api/admin/review', headers: admin })).json<{
      results: AdminCharacter[];
    }>().results;
    const ids = queue.map((b) => b.id);
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(newer.id));
    expect(queue.find((b) => b.id === older.id)?.author).toMatchObject({ id: user.id, email: user.email });
    expect(queue.every((b) => b.visibility === 'public' && b.review_state === 'pending')).toBe(true);

    expect(await catalogue('custom')).not.toContain(older.slug);
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/review/${older.id}/approve`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ review_state: 'approved', reviewed_at: expect.any(String) });
    expect(res.json().pictures_reviewed_at).not.toBeNull();
    expect(await catalogue('custom')).toContain(older.slug);
    const after = (await t.app.inject({ method: 'GET', url: '/api/admin/review/count', headers: admin })).json().count;
    expect(after).toBe(count.json().count - 1);
    // Decided once: a second decision is a 409.
    const twice = await t.app.inject({ method: 'POST', url: `/api/admin/review/${older.id}/approve`, headers: admin });
    expect(twice.statusCode).toBe(409);
    const [entry] = await audits(older.id);
    expect(entry).toMatchObject({
      action: 'character.approve',
      actorId: adminId,
      before: { review_state: 'pending' },
      after: { review_state: 'approved' },
    });
  });

  it('rejects with a required reason, e-mails the author in their language, shows the reason; an edit puts it back', async () => {
    // A stored language tag (`de-AT`) is read as the site's language it names.
    const author = await createUser(t.app, t.database.db, { locale: 'de-AT' });
    const bot = await createBot(t.database.db, {
      authorId: author.user.id,
      isOfficial: false,
      reviewState: 'pending',
      name: 'Lena',
    });
    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/admin/review/${bot.id}/reject`,
      headers: admin,
      payload: {},
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toHaveProperty('reason');

    const reason = 'The greeting copies another site <word for word>.';
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/review/${bot.id}/reject`,
      headers: admin,
      payload: { reason },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ review_state: 'rejected', review_reason: reason });

    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, author.user.email), eq(mailOutbox.kind, 'character_rejected')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Lena');
    expect(mails[0]!.subject).toMatch(/nicht freigegeben/);
    expect(mails[0]!.text).toContain(reason);
    expect(mails[0]!.html).toContain('&lt;word for word&gt;');
    expect(mails[0]!.html).not.toContain('<word for word>');

    // The author sees the state and the reason on their own character; nobody else sees it.
    const own = await t.app.inject({ method: 'GET', url: `/api/bot/${bot.slug}`, headers: author.auth });
    expect(own.json()).toMatchObject({ review_state: 'rejected', review_reason: reason });
    expect((await t.app.inject({ method: 'GET', url: `/api/bot/${bot.slug}` })).statusCode).toBe(404);

    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/bot/${bot.slug}`,
      headers: author.auth,
      payload: { greeting: 'Hallo! Schön, dass du da bist.' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ review_state: 'pending', review_reason: null });
    const queue = (await t.app.inject({ method: 'GET', url: '/api/admin/review', headers: admin })).json<{
      results: AdminCharacter[];
    }>().results;
    expect(queue.map((b) => b.id)).toContain(bot.id);
    // Another user cannot edit it.
    const other = await createUser(t.app, t.database.db);
    const foreign = await t.app.inject({
      method: 'PATCH',
      url: `/api/bot/${bot.slug}`,
      headers: other.auth,
      payload: { greeting: 'x' },
    });
    expect(foreign.statusCode).toBe(404);

    const [entry] = await audits(bot.id);
    expect(entry).toMatchObject({ action: 'character.reject', reason, after: { review_state: 'rejected' } });
  });

  it('a rejected character its author takes private is not shown as unpublished; made public, it waits again', async () => {
    const author = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, {
      authorId: author.user.id,
      isOfficial: false,
      reviewState: 'rejected',
      reviewReason: 'Too short',
    });
    const patch = (visibility: 'public' | 'private') =>
      t.app.inject({ method: 'PATCH', url: `/api/bot/${bot.slug}`, headers: author.auth, payload: { visibility } });
    const hidden = await patch('private');
    expect(hidden.statusCode, hidden.body).toBe(200);
    // Private and rejected means an administrator unpublished it: not what happened here.
    expect(hidden.json()).toMatchObject({ visibility: 'private', review_state: 'pending', review_reason: null });
    const queue = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/review', headers: admin }))
        .json<{ results: AdminCharacter[] }>()
        .results.map((b) => b.id);
    expect(await queue()).not.toContain(bot.id);
    expect((await patch('public')).json()).toMatchObject({ visibility: 'public', review_state: 'pending' });
    expect(await queue()).toContain(bot.id);
  });
});

describe('MODERATION_AUTO_APPROVE with a provider that can auto-approve', () => {
  let auto: TestApp;
  beforeAll(async () => {
    // The rules judge, as a provider that judges pictures well enough to auto-approve.
    const rules = new RulesModerationProvider();
    const moderation: ModerationProvider = {
      name: 'auto-test',
      canAutoApprove: true,
      checkText: (text) => rules.checkText(text),
      checkImage: () => rules.checkImage(),
    };
    auto = await createTestApp({ env: { MODERATION_AUTO_APPROVE: 'true' }, moderation });
  });

  it('publishes a private character made public at once, as a new public one; never one an administrator rejected', async () => {
    const author = await createUser(auto.app, auto.database.db);
    const patch = (slug: string, visibility: 'public' | 'private') =>
      auto.app.inject({ method: 'PATCH', url: `/api/bot/${slug}`, headers: author.auth, payload: { visibility } });

    // The web is told, so that it does not promise a review that will not happen.
    expect((await auto.app.inject('/api/config')).json()).toMatchObject({ auto_approve_characters: true });

    const created = await auto.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: author.auth,
      payload: {
        name: 'Wren Holloway',
        age: 29,
        kind: 'character',
        description: 'A lighthouse keeper.',
        visibility: 'public',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ visibility: 'public', review_state: 'approved' });

    const kept = await createBot(auto.database.db, {
      authorId: author.user.id,
      isOfficial: false,
      visibility: 'private',
      reviewState: 'pending',
    });
    expect((await patch(kept.slug, 'public')).json()).toMatchObject({ visibility: 'public', review_state: 'approved' });

    // Unpublished by an administrator (private + rejected, with the reason): a person decides again.
    const unpublished = await createBot(auto.database.db, {
      authorId: author.user.id,
      isOfficial: false,
      visibility: 'private',
      reviewState: 'rejected',
      reviewReason: 'Impersonates a real person',
    });
    expect((await patch(unpublished.slug, 'public')).json()).toMatchObject({
      visibility: 'public',
      review_state: 'pending',
      review_reason: null,
    });
  });
});
