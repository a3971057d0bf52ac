import type { BotTranslations } from '../bots.repository.js';
import { CH } from './ch.js';
import { DE } from './de.js';
import { ES } from './es.js';
import { RU } from './ru.js';

/**
 * An official character in another language, as a native speaker would write her (not a
 * word-for-word translation): her occupation, her personality words (comma-separated), her
 * description, the scenario and her greeting.
 */
export type TranslatedRow = [
  occupation: string,
  personality: string,
  description: string,
  scenario: string,
  greeting: string,
];

const LANGUAGES = { ch: CH, es: ES, de: DE, ru: RU } as const;

/** The translations of one official character (by slug), as `bots.translations` stores them. */
export function officialTranslations(slug: string): BotTranslations {
  const translations: BotTranslations = {};
  for (const [locale, rows] of Object.entries(LANGUAGES) as [keyof typeof LANGUAGES, Record<string, TranslatedRow>][]) {
    const row = rows[slug];
    if (!row) continue;
    const [occupation, personality, description, scenario, greeting] = row;
    translations[locale] = {
      occupation: [occupation],
      personality: personality.split(','),
      description,
      scenario,
      greeting,
    };
  }
  return translations;
}

/** The slugs each language translates (a test holds every official character to all four). */
export const TRANSLATED_SLUGS = Object.fromEntries(
  Object.entries(LANGUAGES).map(([locale, rows]) => [locale, Object.keys(rows)]),
) as Record<keyof typeof LANGUAGES, string[]>;
