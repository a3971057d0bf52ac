import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotDetail, BotList, Chat, Message } from '@reverie/shared';
import { bots } from '../../db/schema.js';
import type { MediaStorage } from '../../providers/storage/index.js';
import { createBot, createUser } from '../../../test/factories.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedOfficialCharacters } from './bots.seed.js';
import { OFFICIAL_CHARACTERS } from './official-characters.js';
import { officialTranslations } from './official-translations/index.js';

/**
 * The official characters in every language (docs/characters.md "Localization"): chosen by the
 * reader's language with English as the fallback, greeted and prompted in it, exported in it.
 */
const LOCALES = ['ch', 'es', 'de', 'ru'] as const;
/** Something only a text in that language has. */
const SCRIPT = { ch: /[\u4e00-\u9fff]/u, ru: /[а-яё]/iu, es: /[a-záéíóúñ]/iu, de: /[a-zäöüß]/iu } as const;

/** Storage in which every picture exists already: the seed draws none (this test reads texts only). */
const storageWithPictures = {
  exists: async () => true,
  put: async () => {},
  putFile: async () => {},
  get: async () => null,
  stat: async () => null,
  stream: async () => null,
  delete: async () => {},
  deletePrefix: async () => {},
} satisfies MediaStorage;

let t: TestApp;
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi({ behaviour: { mode: 'ok', text: 'Claro.' } });
  t = await createTestApp({
    env: { LLM_PROVIDER: 'openai', LLM_BASE_URL: fake.url, LLM_MODEL: 'fake-model', CATALOGUE_CACHE_S: '60' },
  });
  await seedOfficialCharacters(t.database.db, storageWithPictures);
}, 60_000);

afterAll(async () => {
  await fake.close();
});

const detail = async (slug: string, language?: string) => {
  const res = await t.app.inject({ url: `/api/bot/${slug}`, headers: language ? { 'accept-language': language } : {} });
  expect(res.statusCode).toBe(200);
  return res.json<BotDetail>();
};

