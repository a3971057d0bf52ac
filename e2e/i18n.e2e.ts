// Every page in the reader's language (issue 13, part E): the main pages, as a guest and as a
// member, in German, Spanish, Russian and Chinese. The visible text of each page (and its
// `title`, `aria-label`, `placeholder`, `alt` attributes and the tab's title) must hold no
// English phrase of the interface whose translation differs: a whole en.json text of four
// words or more (its fixed part, when it has placeholders), or one of a few shorter ones
// that the layout always shows. What users and characters wrote (names, descriptions,
// greetings) is not an interface text and is not looked at. Then Russian plural forms on a
// character's page and in Settings.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser, waitForQuiet } from './harness';
import { repoRoot } from './support/app-server.mjs';

const browser = useBrowser();

type Tree = { [key: string]: string | Tree };
const LANGUAGES = ['de', 'es', 'ru', 'ch'] as const;
type Language = (typeof LANGUAGES)[number];

const load = (locale: string) =>
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'packages/shared/src/locales', `${locale}.json`), 'utf8')) as Tree;
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );

const english = flatten(load('en'));
const translations = Object.fromEntries(LANGUAGES.map((l) => [l, flatten(load(l))])) as Record<
  Language,
  Record<string, string>
>;
/** Server-only texts (e-mails, the admin command line) never reach a page. */
const SERVER_ONLY = /^(email|admin_cli)\./;
/** Short texts the layout shows on nearly every page: checked although under four words. */
const CURATED = [
  'nav.my_balance',
  'nav.get_premium',
  'nav.create_account',
  'characters.start_chat',
  'app.skip_to_content',
];
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The English phrases a page in `language` must not show: key → the fixed English words. */
function englishPhrases(language: Language): { key: string; phrase: string }[] {
  const texts = translations[language];
  const phrases: { key: string; phrase: string }[] = [];
  for (const [key, value] of Object.entries(english)) {
    if (SERVER_ONLY.test(key)) continue;
    const base = key.replace(/_(one|few|many|other)$/, '');
    const translated = texts[key] ?? texts[`${base}_other`];
    if (!translated || translated === value) continue;
    // The longest fixed part between placeholders is what would show.
    const fixed = value
      .split(/\{\{[^}]*\}\}|\n/)
      .map((part) => part.trim().replace(/^[\s:,.—–-]+|[\s:,—–-]+$/g, ''))
      .sort((a, b) => b.length - a.length)[0];
    if (!fixed) continue;
    if (words(fixed) >= 4 || (CURATED.includes(key) && fixed === value)) {
      // The same words in the translation (a brand, a shared word) are not a leftover.
      if (translated.includes(fixed)) continue;
      phrases.push({ key, phrase: fixed });
    }
  }
  return phrases;
}

/** Everything a reader sees or hears on the page: text, labels, placeholders, alts, the title. */
async function pageTexts(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const element of Array.from(document.querySelectorAll('[title], [aria-label], [placeholder], img[alt]'))) {
      for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) parts.push(value);
      }
    }
    return parts.join('\n');
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Fails with every English phrase found, where, and the key it comes from. */
async function expectNoEnglish(page: Page, language: Language, where: string) {
  const text = (await pageTexts(page)).replace(/\s+/g, ' ');
  const found = englishPhrases(language)
    .filter(({ phrase }) => new RegExp(`(?<![\\p{L}])${escape(phrase)}(?![\\p{L}])`, 'u').test(text))
    .map(({ key, phrase }) => `${key}: "${phrase}"`);
  expect(found, `English on ${where} in ${language}`).toEqual([]);
}

const HTML_LANG: Record<Language, string> = { de: 'de', es: 'es', ru: 'ru', ch: 'zh-CN' };

/** A page in `language`, set as the app does: saved in localStorage and the `lang` cookie. */
async function pageIn(language: Language, tokens?: { access: string; refresh: string }) {
  const page = await browser.page({ ageConfirmed: true });
  await page.context().addCookies([{ name: 'lang', value: language, url: browser.url() }]);
  await page.context().addInitScript(
    ([lang, access, refresh]) => {
      window.localStorage.setItem('lang', lang!);
      if (access && refresh) {
        window.localStorage.setItem('access_token', access);
        window.localStorage.setItem('refresh_token', refresh);
      }
    },
    [language, tokens?.access ?? '', tokens?.refresh ?? ''],
  );
  return page;
}

