import { describe, expect, it } from 'vitest';
import { formatBalance, negotiateLocale, toLocale } from './constants.js';
import { isValidBotSlug, matchWebRoute, pageTitle, PAGE_TITLE_KEYS, WEB_ROUTE_PATTERNS } from './routes.js';

describe('formatBalance', () => {
  it('groups thousands as each language does', () => {
    expect(formatBalance(0)).toBe('0');
    expect(formatBalance(999)).toBe('999');
    expect(formatBalance(1000)).toBe('1,000');
    expect(formatBalance(1234567, 'en')).toBe('1,234,567');
    expect(formatBalance(1000, 'ch')).toBe('1,000');
    expect(formatBalance(1234567, 'ru')).toBe('1\u00a0234\u00a0567');
    expect(formatBalance(1234567, 'de')).toBe('1.234.567');
    expect(formatBalance(12000, 'es')).toBe('12.000');
  });
  it('never shows a negative or fractional balance', () => {
    expect(formatBalance(-5)).toBe('0');
    expect(formatBalance(12.9)).toBe('12');
    expect(formatBalance(Number.NaN)).toBe('0');
  });
});

describe('languages', () => {
  it('maps tags to interface locales, Chinese to ch', () => {
    expect(toLocale('zh-CN')).toBe('ch');
    expect(toLocale('ch')).toBe('ch');
    expect(toLocale('de-AT')).toBe('de');
    expect(toLocale('fr')).toBeNull();
  });
  it('negotiates Accept-Language by q-value, falling back to English', () => {
    expect(negotiateLocale('fr-FR,fr;q=0.9,ru;q=0.8,de;q=0.7')).toBe('ru');
    expect(negotiateLocale('de;q=0.5, es;q=0.9')).toBe('es');
    expect(negotiateLocale('fr')).toBe('en');
    expect(negotiateLocale(undefined)).toBe('en');
    expect(negotiateLocale('es;q=0')).toBe('en');
  });
});

describe('web routes', () => {
  it('matches every page of the specification', () => {
    for (const path of [
      '/',
      '/password',
      '/verify',
      '/chat',
      '/audio',
      '/settings',
      '/transform',
      '/undress',
      '/welcome',
      '/blog',
      '/email/unsubscribe',
      '/admin',
      '/terms-of-love',
    ]) {
      expect(matchWebRoute(path), path).not.toBeNull();
    }
    expect(matchWebRoute('/blog/how-memory-works')).toEqual({
      pattern: '/blog/:id',
      params: { id: 'how-memory-works' },
    });
    expect(matchWebRoute('/luna/')).toEqual({ pattern: '/:slug', params: { slug: 'luna' } });
  });
  it('matches nothing for deeper unknown paths', () => {
    expect(matchWebRoute('/no/such/page')).toBeNull();
    expect(matchWebRoute('/%E0%A4%A')).toBeNull();
  });
  it('validates slugs', () => {
    expect(isValidBotSlug('luna-star_2')).toBe(true);
    expect(isValidBotSlug('Luna')).toBe(false);
    expect(isValidBotSlug('-x')).toBe(false);
    expect(isValidBotSlug('a'.repeat(81))).toBe(false);
  });
});

describe('pageTitle', () => {
  const texts: Record<string, string> = {
    'pages.chats_title': 'Чаты',
    'errors.page_not_found_title': 'Страница не найдена',
    'pages.tagline_reverie': 'ИИ-компаньоны, которые вас помнят',
    'nav.blog': 'Блог',
  };
  const t = (key: string) => texts[key] ?? key;
  const edition = { id: 'reverie', name: 'Reverie' };
  it('names each page in the given language, the home page with the tagline', () => {
    expect(pageTitle(matchWebRoute('/chat')?.pattern ?? null, t, edition)).toBe('Чаты — Reverie');
    expect(pageTitle(matchWebRoute('/blog')?.pattern ?? null, t, edition)).toBe('Блог — Reverie');
    expect(pageTitle(matchWebRoute('/')?.pattern ?? null, t, edition)).toBe(
      'Reverie — ИИ-компаньоны, которые вас помнят',
    );
    expect(pageTitle(matchWebRoute('/a/b/c')?.pattern ?? null, t, edition)).toBe('Страница не найдена — Reverie');
  });
  it('has a title for every web route but the ones named after what they show', () => {
    for (const pattern of WEB_ROUTE_PATTERNS) {
      if (pattern === '/' || pattern === '/:slug' || pattern === '/blog/:id') continue;
      expect(PAGE_TITLE_KEYS[pattern], pattern).toBeTruthy();
    }
  });
});