describe('official characters in every language', () => {
  it('every official character has her description, greeting, scenario and tags in each language, not the English', () => {
    for (const character of OFFICIAL_CHARACTERS) {
      const translations = officialTranslations(character.slug);
      for (const locale of LOCALES) {
        const text = translations[locale];
        expect(text, `${character.slug} ${locale}`).toBeDefined();
        for (const field of ['description', 'greeting', 'scenario'] as const) {
          expect(text![field], `${character.slug} ${locale} ${field}`).toMatch(SCRIPT[locale]);
          expect(text![field]).not.toBe(character[field]);
        }
        expect(text!.occupation).toHaveLength(1);
        expect(text!.personality).toHaveLength(character.personality.length);
        // An action in the greeting stays an action (*…*).
        if (character.greeting.startsWith('*')) expect(text!.greeting!.startsWith('*')).toBe(true);
      }
    }
  });

  it('shows a character in the reader’s language, English when the language has none', async () => {
    const olivia = OFFICIAL_CHARACTERS.find((c) => c.slug === 'olivia-hart')!;
    const translations = officialTranslations('olivia-hart');
    for (const locale of LOCALES) {
      const page = await detail('olivia-hart', locale);
      expect(page).toMatchObject({
        description: translations[locale]!.description,
        greeting: translations[locale]!.greeting,
        scenario: translations[locale]!.scenario,
        occupation: translations[locale]!.occupation,
      });
    }
    expect(await detail('olivia-hart', 'en')).toMatchObject({
      description: olivia.description,
      greeting: olivia.greeting,
    });
    expect(await detail('olivia-hart', 'fr')).toMatchObject({ description: olivia.description });
    expect(await detail('olivia-hart')).toMatchObject({ description: olivia.description });
    // A character without translations is as written, whatever the language.
    const custom = await createBot(t.database.db, { description: 'Escrita en español por su autora.' });
    expect((await detail(custom.slug, 'de')).description).toBe('Escrita en español por su autora.');
  });

  it('caches the guest catalogue per language', async () => {
    const page = async (language: string) =>
      (
        await t.app.inject({
          url: '/api/bots/available?tags=official&size=100',
          headers: { 'accept-language': language },
        })
      ).json<BotList>();
    const de = await page('de');
    const ru = await page('ru');
    const akariDe = de.results.find((b) => b.slug === 'akari')!;
    expect(akariDe.description).toBe(officialTranslations('akari').de!.description);
    expect(ru.results.find((b) => b.slug === 'akari')!.description).toBe(officialTranslations('akari').ru!.description);
    expect((await page('de')).results.find((b) => b.slug === 'akari')).toEqual(akariDe);
    const res = await t.app.inject({ url: '/api/bots/available?tags=official', headers: { 'accept-language': 'es' } });
    expect(res.headers.vary).toContain('Accept-Language');
  });

  it('writes the translations again on the next seed, and leaves an administrator’s English edit', async () => {
    const [row] = await t.database.db.select().from(bots).where(eq(bots.slug, 'akari'));
    await t.database.db
      .update(bots)
      .set({ translations: { de: { description: 'Veraltet' } }, description: 'Edited by an administrator.' })
      .where(eq(bots.id, row!.id));
    await seedOfficialCharacters(t.database.db, storageWithPictures);
    const [after] = await t.database.db.select().from(bots).where(eq(bots.id, row!.id));
    expect(after!.translations).toEqual(officialTranslations('akari'));
    expect(after!.description).toBe('Edited by an administrator.');
  });

  it('greets in the user’s language and prompts the character to answer in it', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const spanish = { ...auth, 'accept-language': 'es' };
    const [hana] = await t.database.db.select().from(bots).where(eq(bots.slug, 'hana-mizuno'));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/chat/create',
      headers: spanish,
      payload: { botID: hana!.id },
    });
    expect(created.statusCode).toBe(201);
    const chat = created.json<Chat>();
    const history = (await t.app.inject({ url: `/api/chat/history/${chat.id}`, headers: spanish })).json<{
      results: Message[];
    }>();
    const es = officialTranslations('hana-mizuno').es!;
    expect(history.results.map((m) => m.text)).toContain(es.greeting);

    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: spanish,
      payload: { client_id: randomUUID(), text: 'Hola, ¿qué flor me darías?' },
    });
    expect(sent.statusCode).toBe(200);
    const prompt = JSON.stringify(fake.requests.at(-1)!.messages);
    expect(prompt).toContain('Answer in Spanish');
    expect(prompt).toContain('If the user writes to you in another language, answer in that language instead.');
    expect(prompt).toContain(es.description);
    expect(prompt).toContain(es.scenario);
    expect(prompt).toContain(es.greeting);

    // In English the same character greets and is described in English.
    const english = await t.app.inject({
      method: 'POST',
      url: '/api/chat/create',
      headers: { ...auth, 'accept-language': 'en' },
      payload: { botID: hana!.id },
    });
    const englishHistory = (
      await t.app.inject({ url: `/api/chat/history/${english.json<Chat>().id}`, headers: auth })
    ).json<{ results: Message[] }>();
    expect(englishHistory.results.map((m) => m.text)).toContain(hana!.greeting);
  });

  it('exports the card in the language the user sees, and every language in V3’s creator_notes_multilingual', async () => {
    const card = async (spec: string, language: string) =>
      (
        await t.app.inject({
          url: `/api/bot/sofia-marquez/card.json?spec=${spec}`,
          headers: { 'accept-language': language },
        })
      ).json<{ data: Record<string, unknown> }>();
    const translations = officialTranslations('sofia-marquez');
    const v3 = await card('v3', 'de');
    expect(v3.data).toMatchObject({
      description: translations.de!.description,
      first_mes: translations.de!.greeting,
      scenario: translations.de!.scenario,
    });
    const sofia = OFFICIAL_CHARACTERS.find((c) => c.slug === 'sofia-marquez')!;
    expect(v3.data.creator_notes_multilingual).toEqual({
      en: sofia.description,
      zh: translations.ch!.description,
      es: translations.es!.description,
      de: translations.de!.description,
      ru: translations.ru!.description,
    });
    const v2 = await card('v2', 'ru');
    expect(v2.data).toMatchObject({ description: translations.ru!.description, first_mes: translations.ru!.greeting });
    expect(v2.data.creator_notes_multilingual).toBeUndefined();
  });
});
