import type { Locale } from '@reverie/shared';
import type { BotRow } from './bots.repository.js';

/**
 * A character as a reader of `locale` sees it (docs/characters.md "Localization"): the
 * official characters' description, greeting, scenario and descriptive tags in that language
 * when the seed wrote them (`bots.translations`), else the character's own text — English for
 * the official ones, the author's language for the others.
 */
export function localizeBot<T extends BotRow>(row: T, locale: Locale): T {
  if (locale === 'en') return row;
  const text = row.translations?.[locale];
  if (!text) return row;
  return {
    ...row,
    description: text.description ?? row.description,
    greeting: text.greeting ?? row.greeting,
    scenario: text.scenario ?? row.scenario,
    occupation: text.occupation ?? row.occupation,
    personality: text.personality ?? row.personality,
  };
}
