import { beforeAll, describe, expect, it } from 'vitest';
import type { BotDetail } from '@reverie/shared';
import { eq } from 'drizzle-orm';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';
import { OFFICIAL_CHARACTERS } from './official-characters.js';
import { voiceGender } from '../../providers/tts/tts-provider.js';
import { bots } from '../../db/schema.js';
import { characterSex, FEMALE_VOICE, fitCharacterVoices, MALE_VOICE, voiceForCharacter } from './character-voice.js';

describe('characterSex', () => {
  it('reads a character’s sex from its texts in the five languages', () => {
    expect(characterSex({ description: 'A shy librarian; she hums while she sorts books.' })).toBe('female');
    expect(characterSex({ description: 'A retired boxer who runs a bakery with his brother.' })).toBe('male');
    expect(characterSex({ description: 'Eine Ärztin, die nachts Geige spielt; sie lacht viel.' })).toBe('female');
    expect(characterSex({ description: 'Ein Förster; er kennt jeden Baum und seinen Namen.' })).toBe('male');
    expect(characterSex({ description: 'Una pintora que vive junto al mar; ella odia el invierno.' })).toBe('female');
    expect(characterSex({ description: 'Un marinero viejo; él cuenta historias de tormentas.' })).toBe('male');
    expect(characterSex({ description: 'Учительница музыки; она обожает джаз.' })).toBe('female');
    expect(characterSex({ description: 'Пилот вертолёта; он всегда шутит.' })).toBe('male');
    expect(characterSex({ description: '她是一名咖啡师，喜欢下雨天。' })).toBe('female');
    expect(characterSex({ description: '他是一名消防员，周末会去钓鱼。' })).toBe('male');
    // The polite German "Sie" (you) is no woman.
    expect(characterSex({ description: 'Ein Koch. Er fragt: Möchten Sie noch Suppe?' })).toBe('male');
    expect(characterSex({ description: 'A talking lighthouse.' })).toBeNull();
  });

  it('lets the narration of the greeting outweigh an animal or a friend mentioned later', () => {
    expect(
      characterSex({
        greeting: '*The puppy drags him across the park.* Sorry! She likes you. Her name is Biscuit, she is a menace.',
      }),
    ).toBe('male');
  });

  it('agrees with the voice of every seeded character', () => {
    expect(OFFICIAL_CHARACTERS.length).toBeGreaterThan(30);
    for (const c of OFFICIAL_CHARACTERS) {
      const sex = characterSex({
        description: c.description,
        greeting: c.greeting,
        scenario: c.scenario,
        personality: c.traits,
      });
      expect(sex, c.slug).not.toBeNull();
      expect(voiceGender(c.voice), `${c.slug} speaks with ${c.voice}`).toBe(sex);
    }
  });

  it('gives a man a man’s voice and anyone else a woman’s', () => {
    expect(voiceGender(voiceForCharacter({ description: 'He fixes old motorbikes.' }))).toBe('male');
    expect(voiceGender(voiceForCharacter({ description: 'She fixes old motorbikes.' }))).toBe('female');
    expect(voiceGender(voiceForCharacter({ description: 'A ghost.' }))).toBe('female');
  });
});

describe('characters users create or import get a voice of their sex', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });

  async function create(description: string, greeting = '') {
    const { auth } = await createUser(t.app, t.database.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: auth,
      payload: { name: 'Alex', age: 29, description, greeting },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<BotDetail>();
  }

  async function importCard(card: object) {
    const { auth } = await createUser(t.app, t.database.db);
    const form = multipartBody({}, [
      {
        field: 'file',
        filename: 'card.json',
        contentType: 'application/json',
        data: Buffer.from(JSON.stringify(card)),
      },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/import',
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<BotDetail>();
  }

  it('created', async () => {
    const man = await create(
      'A carpenter who builds boats; he whistles while he works.',
      '*He waves at you from the dock.*',
    );
    expect(voiceGender(man.voice)).toBe('male');
    const woman = await create('A carpenter who builds boats; she whistles while she works.');
    expect(voiceGender(woman.voice)).toBe('female');
  });

  it('imported from a Character Card', async () => {
    const card = (description: string, reverie?: object) => ({
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        name: 'Marco',
        description,
        personality: '',
        scenario: '',
        first_mes: '',
        mes_example: '',
        ...(reverie ? { extensions: { reverie } } : {}),
      },
    });
    expect(voiceGender((await importCard(card('A gondolier; he sings badly and proudly.'))).voice)).toBe('male');
    expect(voiceGender((await importCard(card('A gondolier; she sings badly and proudly.'))).voice)).toBe('female');
    // A card exported by a Reverie server keeps the voice it names.
    expect((await importCard(card('A gondolier; he sings.', { voice: 'it+m3' }))).voice).toBe('it+m3');
  });
});

describe('fitCharacterVoices (npm run voices:fit)', () => {
  it('gives the men among older user-made characters a man’s voice, once, and touches nothing else', async () => {
    const t = await createTestApp();
    const db = t.database.db;
    const { user } = await createUser(t.app, db);
    const make = (description: string, overrides: Partial<typeof bots.$inferInsert> = {}) =>
      createBot(db, { authorId: user.id, description, voice: FEMALE_VOICE, ...overrides });
    const man = await make('A retired boxer who runs a bakery with his brother.');
    const woman = await make('A shy librarian; she hums while she sorts books.');
    const unknown = await make('A talking lighthouse.');
    const persona = await make('He is me, in a better mood.', { kind: 'persona' });
    const official = await createBot(db, { description: 'A sailor; he tells stories.', voice: FEMALE_VOICE });
    const chosen = await make('A singer; he sings opera.', { voice: 'en-gb+f2' });

    expect(await fitCharacterVoices(db, 2)).toMatchObject({ changed: 1 });
    const voiceOf = async (id: string) => (await db.select().from(bots).where(eq(bots.id, id)))[0]!.voice;
    expect(await voiceOf(man.id)).toBe(MALE_VOICE);
    for (const bot of [woman, unknown, persona, official]) expect(await voiceOf(bot.id)).toBe(FEMALE_VOICE);
    expect(await voiceOf(chosen.id)).toBe('en-gb+f2');
    // Again: nothing left to change.
    expect(await fitCharacterVoices(db)).toMatchObject({ changed: 0 });
  });
});
