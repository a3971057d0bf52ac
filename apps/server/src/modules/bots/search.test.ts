import { beforeAll, describe, expect, it } from 'vitest';
import type { BotList } from '@reverie/shared';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { hanGrams, searchTerms } from './search-terms.js';

/**
 * Catalogue search (docs/characters.md "Search"): full text in every language, typos corrected
 * from the catalogue's own words, ranked, with the filters. Run on PGlite and PostgreSQL.
 */
let t: TestApp;
const made: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const add = async (key: string, values: Parameters<typeof createBot>[1]) => {
    made[key] = (await createBot(t.database.db, values)).id;
  };
  await add('doctor', {
    name: 'Mara Quill',
    description: 'A ship doctor who patches up smugglers and never asks where the wounds came from.',
    greeting: 'Sit down and hold still.',
    tags: ['realistic'],
  });
  await add('doctorName', { name: 'Doctor Lune', description: 'She runs a night bakery.', tags: ['anime'] });
  await add('astronaut', {
    name: 'Iris Vale',
    description: 'A retired astronaut who still counts sunrises from orbit.',
    greeting: 'Ground control, do you read me?',
    tags: ['anime'],
  });
  await add('spanish', {
    name: 'Lucía Ferrer',
    description: 'Una médica rural que recorre los pueblos de la montaña en una moto vieja.',
    greeting: '¿Dónde te duele?',
    tags: ['realistic'],
  });
  await add('german', {
    name: 'Greta Sommer',
    description: 'Eine Astronautin, die nach ihrer Rückkehr eine Imkerei am Bodensee eröffnet hat.',
    greeting: 'Willkommen auf der Erde.',
    tags: ['realistic'],
  });
  await add('russian', {
    name: 'Вера Орлова',
    description: 'Врач скорой помощи, которая после смены играет на виолончели.',
    greeting: 'Где болит?',
    tags: ['realistic'],
  });
  await add('chinese', {
    name: '林星',
    description: '一位退役宇航员，现在在海边开了一家书店。',
    greeting: '欢迎光临，随便看看。',
    tags: ['anime'],
  });
  // An official character's translation is searched in its language.
  await add('translated', {
    name: 'Nell Hart',
    isOfficial: true,
    description: 'A lighthouse keeper on a stormy island.',
    translations: {
      es: { description: 'Una farera en una isla tormentosa.' },
      de: { description: 'Eine Leuchtturmwärterin auf einer stürmischen Insel.' },
      ru: { description: 'Смотрительница маяка на штормовом острове.' },
      ch: { description: '一位在风暴岛上看守灯塔的女人。', occupation: ['灯塔看守人'] },
    },
    tags: ['anime'],
  });
  await add('private', {
    name: 'Hidden Medic',
    description: 'A doctor nobody else may see.',
    visibility: 'private',
    reviewState: 'pending',
  });
});

async function search(
  q: string,
  locale = 'en',
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const res = await t.app.inject({
    url: `/api/bots/available?${new URLSearchParams({ q, ...extra })}`,
    headers: { 'accept-language': locale, ...headers },
  });
  expect(res.statusCode).toBe(200);
  return res.json<BotList>();
}
const ids = async (q: string, locale = 'en', extra: Record<string, string> = {}) =>
  (await search(q, locale, extra)).results.map((b) => b.id);

