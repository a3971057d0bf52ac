import { describe, expect, it } from 'vitest';
import ch from '@reverie/shared/locales/ch.json';
import de from '@reverie/shared/locales/de.json';
import en from '@reverie/shared/locales/en.json';
import es from '@reverie/shared/locales/es.json';
import ru from '@reverie/shared/locales/ru.json';
import { formatBalance, formatDate, formatNumber, formatPrice, formatRelative } from './format';
import { createTranslator } from './i18n';

const instance = createTranslator({ lng: 'en', resources: { en, ch, es, de, ru } });

const t = (lng: string, key: string, count: number) => instance.t(key, { lng, count });

describe('plural forms (i18next with our language codes)', () => {
  it('writes Russian ages and desires in the form each number needs: 1, 2, 5, 21', () => {
    expect([1, 2, 5, 21, 32, 11, 25].map((n) => t('ru', 'chat.age', n))).toEqual([
      '1 год',
      '2 года',
      '5 лет',
      '21 год',
      '32 года',
      '11 лет',
      '25 лет',
    ]);
    expect([1, 2, 5, 21, 547].map((n) => t('ru', 'nav.balance_value', n))).toEqual([
      '1 желание',
      '2 желания',
      '5 желаний',
      '21 желание',
      '547 желаний',
    ]);
    expect(t('ru', 'pictures.unblur', 3)).toBe('Открыть за 3 желания');
    expect(t('ru', 'claim.button', 100)).toBe('Получить 100 желаний');
  });

  it('groups thousands per language inside a counted text', () => {
    expect(t('en', 'billing.pack_desires', 1000)).toBe('1,000 desires');
    expect(t('en', 'billing.pack_desires', 1)).toBe('1 desire');
    expect(t('ru', 'billing.pack_desires', 3000)).toBe('3\u00a0000 желаний');
    expect(t('de', 'billing.pack_desires', 3000)).toBe('3.000 Desires');
    expect(t('es', 'billing.pack_desires', 1_000_000)).toBe('1.000.000 de deseos');
    expect(t('ch', 'billing.pack_desires', 1000)).toBe('1,000 心愿币');
  });

  it('gives Chinese (our `ch`, which Intl would take for Chamorro) its one form, never English', () => {
    expect(t('ch', 'chat.age', 1)).toBe('1 岁');
    expect(t('ch', 'nav.balance_value', 1)).toBe('1 心愿币');
    expect(t('ch', 'claim.button', 1)).toBe('领取 1 心愿币');
  });

  it('has German and Spanish singulars', () => {
    expect(t('de', 'chat.age', 32)).toBe('32 Jahre');
    expect(t('de', 'nav.balance_value', 1)).toBe('1 Desire');
    expect(t('es', 'chat.age', 21)).toBe('21 años');
    expect(t('es', 'billing.trial', 3)).toBe('Prueba gratis de 3 días');
  });
});

describe('formats (Intl with zh-CN for our ch)', () => {
  it('formats numbers and balances per language', () => {
    expect(formatNumber(1000, 'en')).toBe('1,000');
    expect(formatBalance(1000, 'en')).toBe('1,000');
    expect(formatBalance(-3, 'en')).toBe('0');
    expect(formatBalance(12345, 'de')).toBe('12.345');
    expect(formatBalance(12345, 'ru')).toBe('12\u00a0345');
  });

  it('formats prices and dates per language', () => {
    expect(formatPrice(199, 'usd', 'en')).toBe('$1.99');
    expect(formatPrice(199, 'usd', 'de')).toBe('1,99\u00a0$');
    expect(formatDate('2026-11-12T10:00:00Z', 'ch')).toBe('2026年11月12日');
    expect(formatDate('2026-11-12T10:00:00Z', 'en')).toBe('Nov 12, 2026');
    expect(formatDate('not a date', 'en')).toBe('');
  });

  it('says how long ago in words', () => {
    const now = Date.parse('2026-11-12T10:00:00Z');
    expect(formatRelative('2026-11-12T09:55:00Z', 'en', now)).toBe('5 minutes ago');
    expect(formatRelative('2026-11-10T10:00:00Z', 'ru', now)).toBe('позавчера');
    expect(formatRelative('2026-11-11T10:00:00Z', 'de', now)).toBe('gestern');
  });
});