/** Opens a path and waits until the page is drawn in its language and settled. */
async function open(page: Page, language: Language, pathname: string, ready?: string) {
  await page.goto(`${browser.url()}${pathname}`);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(HTML_LANG[language]);
  // Drawn in the language: some interface text of the language shows (the chat and the
  // welcome steps have no navigation bar to look for).
  const distinctive = Object.entries(translations[language])
    .filter(([key, value]) => !value.includes('{{') && value.length >= 4 && value !== english[key])
    .map(([, value]) => value);
  await expect
    .poll(
      async () => {
        const text = await page.evaluate(() => document.body.innerText);
        return distinctive.some((value) => text.includes(value));
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  if (ready) await page.getByTestId(ready).first().waitFor();
  await waitForQuiet(page);
  await page.waitForTimeout(300);
}

/** A path to open and the test id to wait for there, if any. */
type Visit = [pathname: string, ready: string | undefined];

/** How many pages look at a language's paths at once (most of a visit is waiting for quiet). */
const PAGES_AT_ONCE = 3;

/**
 * Opens every path in `language` and checks it for English, on a few pages at once (each page
 * takes every `PAGES_AT_ONCE`-th path, in order); answers the pages, the first one first.
 */
async function visitAll(language: Language, visits: Visit[], tokens?: { access: string; refresh: string }) {
  const lanes = Array.from({ length: Math.min(PAGES_AT_ONCE, visits.length) }, (_, lane) =>
    visits.filter((_, i) => i % PAGES_AT_ONCE === lane),
  );
  return Promise.all(
    lanes.map(async (lane) => {
      const page = await pageIn(language, tokens);
      for (const [pathname, ready] of lane) {
        await open(page, language, pathname, ready);
        await expectNoEnglish(page, language, pathname);
      }
      return page;
    }),
  );
}

async function firstCharacter(): Promise<{ slug: string; age: number; name: string }> {
  const res = await fetch(`${browser.url()}/api/bots/available?size=1`);
  const body = (await res.json()) as { results: { slug: string; age: number; name: string }[] };
  return body.results[0]!;
}

async function firstPostId(): Promise<string | null> {
  const res = await fetch(`${browser.url()}/api/blog?size=1`);
  if (!res.ok) return null;
  const body = (await res.json()) as { results: { id: string }[] };
  return body.results[0]?.id ?? null;
}

async function member(): Promise<{ access: string; refresh: string }> {
  const email = `i18n_${randomUUID().slice(0, 8)}@example.test`;
  const password = 'correct horse battery';
  const reg = await fetch(`${browser.url()}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'Lena', email, password, age_confirmed: true }),
  });
  expect(reg.status).toBe(201);
  const login = await fetch(`${browser.url()}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return (await login.json()) as { access: string; refresh: string };
}

/** The text of a plural key for a count, as i18next picks it (Intl plural rules). */
function plural(language: Language, key: string, count: number): string {
  const category = new Intl.PluralRules(HTML_LANG[language]).select(count);
  const texts = translations[language];
  const text = texts[`${key}_${category}`] ?? texts[`${key}_other`]!;
  return text.replace(/\{\{\s*count(?:,\s*number)?\s*\}\}/, new Intl.NumberFormat(HTML_LANG[language]).format(count));
}

describe('every page in the reader language', () => {
  for (const language of LANGUAGES) {
    it(`${language}: a guest's pages show no English interface text`, async () => {
      const bot = await firstCharacter();
      const post = await firstPostId();
      const visits: Visit[] = [
        ['/', 'character-card'],
        [`/${bot.slug}`, 'character-intro'],
        ['/blog', undefined],
        ['/welcome', undefined],
        ['/?login=1', 'login-form'],
        ['/?signup=1', undefined],
      ];
      if (post) visits.push([`/blog/${post}`, undefined]);
      const [page] = await visitAll(language, visits);
      // The tab's title is the page's, in the language.
      await open(page!, language, '/blog');
      expect(await page!.title()).toContain(translations[language]['nav.blog']);
    });

    it(`${language}: a member's pages, modals and chat show no English interface text`, async () => {
      const bot = await firstCharacter();
      const visits: Visit[] = [
        ['/', 'character-card'],
        ['/settings', undefined],
        ['/?premium=1&from=e2e', undefined],
        ['/?pw=1&from=e2e', undefined],
        [`/${bot.slug}`, 'system-notice'],
      ];
      const [page] = await visitAll(language, visits, await member());
      // The chats list once the chat above exists.
      await open(page!, language, '/chat');
      await expectNoEnglish(page!, language, '/chat');
      // The AI notice of the chat just opened is in the language (written from its kind).
      await open(page!, language, `/${bot.slug}`, 'system-notice');
      const notice = await page!.getByTestId('system-notice').first().innerText();
      expect(notice).toContain(
        translations[language]['chat_safety.disclosure']!.split('{{name}}').at(-1)!.trim().slice(0, 12),
      );
    });
  }

  it('ru: ages and the balance take the Russian plural forms', async () => {
    const bot = await firstCharacter();
    const page = await pageIn('ru', await member());
    await open(page, 'ru', `/${bot.slug}`, 'character-intro');
    const intro = await page.getByTestId('character-intro').innerText();
    expect(intro).toContain(plural('ru', 'chat.age', bot.age));
    // 21 год, 22 года, 25 лет: the form follows the number.
    expect([21, 22, 25].map((n) => plural('ru', 'chat.age', n))).toEqual(['21 год', '22 года', '25 лет']);

    await open(page, 'ru', '/settings');
    const profile = (await await page.evaluate(async () => {
      const res = await fetch('/api/profile', {
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
      });
      return res.json();
    })) as { num_tokens: number };
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain(`Баланс: ${plural('ru', 'nav.balance_value', profile.num_tokens)}`);
    expect(text).not.toMatch(/Баланс: Желаний/);
  });
});
