import { describe, expect, it } from 'vitest';
import { translate } from './i18n.js';

describe('translate', () => {
  it('picks the plural form each language needs for a numeric count', () => {
    expect([1, 2, 5, 21].map((count) => translate('ru', 'chat.age', { count }))).toEqual([
      '1 год',
      '2 года',
      '5 лет',
      '21 год',
    ]);
    expect(translate('ch', 'chat.age', { count: 1 })).toBe('1 岁');
    expect(translate('en', 'billing.pack_desires', { count: 1 })).toBe('1 desire');
  });

  it('writes {{count, number}} with the grouping of the language it writes in', () => {
    expect(translate('en', 'billing.pack_desires', { count: 1000 })).toBe('1,000 desires');
    expect(translate('de', 'billing.pack_desires', { count: 3000 })).toBe('3.000 Desires');
    expect(translate('ru', 'billing.pack_desires', { count: 3000 })).toBe('3\u00a0000 желаний');
  });

  it('falls back to English, then to the key, and fills plain placeholders', () => {
    expect(translate('ru', 'chat_safety.disclosure', { name: 'Luna' })).toMatch(/^Luna — ИИ-персонаж/);
    expect(translate('de', 'no.such.key')).toBe('no.such.key');
    expect(translate('es', 'pictures.captions.just_for_you')).toBe('Solo para ti 😘');
  });
});
