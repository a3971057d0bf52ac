import { describe, expect, it } from 'vitest';
import { createTranslator } from './i18n';

const en = {
  nav: { explore: 'Explore', chats: 'Chats' },
  greet: 'Hello, {{name}}!',
  desires_one: '{{count, number}} desire',
  desires_other: '{{count, number}} desires',
  only_en: 'Only English',
};
const ru = {
  nav: { explore: 'Обзор' },
  greet: 'Привет, {{name}}!',
  desires_one: '{{count, number}} желание',
  desires_few: '{{count, number}} желания',
  desires_many: '{{count, number}} желаний',
  desires_other: '{{count, number}} желания',
};

describe('the translator (lib/translator.ts)', () => {
  it('reads nested keys, fills placeholders and falls back to English, then to the key', () => {
    const i18n = createTranslator({ lng: 'ru', resources: { en, ru } });
    expect(i18n.t('nav.explore')).toBe('Обзор');
    expect(i18n.t('nav.chats')).toBe('Chats');
    expect(i18n.t('greet', { name: 'Аня' })).toBe('Привет, Аня!');
    expect(i18n.t('greet')).toBe('Привет, {{name}}!');
    expect(i18n.t('no.such.key')).toBe('no.such.key');
    expect(i18n.t('no.such.key', 'Fallback')).toBe('Fallback');
    expect(i18n.t('no.such.key', { defaultValue: 'Hi {{name}}', name: 'Ann' })).toBe('Hi Ann');
    expect(i18n.exists('only_en')).toBe(true);
    expect(i18n.exists('nav')).toBe(false);
    expect(i18n.t('greet', { lng: 'en', name: 'Ann' })).toBe('Hello, Ann!');
  });

  it('picks the plural form each language needs and groups numbers per language', () => {
    const i18n = createTranslator({ lng: 'ru', resources: { en, ru } });
    expect([1, 2, 5, 21, 1000].map((count) => i18n.t('desires', { count }))).toEqual([
      '1 желание',
      '2 желания',
      '5 желаний',
      '21 желание',
      '1\u00a0000 желаний',
    ]);
    expect(i18n.t('desires', { count: 1000, lng: 'en' })).toBe('1,000 desires');
    expect(i18n.t('desires', { count: 1, lng: 'en' })).toBe('1 desire');
  });

  it('loads a language when chosen, tells its listeners, and shows English when the load fails', async () => {
    const loads: string[] = [];
    const i18n = createTranslator({
      lng: 'en',
      resources: { en },
      load: async (lng) => {
        loads.push(lng);
        if (lng === 'de') throw new Error('offline');
        return ru;
      },
    });
    let changes = 0;
    i18n.onLanguageChanged(() => changes++);
    await i18n.changeLanguage('ru');
    expect([i18n.language, i18n.resolvedLanguage, i18n.t('nav.explore')]).toEqual(['ru', 'ru', 'Обзор']);
    await i18n.changeLanguage('de');
    expect([i18n.language, i18n.resolvedLanguage, i18n.t('nav.explore')]).toEqual(['de', 'en', 'Explore']);
    await i18n.changeLanguage('ru');
    expect(loads).toEqual(['ru', 'de']);
    expect(changes).toBe(3);
  });

  it('adds texts deeply without overwriting unless asked', () => {
    const i18n = createTranslator({ lng: 'en', resources: { en } });
    i18n.addResourceBundle('en', 'translation', { nav: { explore: 'Other', blog: 'Blog' } });
    expect([i18n.t('nav.explore'), i18n.t('nav.blog'), i18n.t('nav.chats')]).toEqual(['Explore', 'Blog', 'Chats']);
    i18n.addResourceBundle('en', 'translation', { nav: { explore: 'Other' } }, true, true);
    expect(i18n.t('nav.explore')).toBe('Other');
  });
});