describe('catalogue search', () => {
  it('finds characters by what their description says, not only by name', async () => {
    expect(await ids('doctor')).toEqual(expect.arrayContaining([made.doctor, made.doctorName]));
    // The last word is also a prefix (searching while typing): the German Astronautin too.
    expect(await ids('astronaut')).toEqual([made.astronaut, made.german]);
    expect(await ids('smugglers wounds')).toEqual([made.doctor]);
    // English stemming: plural and -ing forms.
    expect(await ids('doctors')).toContain(made.doctor);
    expect(await ids('counting sunrise')).toEqual([made.astronaut]);
    // The greeting is searched too.
    expect(await ids('ground control')).toEqual([made.astronaut]);
  });

  it('ranks a name above a description', async () => {
    expect((await ids('doctor')).slice(0, 2)).toEqual([made.doctorName, made.doctor]);
  });

  it('corrects a typo from the catalogue’s own words', async () => {
    expect(await ids('astronuat')).toContain(made.astronaut);
    expect(await ids('smugglrs')).toEqual([made.doctor]);
    expect(await ids('docter')).toEqual(expect.arrayContaining([made.doctor, made.doctorName]));
  });

  it('looks corrections up only when nothing is found, and again for a corrected search’s next page', async () => {
    // "astro" is no word of the catalogue, but finds as a prefix: no correction is made.
    const astro = await ids('astro');
    expect(astro).toHaveLength(2);
    expect(astro).toEqual(expect.arrayContaining([made.astronaut, made.german]));
    const first = await search('docter', 'en', { size: '1' });
    const second = await search('docter', 'en', { size: '1', c: first.next_param! });
    expect([...first.results, ...second.results].map((b) => b.id)).toEqual([made.doctorName, made.doctor]);
    expect(second.next_param).toBeNull();
  });

  it('searches Spanish, with stemming and a typo', async () => {
    expect(await ids('médicas', 'es')).toEqual([made.spanish]);
    expect(await ids('montañas pueblo', 'es')).toEqual([made.spanish]);
    expect(await ids('montana', 'es')).toEqual([made.spanish]);
    expect(await ids('farera', 'es')).toEqual([made.translated]);
  });

  it('searches German, with stemming and a typo', async () => {
    expect((await ids('Astronautinnen', 'de'))[0]).toBe(made.german);
    expect(await ids('Imkerei', 'de')).toEqual([made.german]);
    expect(await ids('Imkerrei', 'de')).toEqual([made.german]);
    expect(await ids('Leuchtturmwärterin', 'de')).toEqual([made.translated]);
  });

  it('searches Russian, with stemming and a typo', async () => {
    expect(await ids('врачи', 'ru')).toEqual([made.russian]);
    expect(await ids('виолончель', 'ru')).toEqual([made.russian]);
    expect(await ids('виолнчели', 'ru')).toEqual([made.russian]);
    expect(await ids('маяк', 'ru')).toEqual([made.translated]);
  });

  it('searches Chinese by Han bigrams, one character included, and a wrong character finds nothing', async () => {
    expect(await ids('宇航员', 'ch')).toEqual([made.chinese]);
    expect(await ids('书店', 'ch')).toEqual([made.chinese]);
    expect(await ids('林星', 'ch')).toEqual([made.chinese]);
    expect(await ids('灯塔', 'ch')).toEqual([made.translated]);
    expect(await ids('灯塔看守人', 'ch')).toEqual([made.translated]);
    expect(await ids('宇宙飞船', 'ch')).toEqual([]);
    expect(hanGrams('宇航员')).toEqual(['宇航', '航员']);
    expect(hanGrams('猫')).toEqual(['猫']);
  });

  it('finds a word of any language whatever the reader’s language', async () => {
    expect(await ids('astronaut', 'ru')).toEqual([made.astronaut, made.german]);
    expect(await ids('врач', 'en')).toEqual([made.russian]);
    expect(await ids('lighthouse', 'ch')).toEqual([made.translated]);
  });

  it('combines with the filters, requires every word and keeps private characters to their author', async () => {
    expect(await ids('doctor', 'en', { tags: 'anime' })).toEqual([made.doctorName]);
    expect(await ids('doctor', 'en', { tags: 'official' })).toEqual([]);
    expect(await ids('lighthouse', 'en', { tags: 'official,anime' })).toEqual([made.translated]);
    // The style filter is also asked of the index (the tag's lexeme), the exact filter stays.
    expect(await ids('doctor', 'en', { tags: 'realistic' })).toEqual([made.doctor]);
    expect(await ids('doctor', 'en', { tags: 'anime,realistic' })).toEqual([made.doctorName, made.doctor]);
    expect(await ids('lighthouse', 'en', { tags: 'official' })).toEqual([made.translated]);
    expect(await ids('lighthouse', 'en', { tags: 'custom' })).toEqual([]);
    expect(await ids('realistic', 'en', { tags: 'anime' })).toEqual([]);
    expect(await ids('doctor bakery')).toEqual([made.doctorName]);
    expect(await ids('doctor zeppelin')).toEqual([]);
    expect(await ids('medic')).not.toContain(made.private);
    const owner = await createUser(t.app, t.database.db);
    const own = await createBot(t.database.db, {
      name: 'Secret Surgeon',
      description: 'A surgeon kept private.',
      visibility: 'private',
      reviewState: 'pending',
      authorId: owner.user.id,
    });
    expect(await ids('surgeon')).toEqual([]);
    expect((await search('surgeon', 'en', {}, owner.auth)).results.map((b) => b.id)).toEqual([own.id]);
  });

  it('pages a search by offset and ignores stop words and punctuation', async () => {
    const first = await search('doctor', 'en', { size: '1' });
    const second = await search('doctor', 'en', { size: '1', c: first.next_param! });
    expect([...first.results, ...second.results].map((b) => b.id)).toEqual([made.doctorName, made.doctor]);
    expect(second.next_param).toBeNull();
    expect(await ids('the astronauts')).toEqual([made.astronaut]);
    expect(await ids('"astronauts" & !|')).toEqual([made.astronaut]);
    expect(await ids('!!!')).toEqual([]);
    expect(searchTerms('  Ärztin, 医生!  Ärztin ').words).toEqual(['ärztin']);
    // A keyset cursor of the plain catalogue is no search cursor.
    const plain = await t.app.inject({ url: '/api/bots/available?size=1' });
    const bad = await t.app.inject({ url: `/api/bots/available?q=doctor&c=${plain.json<BotList>().next_param}` });
    expect(bad.statusCode).toBe(400);
  });
});
